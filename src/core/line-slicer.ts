import { ColumnWindow, cutText, type ColumnFacts } from './column-window.js';
import { ALL_FEEDS, INDEX_OF_FEEDS, type BreakTally, type LineFeedFinder } from './line-feeds.js';
import type { RenderSpec } from './line-format.js';
import { joinPieces, keepPieces, windowFields, type LineEndingCounts, type LineIndexPairs, type SliceResult, type WindowFields } from './slice-result.js';
import { WindowOutput, type SliceLimits, type StopReason } from './window-output.js';

// The slicer's module is where callers find everything about a slice.
export { cutText, windowFields };
export type { LineEndingCounts, LineIndexPairs, SliceLimits, SliceResult, StopReason, WindowFields };

/** Where the slicer starts and what it records besides the window. */
export interface SliceStart {
  /** Number of the line the first pushed byte belongs to (a seek lands on a line start). Default 1. */
  readonly firstLine?: number;
  /**
   * Record a sparse line index: the byte offset of a line start every this many lines (0: none).
   * Needs `push(chunk, at)` with the chunk's file offset.
   */
  readonly indexEvery?: number;
  /** How the lines outside the window are counted (default: `Buffer.indexOf`, a line at a time). */
  readonly feeds?: LineFeedFinder;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Streams UTF-8 bytes, one chunk at a time, and keeps only the window of lines asked for.
 *
 * Lines end at `\r\n`, `\n` or a lone `\r`, so all three number lines alike. Outside the window
 * it only counts breaks, with its `LineFeedFinder` (in a worker, WebAssembly SIMD over the chunks
 * it reads); inside it keeps at most `3 * maxLineChars` bytes of any line, so a 200 MB
 * single-line file costs no more memory than a short one. Breaks are ASCII bytes that never occur inside a multi-byte UTF-8 sequence, so a
 * line is always decoded whole and no character is ever split.
 *
 * Chunks may be reused by the caller after `push` returns: anything kept is copied.
 */
export class LineSlicer {
  readonly #limits: SliceLimits;
  /** What is shown, and the budgets it spends. */
  readonly #output: WindowOutput;
  /** Cap on the bytes kept of one line: enough for `lineChars` code units plus one. */
  readonly #keepBytes: number;
  /** The one line of a column read, while it is being collected. */
  #columns: ColumnWindow | null = null;
  #columnFacts: ColumnFacts | null = null;

  /** Number of the line the scanner is inside (breaks seen + 1). */
  #line = 1;
  #bytesSinceBreak = 0;
  #pendingCR = false;
  readonly #endings: LineEndingCounts = { lf: 0, crlf: 0, cr: 0 };

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
  readonly #feeds: LineFeedFinder;
  /** What the finder passed over in its last call, for the endings' tallies. */
  readonly #tally: BreakTally = { lfs: 0, crs: 0, pairs: 0 };

  constructor(limits: SliceLimits, render: RenderSpec, start: SliceStart = {}) {
    this.#limits = limits;
    this.#line = start.firstLine ?? 1;
    this.#indexEvery = start.indexEvery ?? 0;
    this.#index = this.#indexEvery > 0 ? [] : null;
    this.#nextIndexLine = this.#line + this.#indexEvery;
    this.#feeds = start.feeds ?? INDEX_OF_FEEDS;
    this.#output = new WindowOutput(limits, render);
    const budgetChars = Math.min(limits.maxTokens * 4, limits.maxBytes);
    this.#keepBytes = Math.min(this.#output.lineChars * 3 + 3, render.cut === 'budget' ? limits.maxBytes + 4 : Infinity);
    if ((limits.column ?? 0) > 0) {
      // Room for the line's number and prefix is left out of the piece's budget.
      const room = this.#output.overhead.bytes + 24;
      this.#columns = new ColumnWindow(limits.column ?? 1, budgetChars - room, limits.maxBytes - room);
    }
  }

