import { isUtf8 } from 'node:buffer';
import { ColumnWindow, cutText, cutUtf8, type ColumnFacts } from './column-window.js';
import { fillCutMarker, renderLine, type RenderSpec } from './line-format.js';

export { cutText };

/** Which lines to return and how much output they may take. */
export interface SliceLimits {
  /** 1-based number of the first line wanted. */
  readonly offset: number;
  /** Most lines returned. */
  readonly limit: number;
  /** Cap on the UTF-8 bytes of the rendered output, newlines between lines included. */
  readonly maxBytes: number;
  /** Cap on the estimated tokens (characters / 4, rounded up) of the rendered output. */
  readonly maxTokens: number;
  /** Lines longer than this many UTF-16 code units are cut, with the marker appended. */
  readonly maxLineChars: number;
  /**
   * 1-based character (UTF-16 code unit) to start line `offset` at: the window is then that one
   * line, from this character on, as much of it as the budgets allow. 0 or absent: whole lines.
   */
  readonly column?: number;
}

export type StopReason = 'lines' | 'bytes' | 'tokens';

/** Where the slicer starts and what it records besides the window. */
export interface SliceStart {
  /** Number of the line the first pushed byte belongs to (a seek lands on a line start). Default 1. */
  readonly firstLine?: number;
  /**
   * Record a sparse line index: the byte offset of a line start every this many lines (0: none).
   * Needs `push(chunk, at)` with the chunk's file offset.
   */
  readonly indexEvery?: number;
}

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

const LF = 0x0a;
const CR = 0x0d;

/**
 * Streams UTF-8 bytes, one chunk at a time, and keeps only the window of lines asked for.
 *
 * Lines end at `\r\n`, `\n` or a lone `\r`, so all three number lines alike. Outside the window
 * it only counts breaks (memchr speed via `Buffer.indexOf`); inside it keeps at most
 * `3 * maxLineChars` bytes of any line, so a 200 MB single-line file costs no more memory than
 * a short one. Breaks are ASCII bytes that never occur inside a multi-byte UTF-8 sequence, so a
 * line is always decoded whole and no character is ever split.
 *
 * Chunks may be reused by the caller after `push` returns: anything kept is copied.
 */
export class LineSlicer {
  readonly #limits: SliceLimits;
  readonly #render: RenderSpec;
  /** Longest line shown whole; longer ones are cut (by length, or in `cut: 'budget'` by budget). */
  readonly #lineChars: number;
  /** Cap on the bytes kept of one line: enough for `#lineChars` code units plus one. */
  readonly #keepBytes: number;
  /** The one line of a column read, while it is being collected. */
  #columns: ColumnWindow | null = null;
  #columnFacts: ColumnFacts | null = null;
  /** Size of a rendered line beyond its text and number: prefix and separator. */
  readonly #overhead: { readonly chars: number; readonly bytes: number };

  /** Number of the line the scanner is inside (breaks seen + 1). */
  #line = 1;
  #bytesSinceBreak = 0;
  #pendingCR = false;
  readonly #endings: LineEndingCounts = { lf: 0, crlf: 0, cr: 0 };

  #windowOpen = true;
  #budgetStop: 'bytes' | 'tokens' | null = null;
  /** Rendered output, in blocks of one or more lines each. */
  readonly #out: string[] = [];
  /** Lines shown so far. */
  #shown = 0;
  #outBytes = 0;
  #outChars = 0;
  #cutLines = 0;
  #firstCutLine: number | null = null;

  /** Pieces of the current window line when it spans chunks (copies). */
  #pieces: Buffer[] = [];
  #pieceBytes = 0;
  #lineBytes = 0;

  // Next LF / CR positions in the current chunk, cached so mixed files are not rescanned.
  #nextLF = -1;
  #nextCR = -1;

  /** File offset of the current chunk's first byte (only kept when indexing). */
  #base = 0;
  readonly #indexEvery: number;
  readonly #index: LineIndexPairs | null;
  #nextIndexLine = 0;

