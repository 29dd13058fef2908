import type { ColumnFacts } from './column-window.js';
import type { StopReason } from './window-output.js';

/** Line starts recorded while scanning: `[line, byte, line, byte, ...]`, ascending. */
export type LineIndexPairs = number[];

export interface LineEndingCounts {
  lf: number;
  crlf: number;
  cr: number;
}

/** The window a slice ends with: what every line-based payload carries. */
export interface WindowFields {
  /** Rendered window lines joined with `\n`. */
  readonly content: string;
  readonly startLine: number;
  /** Last line shown; `startLine - 1` when none is. */
  readonly endLine: number;
  /**
   * Exact count of lines in the input: breaks, plus one for a final unterminated line (counted
   * from `firstLine`). When the caller stopped early, the total it passed to `end`.
   */
  readonly totalLines: number;
  /** Why lines after `endLine` were left out, or null when the window reached the end. */
  readonly stop: StopReason | null;
  /**
   * True when the input ends with a line break (its last line is terminated); false when it is
   * empty or its last line runs to the end. When the caller stopped early, the value it passed
   * to `end`. For dialects that reproduce a file's own text (a split on breaks ends with "").
   */
  readonly finalBreak: boolean;
  /** How many shown lines were cut at `maxLineChars` or to fit the budget. */
  readonly cutLines: number;
  /** The first line that was cut, or null: where a column read would continue. */
  readonly firstCutLine: number | null;
  /** For a column read that reached its line: which characters of it were shown. */
  readonly column: ColumnFacts | null;
}

export interface SliceResult extends WindowFields {
  readonly endings: Readonly<LineEndingCounts>;
  /** Line starts recorded with `indexEvery`, or null. */
  readonly index: LineIndexPairs | null;
}

/**
 * The most UTF-16 code units a piece of a long window holds: a string of up to this many fits
 * V8's regular heap pages (120 KiB even as two-byte characters). A larger one goes to its
 * large-object space, where each string gets freshly mapped pages of its own: on this project's
 * 2-core VM a 200 KB string took 874 µs to make, two of 100 KB 12.7. A window longer than this
 * is kept as pieces, made into a rope for `content` (no flat copy on the worker) and posted to
 * the host as the pieces (see `contentPieces`).
 */
export const PIECE_CHARS = 60 * 1024;

/**
 * A long window's pieces are kept on the object whose `content` they make up, as a property that
 * is not enumerable (spreads, clones and equality pass it by). Not in a WeakMap: V8's young
 * collections keep a WeakMap's values alive, so every page's pieces outlived the collection
 * after it and were copied to the old generation. Paging the 200 MB log on one thread, each
 * young collection took 14 ms and kept 3.5 MB; with the property, 1 ms and nothing.
 */
const PIECES = Symbol('pieces');

interface PiecesHolder {
  readonly [PIECES]?: readonly string[];
}

/** The pieces `holder.content` is made of when it is long, for posting them apart; else undefined. */
export function contentPieces(holder: object): readonly string[] | undefined {
  return (holder as PiecesHolder)[PIECES];
}

/** Records that `holder.content` is made of `pieces`, when there is more than one. */
export function keepPieces(holder: object, pieces: readonly string[] | undefined): void {
  if (pieces !== undefined && pieces.length > 1) Object.defineProperty(holder, PIECES, { value: pieces, configurable: true });
}

/** `to`, which took its `content` from `from`, made of the same pieces; returned for chaining. */
export function carryPieces<T extends object>(to: T, from: object): T {
  keepPieces(to, contentPieces(from));
  return to;
}

/** One string from the pieces of a long window: a rope, flattened only where a reader needs it flat. */
export function joinPieces(pieces: readonly string[]): string {
  let text = '';
  for (const piece of pieces) text += piece;
  return text;
}

/** Just the window of a slice, for a payload (its pieces go with it: see `keepPieces`). */
export function windowFields(slice: SliceResult): WindowFields {
  return carryPieces<WindowFields>({
    content: slice.content,
    startLine: slice.startLine,
    endLine: slice.endLine,
    totalLines: slice.totalLines,
    stop: slice.stop,
    finalBreak: slice.finalBreak,
    cutLines: slice.cutLines,
    firstCutLine: slice.firstCutLine,
    column: slice.column,
  }, slice);
}
