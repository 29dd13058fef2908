import { cutText, cutUtf8 } from './column-window.js';
import { fillCutMarker, headBytesOf, renderLine, writeLineHead, type HeadBytes, type RenderSpec } from './line-format.js';
import { copied, copyAsciiLine, copyUtf8Line } from './region-lines.js';

/**
 * Where `emitRegion` renders, reused by every window of this thread (a window renders
 * synchronously, and its text is copied out as a string before it returns). Grows to the
 * largest region rendered, which a chunk bounds.
 */
let rendering = Buffer.allocUnsafe(64 * 1024);

/** A rendering buffer of at least `bytes`. */
function renderingOf(bytes: number): Buffer {
  if (rendering.length < bytes) rendering = Buffer.allocUnsafe(Math.max(bytes, rendering.length * 2));
  return rendering;
}

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

/**
 * The rendered window of a slice and the budgets it spends: lines arrive decoded, with their
 * numbers and raw sizes, and are kept, cut or refused here. The line slicer finds them; this
 * decides what is shown, so every way of finding a line (alone, in a region, as a column
 * piece) is measured and cut by the same rules.
 */
export class WindowOutput {
  readonly #limits: SliceLimits;
  readonly #render: RenderSpec;
  /** Longest line shown whole; longer ones are cut (by length, or in `cut: 'budget'` by budget). */
  readonly lineChars: number;
  /** Size of a rendered line beyond its text and number: prefix and separator. */
  readonly overhead: { readonly chars: number; readonly bytes: number };
  /** The format's line head as bytes, for `emitRegion`; null when lines are not numbered. */
  readonly #head: HeadBytes | null;

  #open = true;
  #budgetStop: 'bytes' | 'tokens' | null = null;
  /** Rendered output, in blocks of one or more lines each. */
  readonly #out: string[] = [];
  /** Lines shown so far. */
  #shown = 0;
  #outBytes = 0;
  #outChars = 0;
  #cutLines = 0;
  #firstCutLine: number | null = null;

  constructor(limits: SliceLimits, render: RenderSpec) {
    this.#limits = limits;
    this.#render = render;
    const { format } = render;
    const fixed = format.numbered ? format.prefix + format.separator : '';
    this.overhead = { chars: fixed.length, bytes: Buffer.byteLength(fixed) };
    this.#head = headBytesOf(format);
    this.lineChars = render.cut === 'budget' ? Math.min(limits.maxTokens * 4, limits.maxBytes) : limits.maxLineChars;
  }

  /** False once the window is complete (the limit reached or a budget met). */
  get open(): boolean {
    return this.#open;
  }

  get shown(): number {
    return this.#shown;
  }

  get budgetStop(): 'bytes' | 'tokens' | null {
    return this.#budgetStop;
  }

  get cutLines(): number {
    return this.#cutLines;
  }

  get firstCutLine(): number | null {
    return this.#firstCutLine;
  }

  get content(): string {
    return this.#out.join('\n');
  }

  /** Lines the limit still allows. */
  get room(): number {
    return this.#limits.limit - this.#shown;
  }

