import { cutText, cutUtf8 } from './column-window.js';
import { fillCutMarker, renderLine, type RenderSpec } from './line-format.js';

/**
 * Where `emitAsciiRegion` renders, reused by every window of this thread (a window renders
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
  /** The format's prefix and separator as UTF-8, for `emitAsciiRegion`. */
  readonly #prefixBytes: Buffer;
  readonly #separatorBytes: Buffer;

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
    this.#prefixBytes = Buffer.from(format.numbered ? format.prefix : '');
    this.#separatorBytes = Buffer.from(format.numbered ? format.separator : '');
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
   * Renders a region of valid UTF-8 text whose lines end at LF (or, with `crlf`, at LF or CR LF)
   * and that ends with a break, numbered from `first`, in one pass (no array of lines, no join),
   * and keeps its lines up to the first that needs a cut or would pass a budget; that line is
   * left to `emit`, which cuts it or closes the window, so the output is the same as line by
   * line. Each line is measured as `emit` measures it (an ASCII region's UTF-8 size follows from
   * its length). Returns the lines taken and the bytes they span, breaks included.
   */
  emitRegion(text: string, regionBytes: number, first: number, crlf = false): { lines: number; bytes: number } {
    const { maxBytes, maxTokens, limit } = this.#limits;
    const { format } = this.#render;
    const ascii = regionBytes === text.length;
    // All that is added to a line (number, padding, break) is ASCII, but the format's own prefix
    // and separator, whose UTF-8 size is known.
    const extraBytes = this.overhead.bytes - this.overhead.chars;
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
      // A CR before the LF is the line's break, not its text. (An empty line's previous character
      // is the LF before it, or there is none.)
      const lineEnd = crlf && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
      if (lineEnd - start > this.lineChars) break;
      const line = plain
        ? head + (first + count) + separator + text.slice(start, lineEnd)
        : renderLine(format, first + count, text.slice(start, lineEnd));
      const joiner = this.#shown + count > 0 ? 1 : 0;
      const lineChars = line.length + joiner;
      const lineBytes = (ascii ? line.length + extraBytes : Buffer.byteLength(line)) + joiner;
      if (this.#outBytes + bytes + lineBytes > maxBytes || Math.ceil((this.#outChars + chars + lineChars) / 4) > maxTokens) break;
      rendered = count === 0 ? line : rendered + '\n' + line;
      bytes += lineBytes;
      chars += lineChars;
      start = end + 1;
    }
    if (count === 0) return { lines: 0, bytes: 0 };
    this.#out.push(rendered);
    this.#shown += count;
    this.#outBytes += bytes;
    this.#outChars += chars;
    if (this.#shown >= limit) this.#open = false;
    // Bytes of the lines taken: all of the region, or (ASCII) as many as characters.
    const taken = start === text.length ? regionBytes : ascii ? start : Buffer.byteLength(text.slice(0, start));
    return { lines: count, bytes: taken };
  }

  /**
   * `emitRegion` for a region of ASCII bytes, `chunk[from, to)`, that ends with a break and
   * holds `lines` breaks: the lines are rendered as bytes into one buffer and become one flat
   * string, where `emitRegion` joins string pieces into a rope that posting the answer must
   * flatten, a copy more. Same output and budgets, line for line (every character of an ASCII
   * line is one byte, and one code unit).
   */
  emitAsciiRegion(chunk: Uint8Array, from: number, to: number, lines: number, first: number, crlf = false): { lines: number; bytes: number } {
    const { maxBytes, maxTokens, limit } = this.#limits;
    const { format } = this.#render;
    const numbered = format.numbered;
    const width = numbered ? format.width : 0;
    const prefix = this.#prefixBytes;
    const separator = this.#separatorBytes;
    // What a line's UTF-8 size exceeds its length in characters by: a non-ASCII prefix or separator.
    const extraBytes = this.overhead.bytes - this.overhead.chars;
    const room = limit - this.#shown;
    const digitsRoom = numbered ? Math.max(width, String(first).length, String(first + lines).length) : 0;
    const out = renderingOf(to - from + lines * (this.overhead.bytes + digitsRoom + 1));
    let o = 0;
    let count = 0;
    let start = from;
    let bytes = 0;
    let chars = 0;
    for (; start < to && count < room; count++) {
      const joiner = this.#shown + count > 0 ? 1 : 0;
      const lineStart = o;
      if (count > 0) out[o++] = LF;
      if (numbered) {
        o = writePrefix(out, o, prefix);
        o = writeNumber(out, o, first + count, width);
        o = writePrefix(out, o, separator);
      }
      let i = start;
      for (let b = chunk[i]; b !== LF; b = chunk[++i]) out[o++] = b as number;
      // A CR before the LF is the line's break, not its text.
      const lineEnd = crlf && i > start && chunk[i - 1] === CR ? i - 1 : i;
      if (lineEnd < i) o--;
      if (lineEnd - start > this.lineChars) {
        o = lineStart;
        break;
      }
      // The joiner of the first line is the one between blocks, added by `content`.
      const lineBytes = o - lineStart + (count === 0 ? joiner : 0);
      const lineChars = lineBytes - extraBytes;
      if (this.#outBytes + bytes + lineBytes > maxBytes || Math.ceil((this.#outChars + chars + lineChars) / 4) > maxTokens) {
        o = lineStart;
        break;
      }
      bytes += lineBytes;
      chars += lineChars;
      start = i + 1;
    }
    if (count === 0) return { lines: 0, bytes: 0 };
    this.#out.push(out.toString(extraBytes === 0 ? 'latin1' : 'utf8', 0, o));
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
const CR = 0x0d;
const SPACE = 0x20;
const ZERO = 0x30;
const MINUS = 0x2d;

function writePrefix(out: Buffer, at: number, bytes: Buffer): number {
  for (let i = 0; i < bytes.length; i++) out[at + i] = bytes[i] as number;
  return at + bytes.length;
}

/** Writes `n` in decimal (a tail read numbers lines from -1 back), padded with spaces to `width` as `padStart` pads; returns the end. */
function writeNumber(out: Buffer, at: number, n: number, width: number): number {
  const magnitude = Math.abs(n);
  let digits = 1;
  for (let rest = magnitude; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  const sign = n < 0 ? 1 : 0;
  let o = at;
  for (let pad = width - digits - sign; pad > 0; pad--) out[o++] = SPACE;
  if (sign === 1) out[o++] = MINUS;
  let rest = magnitude;
  for (let d = o + digits - 1; d >= o; d--) {
    out[d] = ZERO + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return o + digits;
}
