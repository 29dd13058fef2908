;; Line feeds counted with WebAssembly SIMD, 16 bytes a step: the source of line-feeds-wasm.ts
;; (`npm run wasm` compiles it there; a test checks that the two agree).
;;
;; `nth(from, end, n)` looks for the n-th line feed (byte 0x0a) in memory[from, end). It returns
;; the address of that line feed, or, when the range holds fewer than n, -1 minus how many it holds.
;; n is at least 1. It never reads outside [from, end), so the caller's chunk may end anywhere.
;;
;; `nthBreak(from, end, n)` does the same for line breaks of every kind, for text with carriage
;; returns (0x0d): a break ends at a line feed (alone, or the second byte of CR LF) or at a CR not
;; followed by a line feed; a CR that is the range's last byte ends one too (the caller decides,
;; from the next chunk, whether it was half of a CR LF). It returns the address of the n-th
;; break's last byte, or -1 minus how many breaks there are, and leaves in the globals `lfs`,
;; `crs` and `pairs` how many line feeds, CRs and CR LF pairs the range holds up to that byte.
;;
;; Three passes, each picking up where the last stopped:
;; - 1 KiB blocks while the block cannot hold the n-th feed: each byte compared with 0x0a and the
;;   matches summed per lane (at most 64 a lane in a block, so a byte never overflows), then the
;;   lanes added up once a block;
;; - 16-byte steps with a bit mask of the matches, down to the step that holds the n-th feed,
;;   where the mask's bits give its position;
;; - the last bytes of the range, under 16, one by one.
;; `nthBreak` reads one byte ahead of each 16 (is a CR followed by a line feed?), so its steps stop
;; a byte sooner, and it never reads at `end`.
(module
  (import "env" "memory" (memory 1))
  (global $lfs (export "lfs") (mut i32) (i32.const 0))
  (global $crs (export "crs") (mut i32) (i32.const 0))
  (global $pairs (export "pairs") (mut i32) (i32.const 0))

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

    (i32.sub (i32.const -1) (local.get $count)))

  (func (export "nthBreak") (param $p i32) (param $end i32) (param $n i32) (result i32)
    (local $count i32) (local $lf v128) (local $cr v128) (local $q i32) (local $stop i32)
    (local $lanesLF v128) (local $lanesCR v128) (local $lanesPair v128)
    (local $a v128) (local $isCR v128) (local $c i32) (local $cLF i32) (local $cCR i32) (local $cPair i32)
    (local $mLF i32) (local $mCR i32) (local $mPair i32) (local $bits i32) (local $upTo i32) (local $at i32)
    (local $byte i32)
    (local.set $lf (i8x16.splat (i32.const 10)))
    (local.set $cr (i8x16.splat (i32.const 13)))
    (global.set $lfs (i32.const 0))
    (global.set $crs (i32.const 0))
    (global.set $pairs (i32.const 0))

    (block $blocks_done
      (loop $blocks
        (local.set $stop (i32.add (local.get $p) (i32.const 1024)))
        ;; The byte at `stop` is read too (the one after the block's last CR).
        (br_if $blocks_done (i32.ge_u (local.get $stop) (local.get $end)))
        (local.set $lanesLF (v128.const i32x4 0 0 0 0))
        (local.set $lanesCR (v128.const i32x4 0 0 0 0))
        (local.set $lanesPair (v128.const i32x4 0 0 0 0))
        (local.set $q (local.get $p))
        (loop $block
          (local.set $a (v128.load (local.get $q)))
          (local.set $isCR (i8x16.eq (local.get $a) (local.get $cr)))
          (local.set $lanesLF (i8x16.sub (local.get $lanesLF) (i8x16.eq (local.get $a) (local.get $lf))))
          (local.set $lanesCR (i8x16.sub (local.get $lanesCR) (local.get $isCR)))
          (local.set $lanesPair (i8x16.sub (local.get $lanesPair)
            (v128.and (local.get $isCR) (i8x16.eq (v128.load offset=1 (local.get $q)) (local.get $lf)))))
          (local.set $q (i32.add (local.get $q) (i32.const 16)))
          (br_if $block (i32.lt_u (local.get $q) (local.get $stop))))
        (local.set $cLF (call $sum (local.get $lanesLF)))
        (local.set $cCR (call $sum (local.get $lanesCR)))
        (local.set $cPair (call $sum (local.get $lanesPair)))
        ;; Breaks: every line feed, and every CR not followed by one.
        (local.set $c (i32.sub (i32.add (local.get $cLF) (local.get $cCR)) (local.get $cPair)))
        (br_if $blocks_done (i32.ge_u (i32.add (local.get $count) (local.get $c)) (local.get $n)))
        (local.set $count (i32.add (local.get $count) (local.get $c)))
        (global.set $lfs (i32.add (global.get $lfs) (local.get $cLF)))
        (global.set $crs (i32.add (global.get $crs) (local.get $cCR)))
        (global.set $pairs (i32.add (global.get $pairs) (local.get $cPair)))
        (local.set $p (local.get $stop))
        (br $blocks)))

    (block $steps_done
      (loop $steps
        (br_if $steps_done (i32.ge_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
        (local.set $a (v128.load (local.get $p)))
        (local.set $mLF (i8x16.bitmask (i8x16.eq (local.get $a) (local.get $lf))))
        (local.set $mCR (i8x16.bitmask (i8x16.eq (local.get $a) (local.get $cr))))
        (local.set $mPair (i32.and (local.get $mCR)
          (i8x16.bitmask (i8x16.eq (v128.load offset=1 (local.get $p)) (local.get $lf)))))
        (local.set $bits (i32.or (local.get $mLF) (i32.xor (local.get $mCR) (local.get $mPair))))
        (local.set $c (i32.popcnt (local.get $bits)))
        (if (i32.ge_u (i32.add (local.get $count) (local.get $c)) (local.get $n))
          (then
            (loop $clear
              (if (i32.lt_u (i32.add (local.get $count) (i32.const 1)) (local.get $n))
                (then
                  (local.set $bits (i32.and (local.get $bits) (i32.sub (local.get $bits) (i32.const 1))))
                  (local.set $count (i32.add (local.get $count) (i32.const 1)))
                  (br $clear))))
            (local.set $at (i32.ctz (local.get $bits)))
            ;; The tallies take the bytes up to the break's last one, that one included.
            (local.set $upTo (i32.sub (i32.shl (i32.const 2) (local.get $at)) (i32.const 1)))
            (global.set $lfs (i32.add (global.get $lfs) (i32.popcnt (i32.and (local.get $mLF) (local.get $upTo)))))
            (global.set $crs (i32.add (global.get $crs) (i32.popcnt (i32.and (local.get $mCR) (local.get $upTo)))))
            (global.set $pairs (i32.add (global.get $pairs) (i32.popcnt (i32.and (local.get $mPair) (local.get $upTo)))))
            (return (i32.add (local.get $p) (local.get $at)))))
        (local.set $count (i32.add (local.get $count) (local.get $c)))
        (global.set $lfs (i32.add (global.get $lfs) (i32.popcnt (local.get $mLF))))
        (global.set $crs (i32.add (global.get $crs) (i32.popcnt (local.get $mCR))))
        (global.set $pairs (i32.add (global.get $pairs) (i32.popcnt (local.get $mPair))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $steps)))

    (block $bytes_done
      (loop $bytes
        (br_if $bytes_done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $byte (i32.load8_u (local.get $p)))
        (if (i32.eq (local.get $byte) (i32.const 10))
          (then
            (global.set $lfs (i32.add (global.get $lfs) (i32.const 1)))
            (local.set $count (i32.add (local.get $count) (i32.const 1)))))
        (if (i32.eq (local.get $byte) (i32.const 13))
          (then
            (global.set $crs (i32.add (global.get $crs) (i32.const 1)))
            ;; A CR LF pair, or a break of its own (also at the range's last byte, where the next
            ;; byte is not the range's: read it only inside, as `i32.and` would read it anyway).
            (local.set $c (i32.const 0))
            (if (i32.lt_u (i32.add (local.get $p) (i32.const 1)) (local.get $end))
              (then (local.set $c (i32.eq (i32.load8_u offset=1 (local.get $p)) (i32.const 10)))))
            (if (local.get $c)
              (then (global.set $pairs (i32.add (global.get $pairs) (i32.const 1))))
              (else (local.set $count (i32.add (local.get $count) (i32.const 1)))))))
        (if (i32.and
              (i32.eq (local.get $count) (local.get $n))
              (i32.or (i32.eq (local.get $byte) (i32.const 10)) (i32.eq (local.get $byte) (i32.const 13))))
          (then (return (local.get $p))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $bytes)))

    (i32.sub (i32.const -1) (local.get $count))))