  constructor(limits: SliceLimits, render: RenderSpec, start: SliceStart = {}) {
    this.#limits = limits;
    this.#line = start.firstLine ?? 1;
    this.#indexEvery = start.indexEvery ?? 0;
    this.#index = this.#indexEvery > 0 ? [] : null;
    this.#nextIndexLine = this.#line + this.#indexEvery;
    this.#render = render;
    const { format } = render;
    const fixed = format.numbered ? format.prefix + format.separator : '';
    this.#overhead = { chars: fixed.length, bytes: Buffer.byteLength(fixed) };
    const budgetChars = Math.min(limits.maxTokens * 4, limits.maxBytes);
    this.#lineChars = render.cut === 'budget' ? budgetChars : limits.maxLineChars;
    this.#keepBytes = Math.min(this.#lineChars * 3 + 3, render.cut === 'budget' ? limits.maxBytes + 4 : Infinity);
    if ((limits.column ?? 0) > 0) {
      // Room for the line's number and prefix is left out of the piece's budget.
      const room = this.#overhead.bytes + 24;
      this.#columns = new ColumnWindow(limits.column ?? 1, budgetChars - room, limits.maxBytes - room);
    }
  }

  /** True once the window is complete: the rest of the input only counts lines. */
  get windowClosed(): boolean {
    return !this.#windowOpen;
  }

