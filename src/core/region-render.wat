;; A region's lines rendered with WebAssembly SIMD: the source of region-render-wasm.ts (`npm run
;; wasm` compiles it there; a test checks that the two agree). `WindowOutput.emitRegion` drives it
;; through `RegionRenderer` (region-renderer.ts), which says what a region is.
;;
;; Memory, the module's own: the line head's prefix at 0 and its separator at 256 (UTF-8, at most
;; 192 bytes each), the output from the address `begin` gives, the source lines after it. Both
;; areas need 16 bytes of slack past their ends: a step reads 16 source bytes and writes them all,
;; and only the bytes up to the line feed count.
;;
;; `begin(source, out)` starts a region. `render(end, ...)` then renders its lines, each as
;; [a line feed between lines] [prefix, number padded with spaces to `width`, separator] [text],
;; until one of them stops it, and leaves in the globals where it stopped and why:
;; - `lines` lines were rendered, the room it was given;
;; - the next line's line feed is not before `end` (`why` 1: the caller may copy more source and
;;   call `render` again, which goes on from there);
;; - the next line is longer than `lineChars` (in bytes, or in UTF-16 code units without its CR),
;;   holds a CR that is not its break's (with flag 2, CR LF breaks), or would take the output past
;;   `bytesRoom` bytes or `charsRoom` code units (`why` 0).
;; A line that stops it is rolled back: `out` is where the last whole line ends, `next` where the
;; next line starts in the source. Flags: 1 numbered, 2 CR LF breaks, 4 the first line counts the
;; line feed joining it to the output before (`WindowOutput.pieces` writes it).
;;
;; The UTF-16 code units of a line are its bytes, less its continuation bytes (10xxxxxx), plus one
;; for each 4-byte lead (11110xxx); `high` is set when any taken byte is not ASCII, and the caller
;; then checks that the region is valid UTF-8 (nothing here does).
(module
  (memory (export "memory") 1)
  (global $next (export "next") (mut i32) (i32.const 0))
  (global $out (export "out") (mut i32) (i32.const 0))
  (global $lines (export "lines") (mut i32) (i32.const 0))
  (global $bytes (export "bytes") (mut i32) (i32.const 0))
  (global $chars (export "chars") (mut i32) (i32.const 0))
  (global $pairs (export "pairs") (mut i32) (i32.const 0))
  (global $high (export "high") (mut i32) (i32.const 0))
  (global $why (export "why") (mut i32) (i32.const 0))

  (func (export "begin") (param $source i32) (param $out i32)
    (global.set $next (local.get $source))
    (global.set $out (local.get $out))
    (global.set $lines (i32.const 0))
    (global.set $bytes (i32.const 0))
    (global.set $chars (i32.const 0))
    (global.set $pairs (i32.const 0))
    (global.set $high (i32.const 0)))

  (func (export "render")
    (param $end i32) (param $first i32) (param $room i32) (param $lineChars i32)
    (param $bytesRoom i32) (param $charsRoom i32) (param $flags i32) (param $extra i32)
    (param $prefixLen i32) (param $sepLen i32) (param $width i32)
    (local $s i32) (local $o i32) (local $lineStart i32) (local $k i32) (local $rest i32)
    (local $v v128) (local $lf v128) (local $cr v128) (local $top v128) (local $cont v128) (local $four v128)
    (local $m i32) (local $mask i32) (local $pos i32) (local $h i32) (local $lineHigh i32)
    (local $less i32) (local $crs i32) (local $isPair i32) (local $textEnd i32)
    (local $n i32) (local $mag i32) (local $digits i32) (local $t i32) (local $d i32) (local $j i32)
    (local $lineBytes i32) (local $lineUnits i32)
    (local.set $lf (i8x16.splat (i32.const 10)))
    (local.set $cr (i8x16.splat (i32.const 13)))
    (local.set $top (i8x16.splat (i32.const 0xc0)))
    (local.set $cont (i8x16.splat (i32.const 0x80)))
    (local.set $four (i8x16.splat (i32.const 0xf0)))
    (local.set $s (global.get $next))
    (local.set $o (global.get $out))
    (global.set $why (i32.const 0))

    (block $done
      (loop $each
        (br_if $done (i32.ge_u (global.get $lines) (local.get $room)))
        (if (i32.ge_u (local.get $s) (local.get $end))
          (then (global.set $why (i32.const 1)) (br $done)))
        (local.set $lineStart (local.get $o))
        (if (i32.gt_u (global.get $lines) (i32.const 0))
          (then
            (i32.store8 (local.get $o) (i32.const 10))
            (local.set $o (i32.add (local.get $o) (i32.const 1)))))

        ;; The head: prefix, the number padded to the width (a tail numbers from -1 back), separator.
        (if (i32.and (local.get $flags) (i32.const 1))
          (then
            (local.set $j (i32.const 0))
            (block $prefix_done
              (loop $prefix
                (br_if $prefix_done (i32.ge_u (local.get $j) (local.get $prefixLen)))
                (i32.store8 (i32.add (local.get $o) (local.get $j)) (i32.load8_u (local.get $j)))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (br $prefix)))
            (local.set $o (i32.add (local.get $o) (local.get $prefixLen)))
            (local.set $n (i32.add (local.get $first) (global.get $lines)))
            (local.set $mag (select (i32.sub (i32.const 0) (local.get $n)) (local.get $n) (i32.lt_s (local.get $n) (i32.const 0))))
            (local.set $digits (i32.const 1))
            (local.set $t (local.get $mag))
            (block $counted
              (loop $count
                (br_if $counted (i32.lt_u (local.get $t) (i32.const 10)))
                (local.set $t (i32.div_u (local.get $t) (i32.const 10)))
                (local.set $digits (i32.add (local.get $digits) (i32.const 1)))
                (br $count)))
            (local.set $j (i32.sub (i32.sub (local.get $width) (local.get $digits)) (i32.lt_s (local.get $n) (i32.const 0))))
            (block $padded
              (loop $pad
                (br_if $padded (i32.le_s (local.get $j) (i32.const 0)))
                (i32.store8 (local.get $o) (i32.const 0x20))
                (local.set $o (i32.add (local.get $o) (i32.const 1)))
                (local.set $j (i32.sub (local.get $j) (i32.const 1)))
                (br $pad)))
            (if (i32.lt_s (local.get $n) (i32.const 0))
              (then
                (i32.store8 (local.get $o) (i32.const 0x2d))
                (local.set $o (i32.add (local.get $o) (i32.const 1)))))
            (local.set $d (i32.add (local.get $o) (local.get $digits)))
            (local.set $t (local.get $mag))
            (loop $digit
              (local.set $d (i32.sub (local.get $d) (i32.const 1)))
              (i32.store8 (local.get $d) (i32.add (i32.const 0x30) (i32.rem_u (local.get $t) (i32.const 10))))
              (local.set $t (i32.div_u (local.get $t) (i32.const 10)))
              (br_if $digit (i32.gt_u (local.get $d) (local.get $o))))
            (local.set $o (i32.add (local.get $o) (local.get $digits)))
            (local.set $j (i32.const 0))
            (block $sep_done
              (loop $sep
                (br_if $sep_done (i32.ge_u (local.get $j) (local.get $sepLen)))
                (i32.store8 (i32.add (local.get $o) (local.get $j)) (i32.load8_u (i32.add (i32.const 256) (local.get $j))))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (br $sep)))
            (local.set $o (i32.add (local.get $o) (local.get $sepLen)))))

        ;; The text, 16 bytes a step, copied as it is searched for its line feed and counted.
        (local.set $k (i32.const 0))
        (local.set $less (i32.const 0))
        (local.set $crs (i32.const 0))
        (local.set $lineHigh (i32.const 0))
        (block $found
          (loop $step
            ;; Source bytes left from this step on: at least one (the step before had 16 or more).
            (local.set $rest (i32.sub (local.get $end) (i32.add (local.get $s) (local.get $k))))
            (local.set $v (v128.load (i32.add (local.get $s) (local.get $k))))
            (v128.store (i32.add (local.get $o) (local.get $k)) (local.get $v))
            (local.set $m (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $lf))))
            (if (i32.lt_u (local.get $rest) (i32.const 16))
              (then (local.set $m (i32.and (local.get $m) (i32.sub (i32.shl (i32.const 1) (local.get $rest)) (i32.const 1))))))
            ;; No line feed before `end`: the caller may bring more source.
            (if (i32.and (i32.eqz (local.get $m)) (i32.le_s (local.get $rest) (i32.const 16)))
              (then
                (local.set $o (local.get $lineStart))
                (global.set $why (i32.const 1))
                (br $done)))
            ;; The bytes of this step that belong to the line: all 16, or those before its line feed.
            (local.set $mask (select
              (i32.sub (i32.shl (i32.const 1) (i32.ctz (local.get $m))) (i32.const 1))
              (i32.const 0xffff)
              (local.get $m)))
            (local.set $crs (i32.add (local.get $crs)
              (i32.popcnt (i32.and (local.get $mask) (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $cr)))))))
            (local.set $h (i32.and (local.get $mask) (i8x16.bitmask (local.get $v))))
            (if (local.get $h)
              (then
                (local.set $lineHigh (i32.const 1))
                (local.set $less (i32.add (local.get $less)
                  (i32.sub
                    (i32.popcnt (i32.and (local.get $mask)
                      (i8x16.bitmask (i8x16.eq (v128.and (local.get $v) (local.get $top)) (local.get $cont)))))
                    (i32.popcnt (i32.and (local.get $mask)
                      (i8x16.bitmask (i8x16.ge_u (local.get $v) (local.get $four))))))))))
            (if (local.get $m)
              (then
                (local.set $pos (i32.add (local.get $k) (i32.ctz (local.get $m))))
                (br $found)))
            (local.set $k (i32.add (local.get $k) (i32.const 16)))
            ;; Past `lineChars` bytes with no line feed: too long for a region.
            (if (i32.gt_u (local.get $k) (local.get $lineChars))
              (then
                (local.set $o (local.get $lineStart))
                (br $done)))
            (br $step)))

        ;; `pos` bytes before the line feed. A CR among them is allowed only as the last, with CR LF breaks.
        (local.set $isPair (i32.and
          (i32.ne (i32.and (local.get $flags) (i32.const 2)) (i32.const 0))
          (i32.and
            (i32.gt_u (local.get $pos) (i32.const 0))
            (i32.eq (i32.load8_u (i32.sub (i32.add (local.get $s) (local.get $pos)) (i32.const 1))) (i32.const 13)))))
        (local.set $textEnd (i32.sub (local.get $pos) (local.get $isPair)))
        (if (i32.or
              (i32.or
                (i32.gt_u (local.get $pos) (local.get $lineChars))
                (i32.gt_u (local.get $crs) (local.get $isPair)))
              (i32.gt_s (i32.sub (local.get $textEnd) (local.get $less)) (local.get $lineChars)))
          (then
            (local.set $o (local.get $lineStart))
            (br $done)))
        (local.set $o (i32.add (local.get $o) (local.get $textEnd)))
        (local.set $lineBytes (i32.add (i32.sub (local.get $o) (local.get $lineStart))
          (i32.and (i32.eqz (global.get $lines)) (i32.ne (i32.and (local.get $flags) (i32.const 4)) (i32.const 0)))))
        (local.set $lineUnits (i32.sub (i32.sub (local.get $lineBytes) (local.get $extra)) (local.get $less)))
        (if (i32.or
              (i32.gt_s (i32.add (global.get $bytes) (local.get $lineBytes)) (local.get $bytesRoom))
              (i32.gt_s (i32.add (global.get $chars) (local.get $lineUnits)) (local.get $charsRoom)))
          (then
            (local.set $o (local.get $lineStart))
            (br $done)))
        (global.set $bytes (i32.add (global.get $bytes) (local.get $lineBytes)))
        (global.set $chars (i32.add (global.get $chars) (local.get $lineUnits)))
        (global.set $pairs (i32.add (global.get $pairs) (local.get $isPair)))
        (global.set $high (i32.or (global.get $high) (local.get $lineHigh)))
        (global.set $lines (i32.add (global.get $lines) (i32.const 1)))
        (local.set $s (i32.add (i32.add (local.get $s) (local.get $pos)) (i32.const 1)))
        (br $each)))

    (global.set $next (local.get $s))
    (global.set $out (local.get $o))))