  /**
   * Raw bytes beyond which no run of lines can fit the budgets: a run's rendered size is at
   * least its raw bytes less one break, and at least a third of them (less one) in characters.
   */
  get rawRoom(): number {
    const { maxBytes, maxTokens } = this.#limits;
    return Math.min(maxBytes - this.#outBytes, 3 * (maxTokens * 4 - this.#outChars)) + 1;
  }

  /** One line, whole or cut; the one that meets a budget closes the window. */
  emit(text: string, lineNumber: number, lineBytes: number): void {
    const { maxBytes, maxTokens, limit } = this.#limits;
    const { format, cutMarker } = this.#render;
    let rendered: string;
    let cut = false;
    if (text.length > this.lineChars && this.#render.cut !== 'budget') {
      cut = true;
      const shown = cutText(text, this.lineChars);
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
      this.#open = false;
      return;
    }
    this.#out.push(rendered);
    this.#shown++;
    this.#outBytes += bytes;
    this.#outChars += chars;
    if (cut) this.#countCut(lineNumber);
    if (this.#shown >= limit) this.#open = false;
  }

  /**
   * Renders a region of valid UTF-8, `chunk[from, to)`, whose lines end at LF (or, with `crlf`,
   * at LF or CR LF), that ends with a break and holds `lines` of them, numbered from `first`,
   * and keeps its lines up to the first that needs a cut or would pass a budget; that line is
   * left to `emit`, which cuts it or closes the window, so the output is the same as line by
   * line. Each line's number, separator and bytes are written into one reused buffer (a line that
   * does not fit is rolled back), and the region becomes one flat string: string pieces joined
   * into a rope cost their garbage, and a copy more when posting the answer flattens it. A line
   * is measured as `emit` measures it: its UTF-8 bytes, and its UTF-16 code units (a byte each in
   * an `ascii` region; else one a character, two for a 4-byte one). Returns the lines taken and
   * the bytes they span, breaks included.
   */
  emitRegion(chunk: Uint8Array, from: number, to: number, lines: number, first: number, crlf: boolean, ascii: boolean): { lines: number; bytes: number } {
    const { maxBytes, maxTokens, limit } = this.#limits;
    const head = this.#head;
    // What a line's UTF-8 size exceeds its length in code units by, beyond its text: a non-ASCII prefix or separator.
    const extraBytes = this.overhead.bytes - this.overhead.chars;
    const room = limit - this.#shown;
    const digitsRoom = head === null ? 0 : Math.max(head.width, String(first).length, String(first + lines).length);
    const capacity = to - from + lines * (this.overhead.bytes + digitsRoom + 1);
    const out = renderingOf(capacity);
    // An ASCII region is copied whole to the buffer's end, and each line moved down into place
    // after its head: V8's own typed-array builtins (one search and one move a line) run at full
    // speed in a fresh worker, where a byte loop runs interpreted until it is compiled
    // (`copyAsciiLine`). The region's byte `b` waits at `waiting + b`.
    const waiting = capacity - (to - from) - from;
    if (ascii) out.set(chunk.subarray(from, to), waiting + from);
    // A plain view, whose `indexOf` is V8's builtin (a `Buffer`'s goes through a binding).
    const plain = ascii ? new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length) : chunk;
    let o = 0;
    let count = 0;
    let start = from;
    let bytes = 0;
    let chars = 0;
    for (; start < to && count < room; count++) {
      const lineStart = o;
      if (count > 0) out[o++] = LF;
      if (head !== null) o = writeLineHead(out, o, head, first + count);
      o = ascii ? copyAsciiLine(out, o, plain, start, waiting) : copyUtf8Line(out, o, chunk, start);
      const i = copied.to;
      const unitsLess = copied.unitsLess;
      // A CR before the LF is the line's break, not its text.
      const lineEnd = crlf && copied.cr ? i - 1 : i;
      if (lineEnd < i) o--;
      if (lineEnd - start - unitsLess > this.lineChars) {
        o = lineStart;
        break;
      }
      // The first line's joiner is the one between blocks, which `content` adds.
      const lineBytes = o - lineStart + (count === 0 && this.#shown > 0 ? 1 : 0);
      const lineChars = lineBytes - extraBytes - unitsLess;
      if (this.#outBytes + bytes + lineBytes > maxBytes || Math.ceil((this.#outChars + chars + lineChars) / 4) > maxTokens) {
        o = lineStart;
        break;
      }
      bytes += lineBytes;
      chars += lineChars;
      start = i + 1;
    }
    if (count === 0) return { lines: 0, bytes: 0 };
    this.#out.push(out.toString(ascii && extraBytes === 0 ? 'latin1' : 'utf8', 0, o));
    this.#shown += count;
    this.#outBytes += bytes;
    this.#outChars += chars;
    if (this.#shown >= limit) this.#open = false;
    return { lines: count, bytes: start - from };
  }

  /** The one line of a column read (the piece its column window kept); the window closes. */
  emitColumn(text: string, lineNumber: number): void {
    const rendered = renderLine(this.#render.format, lineNumber, text);
    this.#out.push(rendered);
    this.#shown = 1;
    this.#outBytes = Buffer.byteLength(rendered);
    this.#outChars = rendered.length;
    this.#open = false;
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

const LF = 0x0a;