  /** Feeds the next chunk; `at` is its offset in the file, needed only for the line index. */
  push(chunk: Buffer, at = 0): void {
    const n = chunk.length;
    if (n === 0) return;
    if (this.#index !== null) {
      if (this.#index.length === 0 && !this.#pendingCR && this.#bytesSinceBreak === 0) this.#index.push(this.#line, at);
      this.#base = at;
    }
    let p = 0;
    if (this.#pendingCR) {
      this.#pendingCR = false;
      if (chunk[0] === LF) {
        this.#endings.crlf++;
        p = 1;
      } else {
        this.#endings.cr++;
      }
    }
    this.#nextLF = -1;
    this.#nextCR = -1;
    const hasCR = chunk.indexOf(CR, p) !== -1;
    while (p < n) {
      p = this.#collecting() ? this.#collect(chunk, p, hasCR) : this.#skip(chunk, p, hasCR);
    }
  }

  /**
   * Ends the input. A caller that stopped pushing once the window closed passes the file's
   * line count and whether it ends with a break, known from an earlier full scan.
   */
  end(knownTotal?: number, knownFinalBreak?: boolean): SliceResult {
    if (this.#pendingCR) {
      this.#pendingCR = false;
      this.#endings.cr++;
    }
    const trailing = this.#bytesSinceBreak > 0;
    if (trailing && this.#collecting()) {
      if (this.#columns !== null) this.#emitColumn();
      else this.#emit(this.#takePieces(), this.#line, this.#lineBytes);
    }
    const totalLines = knownTotal ?? this.#line - 1 + (trailing ? 1 : 0);
    const startLine = this.#limits.offset;
    const endLine = startLine + this.#shown - 1;
    return {
      content: this.#out.join('\n'),
      startLine,
      endLine,
      totalLines,
      stop: endLine < totalLines ? (this.#budgetStop ?? 'lines') : null,
      finalBreak: knownFinalBreak ?? (!trailing && this.#endings.lf + this.#endings.crlf + this.#endings.cr > 0),
      cutLines: this.#cutLines,
      firstCutLine: this.#firstCutLine,
      column: this.#columnFacts,
      endings: { ...this.#endings },
      index: this.#index,
    };
  }

  #collecting(): boolean {
    return this.#windowOpen && this.#line >= this.#limits.offset;
  }

  #findBreak(chunk: Buffer, p: number, hasCR: boolean): number {
    if (!hasCR) return chunk.indexOf(LF, p);
    const n = chunk.length;
    if (this.#nextLF < p) {
      const i = chunk.indexOf(LF, p);
      this.#nextLF = i === -1 ? n : i;
    }
    if (this.#nextCR < p) {
      const i = chunk.indexOf(CR, p);
      this.#nextCR = i === -1 ? n : i;
    }
    const next = Math.min(this.#nextLF, this.#nextCR);
    return next === n ? -1 : next;
  }

  /** Consumes the break at `i`; returns the position after it. */
  #consumeBreak(chunk: Buffer, i: number): number {
    let p: number;
    if (chunk[i] === LF) {
      this.#endings.lf++;
      p = i + 1;
    } else if (i + 1 === chunk.length) {
      // A CR at the end of a chunk: the next chunk says whether it was CRLF.
      this.#pendingCR = true;
      p = i + 1;
    } else if (chunk[i + 1] === LF) {
      this.#endings.crlf++;
      p = i + 2;
    } else {
      this.#endings.cr++;
      p = i + 1;
    }
    this.#line++;
    this.#bytesSinceBreak = 0;
    // A CR at a chunk's end may be half of a CRLF: its line start is not known yet, so skip it.
    if (this.#index !== null && this.#line >= this.#nextIndexLine && !this.#pendingCR) {
      this.#index.push(this.#line, this.#base + p);
      this.#nextIndexLine = this.#line + this.#indexEvery;
    }
    return p;
  }

  /** Counts breaks outside the window until the window starts or the chunk ends. */
  #skip(chunk: Buffer, p: number, hasCR: boolean): number {
    if (!hasCR) return this.#skipLF(chunk, p);
    const n = chunk.length;
    while (p < n) {
      const i = this.#findBreak(chunk, p, hasCR);
      if (i === -1) {
        this.#bytesSinceBreak += n - p;
        return n;
      }
      p = this.#consumeBreak(chunk, i);
      if (this.#collecting()) return p;
    }
    return p;
  }

  /**
   * `#skip` for a chunk without CR, the bulk of a large scan: one `indexOf` a line and the state
   * in locals, written back once, so counting the lines after the window runs near memchr speed.
   * Same effects as `#consumeBreak` per LF: the count, the LF tally and the index entries.
   */
  #skipLF(chunk: Buffer, p: number): number {
    const index = this.#index;
    const every = this.#indexEvery;
    // The window's first line while it is still ahead: counting hands over to collecting there.
    const stopAt = this.#windowOpen ? this.#limits.offset : Infinity;
    let line = this.#line;
    let nextIndexLine = index === null ? Infinity : this.#nextIndexLine;
    let after = -1;
    for (let i = chunk.indexOf(LF, p); i !== -1; i = chunk.indexOf(LF, i + 1)) {
      line++;
      after = i + 1;
      if (line >= nextIndexLine && index !== null) {
        index.push(line, this.#base + after);
        nextIndexLine = line + every;
      }
      if (line >= stopAt) break;
    }
    if (index !== null) this.#nextIndexLine = nextIndexLine;
    this.#endings.lf += line - this.#line;
    this.#line = line;
    if (after === -1) {
      this.#bytesSinceBreak += chunk.length - p;
      return chunk.length;
    }
    this.#bytesSinceBreak = 0;
    if (line >= stopAt) return after;
    this.#bytesSinceBreak = chunk.length - after;
    return chunk.length;
  }

  /**
   * Collects window lines. Complete lines inside this chunk are decoded as one region (one
   * native call) and rendered in one pass, which is what makes small files cheap; a line that
   * spans chunks goes through `#collectSpanning` with a bounded byte prefix.
   */
  #collect(chunk: Buffer, p: number, hasCR: boolean): number {
    if (this.#lineBytes > 0 || this.#columns !== null) return this.#collectSpanning(chunk, p, hasCR);
    let q = p;
    // Regions need LF-only, valid UTF-8 text; once a region is not, this chunk goes line by line.
    let regions = !hasCR;
    while (q < chunk.length && this.#windowOpen) {
      if (regions) {
        const taken = this.#collectRegion(chunk, q);
        if (taken === -1) regions = false;
        else q += taken;
        if (q >= chunk.length || !this.#windowOpen) break;
      }
      // One line alone: CR breaks, invalid UTF-8, a long line or the one that meets a budget.
      // It is decoded alone (only a bounded prefix of a long one) and measured in raw bytes, so
      // cut markers report the file's own line length.
      const i = this.#findBreak(chunk, q, hasCR);
      if (i === -1) return this.#collectSpanning(chunk, q, hasCR);
      this.#emit(chunk.toString('utf8', q, q + Math.min(i - q, this.#keepBytes)), this.#line, i - q);
      q = this.#consumeBreak(chunk, i);
    }
    return q;
  }

  /**
   * Takes the complete lines from `p` that the window can still show as one region: one native
   * decode and one render pass, which is what makes small files and pages cheap. The region is
   * bounded before it is decoded, so a page of a large file decodes the page, not the chunk: at
   * most the lines left to the limit, none past what the budgets could hold (a line's rendered
   * size is at least its raw bytes less its break, and at least a third of them in characters),
   * and none from a line whose raw size could exceed `#lineChars` (such a line may need a cut:
   * it goes alone). Returns the bytes taken, or -1 when the region is not valid UTF-8.
   */
  #collectRegion(chunk: Buffer, p: number): number {
    const room = this.#limits.limit - this.#shown;
    const byteRoom = Math.min(this.#limits.maxBytes - this.#outBytes, 3 * (this.#limits.maxTokens * 4 - this.#outChars)) + 1;
    const last = p + byteRoom;
    let end = -1;
    let lines = 0;
    for (let from = p, i = chunk.indexOf(LF, p); i !== -1 && i < last && lines < room; i = chunk.indexOf(LF, from)) {
      if (i - from > this.#lineChars) break;
      end = i;
      lines++;
      from = i + 1;
    }
    if (end === -1) return 0;
    if (!isUtf8(chunk.subarray(p, end + 1))) return -1;
    return this.#emitWholeRegion(chunk.toString('utf8', p, end + 1), end + 1 - p);
  }

  /** Collects (a bounded prefix of) a window line that may continue in the next chunk. */
  #collectSpanning(chunk: Buffer, p: number, hasCR: boolean): number {
    const i = this.#findBreak(chunk, p, hasCR);
    const end = i === -1 ? chunk.length : i;
    this.#lineBytes += end - p;
    this.#bytesSinceBreak += end - p;
    if (this.#columns !== null) {
      this.#columns.push(chunk.subarray(p, end));
      if (i === -1) return chunk.length;
      this.#emitColumn();
      return this.#consumeBreak(chunk, i);
    }
    const take = Math.min(end - p, Math.max(this.#keepBytes - this.#pieceBytes, 0));
    if (i === -1) {
      if (take > 0) {
        this.#pieces.push(Buffer.from(chunk.subarray(p, p + take)));
        this.#pieceBytes += take;
      }
      return chunk.length;
    }
    if (take > 0) this.#pieces.push(chunk.subarray(p, p + take));
    const lineBytes = this.#lineBytes;
    this.#lineBytes = 0;
    this.#emit(this.#takePieces(), this.#line, lineBytes);
    return this.#consumeBreak(chunk, i);
  }

  /**
   * Renders a region of LF-only, valid UTF-8 text that ends with a break, in one pass (no array
   * of lines, no join), and keeps its lines up to the first that needs a cut or would pass a
   * budget; that line is left to `#emit`, which cuts it or stops the window, so the output is
   * the same as line by line. Each line is measured as `#emit` measures it (an ASCII region's
   * UTF-8 size follows from its length). Counts the lines it takes and returns the bytes they
   * span, 0 when it takes none.
   */
  #emitWholeRegion(text: string, regionBytes: number): number {
    const { maxBytes, maxTokens, limit } = this.#limits;
    const { format } = this.#render;
    const ascii = regionBytes === text.length;
    // All that is added to a line (number, padding, break) is ASCII, but the format's own prefix
    // and separator, whose UTF-8 size is known.
    const extraBytes = this.#overhead.bytes - this.#overhead.chars;
    const first = this.#line;
    const room = limit - this.#shown;
    let rendered = '';
    let count = 0;
    let start = 0;
    let bytes = 0;
    let chars = 0;
    // Specialised for unpadded numbering (`N<sep>line`), the common format; others call renderLine.
    const plain = format.numbered && format.width === 0;
    const head = plain ? format.prefix : '';
    const separator = plain ? format.separator : '';
    for (; start < text.length && count < room; count++) {
      const end = text.indexOf('\n', start);
      if (end - start > this.#lineChars) break;
      const line = plain
        ? head + (first + count) + separator + text.slice(start, end)
        : renderLine(format, first + count, text.slice(start, end));
      const joiner = this.#shown + count > 0 ? 1 : 0;
      const lineChars = line.length + joiner;
      const lineBytes = (ascii ? line.length + extraBytes : Buffer.byteLength(line)) + joiner;
      if (this.#outBytes + bytes + lineBytes > maxBytes || Math.ceil((this.#outChars + chars + lineChars) / 4) > maxTokens) break;
      rendered = count === 0 ? line : rendered + '\n' + line;
      bytes += lineBytes;
      chars += lineChars;
      start = end + 1;
    }
    if (count === 0) return 0;
    this.#out.push(rendered);
    this.#shown += count;
    this.#outBytes += bytes;
    this.#outChars += chars;
    if (this.#shown >= limit) this.#windowOpen = false;
    this.#line += count;
    this.#endings.lf += count;
    this.#bytesSinceBreak = 0;
    // Bytes of the lines taken, breaks included: all of them, or (ASCII) as many as characters.
    return start === text.length ? regionBytes : ascii ? start : Buffer.byteLength(text.slice(0, start));
  }

  #takePieces(): string {
    const text = Buffer.concat(this.#pieces).toString('utf8');
    this.#pieces = [];
    this.#pieceBytes = 0;
    return text;
  }

  /** The one line of a column read: the piece the column window kept, then the window closes. */
  #emitColumn(): void {
    const columns = this.#columns;
    if (columns === null) return;
    this.#columns = null;
    const { text, facts } = columns.end(this.#lineBytes);
    this.#lineBytes = 0;
    this.#columnFacts = facts;
    const rendered = renderLine(this.#render.format, this.#line, text);
    this.#out.push(rendered);
    this.#shown = 1;
    this.#outBytes = Buffer.byteLength(rendered);
    this.#outChars = rendered.length;
    this.#windowOpen = false;
  }

  #emit(text: string, lineNumber: number, lineBytes: number): void {
    const { maxBytes, maxTokens, limit } = this.#limits;
    const { format, cutMarker } = this.#render;
    let rendered: string;
    let cut = false;
    if (text.length > this.#lineChars && this.#render.cut !== 'budget') {
      cut = true;
      const shown = cutText(text, this.#lineChars);
      rendered = renderLine(format, lineNumber, shown + fillCutMarker(cutMarker, shown.length, lineBytes));
    } else {
      rendered = renderLine(format, lineNumber, text);
    }
    const separator = this.#shown > 0 ? 1 : 0;
    const bytes = Buffer.byteLength(rendered) + separator;
    const chars = rendered.length + separator;
    const overBytes = this.#outBytes + bytes > maxBytes;
    const overTokens = Math.ceil((this.#outChars + chars) / 4) > maxTokens;
    if (overBytes || overTokens) {
      if (this.#render.cut === 'budget') {
        this.#fill(text, lineNumber, separator);
      } else if (this.#shown === 0) {
        // Never answer with no lines and a hint to read the same line again (an endless loop
        // for a model): show this line cut to fit instead.
        this.#out.push(this.#fitLine(text, lineNumber, lineBytes));
        this.#shown++;
        this.#countCut(lineNumber);
      }
      this.#budgetStop = overBytes ? 'bytes' : 'tokens';
      this.#windowOpen = false;
      return;
    }
    this.#out.push(rendered);
    this.#shown++;
    this.#outBytes += bytes;
    this.#outChars += chars;
    if (cut) this.#countCut(lineNumber);
    if (this.#shown >= limit) this.#windowOpen = false;
  }

  #countCut(lineNumber: number): void {
    this.#cutLines++;
    this.#firstCutLine ??= lineNumber;
  }

  /**
   * `cut: 'budget'`: the line that does not fit is shown up to the last whole character that
   * does (nothing, if not even its number fits), so the output fills its byte budget exactly.
   */
  #fill(text: string, lineNumber: number, separator: number): void {
    const { maxBytes, maxTokens } = this.#limits;
    const head = renderLine(this.#render.format, lineNumber, '');
    const roomBytes = maxBytes - this.#outBytes - separator - Buffer.byteLength(head);
    const roomChars = maxTokens * 4 - this.#outChars - separator - head.length;
    if (roomBytes <= 0 || roomChars <= 0) return;
    const shown = cutUtf8(cutText(text, roomChars), roomBytes);
    const rendered = head + shown;
    this.#out.push(rendered);
    this.#shown++;
    this.#outBytes += Buffer.byteLength(rendered) + separator;
    this.#outChars += rendered.length + separator;
    this.#countCut(lineNumber);
  }

  /** The first window line, cut so that it alone fits the byte and token budgets. */
  #fitLine(text: string, lineNumber: number, lineBytes: number): string {
    const { maxBytes, maxTokens } = this.#limits;
    const { format, cutMarker } = this.#render;
    const budgetChars = Math.min(maxTokens * 4, maxBytes);
    // Start from at most maxLineChars: the text may be the whole line or a bounded prefix of it
    // (when it spanned chunks), and both must give the same answer.
    let keep = Math.min(text.length, this.#limits.maxLineChars, budgetChars);
    for (;;) {
      const shown = cutText(text, keep);
      const rendered = renderLine(format, lineNumber, shown + fillCutMarker(cutMarker, shown.length, lineBytes));
      if ((Buffer.byteLength(rendered) <= maxBytes && rendered.length <= budgetChars) || keep === 0) {
        return keep === 0 ? cutText(rendered, budgetChars) : rendered;
      }
      keep = Math.floor(keep * 0.8);
    }
  }
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