  /** True once the window is complete: the rest of the input only counts lines. */
  get windowClosed(): boolean {
    return !this.#output.open;
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
      else this.#output.emit(this.#takePieces(), this.#line, this.#lineBytes);
    }
    const totalLines = knownTotal ?? this.#line - 1 + (trailing ? 1 : 0);
    const startLine = this.#limits.offset;
    const output = this.#output;
    const endLine = startLine + output.shown - 1;
    const pieces = output.pieces;
    const result: SliceResult = {
      content: pieces.length === 1 ? (pieces[0] as string) : joinPieces(pieces),
      startLine,
      endLine,
      totalLines,
      stop: endLine < totalLines ? (output.budgetStop ?? 'lines') : null,
      finalBreak: knownFinalBreak ?? (!trailing && this.#endings.lf + this.#endings.crlf + this.#endings.cr > 0),
      cutLines: output.cutLines,
      firstCutLine: output.firstCutLine,
      column: this.#columnFacts,
      endings: { ...this.#endings },
      index: this.#index,
    };
    keepPieces(result, pieces);
    return result;
  }

  #collecting(): boolean {
    return this.#output.open && this.#line >= this.#limits.offset;
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

  /**
   * Counts the breaks outside the window until the window starts or the chunk ends: the bulk of
   * a large scan. The finder finds them, one call per event (the next index entry or the
   * window's first line), line feeds alone where the chunk has no CR; the state is kept in
   * locals and written back once. Same effects as `#consumeBreak` per break: the count, the
   * endings' tallies, the index entries and a CR left pending at the chunk's end.
   */
  #skip(chunk: Buffer, p: number, hasCR: boolean): number {
    const index = this.#index;
    const every = this.#indexEvery;
    const endings = this.#endings;
    const tally = this.#tally;
    // The window's first line while it is still ahead: counting hands over to collecting there.
    const stopAt = this.#output.open ? this.#limits.offset : Infinity;
    const n = chunk.length;
    const started = this.#line;
    let line = started;
    let nextIndexLine = index === null ? Infinity : this.#nextIndexLine;
    let after = -1;
    for (let from = p; ; ) {
      // Breaks to the next event; past what a chunk can hold, all of them.
      const wanted = Math.min(ALL_FEEDS, Math.max(1, Math.min(nextIndexLine, stopAt) - line));
      const i = hasCR ? this.#feeds.nthBreak(chunk, from, wanted, tally) : this.#feeds.nth(chunk, from, wanted);
      if (hasCR) {
        endings.lf += tally.lfs - tally.pairs;
        endings.crlf += tally.pairs;
        endings.cr += tally.crs - tally.pairs;
      }
      if (i < 0) {
        const seen = -1 - i;
        line += seen;
        if (seen > 0) after = (hasCR ? Math.max(chunk.lastIndexOf(LF), chunk.lastIndexOf(CR)) : chunk.lastIndexOf(LF)) + 1;
        break;
      }
      line += wanted;
      after = from = i + 1;
      // A CR that ends the chunk: its line's start is not known yet, so it gets no index entry.
      if (hasCR && after === n && chunk[i] === CR) break;
      if (line >= nextIndexLine && index !== null) {
        index.push(line, this.#base + after);
        nextIndexLine = line + every;
      }
      if (line >= stopAt) break;
    }
    if (hasCR && after === n && chunk[n - 1] === CR) {
      // Counted as a lone CR, it may be half of a CR LF: the next chunk's first byte says.
      endings.cr--;
      this.#pendingCR = true;
    }
    if (!hasCR) endings.lf += line - started;
    if (index !== null) this.#nextIndexLine = nextIndexLine;
    this.#line = line;
    if (after === -1) {
      this.#bytesSinceBreak += n - p;
      return n;
    }
    if (line >= stopAt) {
      this.#bytesSinceBreak = 0;
      return after;
    }
    this.#bytesSinceBreak = n - after;
    return n;
  }

  /**
   * Collects window lines. Complete lines inside this chunk are decoded as one region (one
   * native call) and rendered in one pass, which is what makes small files cheap; a line that
   * spans chunks goes through `#collectSpanning` with a bounded byte prefix.
   */
  #collect(chunk: Buffer, p: number, hasCR: boolean): number {
    if (this.#lineBytes > 0 || this.#columns !== null) return this.#collectSpanning(chunk, p, hasCR);
    let q = p;
    // Regions need valid UTF-8 lines that end at LF or CR LF; once the text from `q` on cannot
    // start one (invalid UTF-8, a lone CR, no LF left), the rest of this chunk goes line by line.
    let regions = true;
    while (q < chunk.length && this.#output.open) {
      if (regions) {
        const taken = this.#collectRegion(chunk, q, hasCR);
        if (taken === -1) regions = false;
        else q += taken;
        if (q >= chunk.length || !this.#output.open) break;
      }
      // One line alone: CR breaks, invalid UTF-8, a long line or the one that meets a budget.
      // It is decoded alone (only a bounded prefix of a long one) and measured in raw bytes, so
      // cut markers report the file's own line length.
      const i = this.#findBreak(chunk, q, hasCR);
      if (i === -1) return this.#collectSpanning(chunk, q, hasCR);
      this.#output.emit(chunk.toString('utf8', q, q + Math.min(i - q, this.#keepBytes)), this.#line, i - q);
      q = this.#consumeBreak(chunk, i);
    }
    return q;
  }

  /**
   * Takes the complete lines from `p` that the window can still show as one region: one render
   * pass in WebAssembly and one native decode, which is what makes small files and pages cheap
   * (`WindowOutput.emitRegion` says which lines a region takes). It looks no further than the
   * budgets could hold (a line's rendered size is at least its raw bytes less its break, and at
   * least a third of them in characters), so a page of a large file costs the page, not the
   * chunk. Returns the bytes taken, or -1 when no region can be taken from `p` on in this chunk:
   * no LF left, a lone CR before the next one, or text that is not valid UTF-8.
   */
  #collectRegion(chunk: Buffer, p: number, hasCR: boolean): number {
    const output = this.#output;
    const firstLF = chunk.indexOf(LF, p);
    const firstCR = hasCR ? chunk.indexOf(CR, p) : -1;
    // No LF left, or a lone CR before it: no region can start here, nor later in this chunk (a
    // search for each line of a lone-CR file would scan the rest of the chunk every time).
    if (firstLF === -1 || (firstCR !== -1 && firstCR < firstLF - 1)) return -1;
    const taken = output.emitRegion(chunk, p, Math.min(chunk.length, p + output.rawRoom), this.#line, hasCR);
    if (taken === null) return -1;
    if (taken.lines === 0) return 0;
    if (this.#index !== null && this.#line + taken.lines >= this.#nextIndexLine) this.#indexRegion(chunk, p, taken.lines);
    this.#line += taken.lines;
    this.#endings.crlf += taken.pairs;
    this.#endings.lf += taken.lines - taken.pairs;
    this.#bytesSinceBreak = 0;
    return taken.bytes;
  }

  /** The index entries among `lines` lines taken as a region from `p`, as `#consumeBreak` records them. */
  #indexRegion(chunk: Buffer, p: number, lines: number): void {
    const index = this.#index;
    if (index === null) return;
    let line = this.#line;
    for (let k = 0, i = p - 1; k < lines; k++) {
      i = chunk.indexOf(LF, i + 1);
      if (++line >= this.#nextIndexLine) {
        index.push(line, this.#base + i + 1);
        this.#nextIndexLine = line + this.#indexEvery;
      }
    }
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
    this.#output.emit(this.#takePieces(), this.#line, lineBytes);
    return this.#consumeBreak(chunk, i);
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
    this.#output.emitColumn(text, this.#line);
  }
}
