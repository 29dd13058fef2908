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

/** Just the window of a slice, for a payload. */
export function windowFields(slice: SliceResult): WindowFields {
  return {
    content: slice.content,
    startLine: slice.startLine,
    endLine: slice.endLine,
    totalLines: slice.totalLines,
    stop: slice.stop,
    finalBreak: slice.finalBreak,
    cutLines: slice.cutLines,
    firstCutLine: slice.firstCutLine,
    column: slice.column,
  };
}
