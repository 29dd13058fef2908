/**
 * How `WindowOutput.emitRegion` copies a region's lines into its rendering buffer: one function
 * for each kind of region, outside `emitRegion`. A fresh worker compiles each only when its
 * kind of region comes, and a branch first taken late (a 4-byte character, a CR) no longer
 * throws away `emitRegion`'s optimized code (in a fresh engine's first pass it was compiled 4
 * times a thread, 10 to 26 ms each). Each returns where its output ends and leaves the line's
 * facts in `copied`.
 */

const LF = 0x0a;
const CR = 0x0d;

/** What the line copied last was: read right after each copy, before the next. */
export const copied = {
  /** Where the line ends: its LF. */
  to: 0,
  /** It ends in CR LF. */
  cr: false,
  /** Its text's UTF-16 code units fewer than its bytes (multi-byte characters). */
  unitsLess: 0,
};

/**
 * A line of an ASCII region, whose bytes wait at `at + start` (see `emitRegion`): found and
 * moved into place by V8's typed-array builtins, which run at full speed in a fresh worker. The
 * line's bytes never lie below where they go: each line's room for its head was left before the
 * copy.
 */
export function copyAsciiLine(out: Buffer, o: number, plain: Uint8Array, start: number, at: number): number {
  const i = plain.indexOf(LF, start);
  out.copyWithin(o, at + start, at + i);
  copied.to = i;
  copied.cr = i > start && plain[i - 1] === CR;
  copied.unitsLess = 0;
  return o + i - start;
}

/** A line of a UTF-8 region, byte by byte, counting its code units as it goes. */
export function copyUtf8Line(out: Buffer, o: number, chunk: Uint8Array, start: number): number {
  let i = start;
  let less = 0;
  let last = -1;
  for (let b = chunk[i] as number; b !== LF; b = chunk[++i] as number) {
    out[o++] = b;
    // A continuation byte adds no code unit; a 4-byte character's lead adds two. Counted without
    // branches, so that the first 4-byte character met finds every operation already seen.
    less += ((b & 0xc0) === 0x80 ? 1 : 0) - (b >= 0xf0 ? 1 : 0);
    last = b;
  }
  copied.to = i;
  copied.cr = last === CR;
  copied.unitsLess = less;
  return o;
}
