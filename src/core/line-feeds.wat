;; Line feeds counted with WebAssembly SIMD, 16 bytes a step: the source of line-feeds-wasm.ts
;; (`npm run wasm` compiles it there; a test checks that the two agree).
;;
;; `nth(from, end, n)` looks for the n-th line feed (byte 0x0a) in memory[from, end). It returns
;; the address of that line feed, or, when the range holds fewer than n, -1 minus how many it holds.
;; n is at least 1. It never reads outside [from, end), so the caller's chunk may end anywhere.
;;
;; Three passes, each picking up where the last stopped:
;; - 1 KiB blocks while the block cannot hold the n-th feed: each byte compared with 0x0a and the
;;   matches summed per lane (at most 64 a lane in a block, so a byte never overflows), then the
;;   lanes added up once a block;
;; - 16-byte steps with a bit mask of the matches, down to the step that holds the n-th feed,
;;   where the mask's bits give its position;
;; - the last bytes of the range, under 16, one by one.
(module
  (import "env" "memory" (memory 1))

  (func $sum (param $lanes v128) (result i32)
    (local $quads v128)
    (local.set $quads (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $lanes))))
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $quads)) (i32x4.extract_lane 1 (local.get $quads)))
      (i32.add (i32x4.extract_lane 2 (local.get $quads)) (i32x4.extract_lane 3 (local.get $quads)))))

  (func (export "nth") (param $p i32) (param $end i32) (param $n i32) (result i32)
    (local $count i32) (local $lanes v128) (local $q i32) (local $stop i32) (local $c i32)
    (local $lf v128) (local $bits i32)
    (local.set $lf (i8x16.splat (i32.const 10)))

    (block $blocks_done
      (loop $blocks
        (local.set $stop (i32.add (local.get $p) (i32.const 1024)))
        (br_if $blocks_done (i32.gt_u (local.get $stop) (local.get $end)))
        (local.set $lanes (v128.const i32x4 0 0 0 0))
        (local.set $q (local.get $p))
        (loop $block
          ;; A match is -1 in its lane: subtracting it counts it.
          (local.set $lanes (i8x16.sub (local.get $lanes) (i8x16.eq (v128.load (local.get $q)) (local.get $lf))))
          (local.set $lanes (i8x16.sub (local.get $lanes) (i8x16.eq (v128.load offset=16 (local.get $q)) (local.get $lf))))
          (local.set $lanes (i8x16.sub (local.get $lanes) (i8x16.eq (v128.load offset=32 (local.get $q)) (local.get $lf))))
          (local.set $lanes (i8x16.sub (local.get $lanes) (i8x16.eq (v128.load offset=48 (local.get $q)) (local.get $lf))))
          (local.set $q (i32.add (local.get $q) (i32.const 64)))
          (br_if $block (i32.lt_u (local.get $q) (local.get $stop))))
        (local.set $c (call $sum (local.get $lanes)))
        ;; The n-th feed is in this block: the steps below find it.
        (br_if $blocks_done (i32.ge_u (i32.add (local.get $count) (local.get $c)) (local.get $n)))
        (local.set $count (i32.add (local.get $count) (local.get $c)))
        (local.set $p (local.get $stop))
        (br $blocks)))

    (block $steps_done
      (loop $steps
        (br_if $steps_done (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
        (local.set $bits (i8x16.bitmask (i8x16.eq (v128.load (local.get $p)) (local.get $lf))))
        (local.set $c (i32.popcnt (local.get $bits)))
        (if (i32.ge_u (i32.add (local.get $count) (local.get $c)) (local.get $n))
          (then
            ;; Clear the lowest bits, one per feed before the n-th; the lowest left is the n-th.
            (loop $clear
              (if (i32.lt_u (i32.add (local.get $count) (i32.const 1)) (local.get $n))
                (then
                  (local.set $bits (i32.and (local.get $bits) (i32.sub (local.get $bits) (i32.const 1))))
                  (local.set $count (i32.add (local.get $count) (i32.const 1)))
                  (br $clear))))
            (return (i32.add (local.get $p) (i32.ctz (local.get $bits))))))
        (local.set $count (i32.add (local.get $count) (local.get $c)))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $steps)))

    (block $bytes_done
      (loop $bytes
        (br_if $bytes_done (i32.ge_u (local.get $p) (local.get $end)))
        (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 10))
          (then
            (local.set $count (i32.add (local.get $count) (i32.const 1)))
            (if (i32.eq (local.get $count) (local.get $n)) (then (return (local.get $p))))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $bytes)))

    (i32.sub (i32.const -1) (local.get $count))))
