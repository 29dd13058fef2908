import { StringDecoder } from 'node:string_decoder';

/** Where a column read of one line started and stopped, in characters (UTF-16 code units). */
export interface ColumnFacts {
  /** 1-based character the piece starts at. */
  readonly first: number;
  /** Last character shown; `first - 1` when the line is shorter than `first`. */
  readonly last: number;
  /** Bytes of the whole line in the file, its break excluded. */
  readonly lineBytes: number;
  /** True when the line goes on after `last`. */
  readonly more: boolean;
}

/**
 * Keeps one piece of a line of any length: the characters from `first` on, up to a character
 * and a byte budget. Bytes stream in chunk by chunk and are decoded incrementally (a character
 * split between chunks is joined), so a 100 MB minified line costs one pass and the piece, never
 * the line in memory. Once the piece is full, later bytes are only noted, not decoded.
 */
export class ColumnWindow {
  readonly #first: number;
  readonly #maxChars: number;
  readonly #maxBytes: number;
  readonly #decoder = new StringDecoder('utf8');
  /** Characters decoded so far. */
  #seen = 0;
  readonly #kept: string[] = [];
  #keptChars = 0;
  #keptBytes = 0;
  #full = false;
  #more = false;

  constructor(first: number, maxChars: number, maxBytes: number) {
    this.#first = first;
    this.#maxChars = Math.max(1, maxChars);
    this.#maxBytes = Math.max(4, maxBytes);
  }

  push(bytes: Buffer): void {
    if (bytes.length === 0) return;
    if (this.#full) {
      this.#more = true;
      return;
    }
    this.#take(this.#decoder.write(bytes));
  }

  /** The piece and where it lies; `lineBytes` is the caller's count of the line's bytes. */
  end(lineBytes: number): { text: string; facts: ColumnFacts } {
    if (!this.#full) this.#take(this.#decoder.end());
    const text = this.#kept.join('');
    return { text, facts: { first: this.#first, last: this.#first + text.length - 1, lineBytes, more: this.#more } };
  }

  #take(text: string): void {
    if (text.length === 0) return;
    if (this.#full) {
      this.#more = true;
      return;
    }
    const start = Math.max(0, this.#first - 1 - this.#seen);
    this.#seen += text.length;
    if (start >= text.length) return;
    let piece = text.slice(start);
    const room = this.#maxChars - this.#keptChars;
    if (piece.length > room) {
      piece = cutText(piece, room);
      this.#full = true;
      this.#more = true;
    }
    const bytes = Buffer.byteLength(piece);
    if (this.#keptBytes + bytes > this.#maxBytes) {
      piece = cutUtf8(piece, this.#maxBytes - this.#keptBytes);
      this.#full = true;
      this.#more = true;
    }
    this.#kept.push(piece);
    this.#keptChars += piece.length;
    this.#keptBytes += Buffer.byteLength(piece);
    if (this.#keptChars >= this.#maxChars) this.#full = true;
  }
}

/** The first `max` UTF-16 code units of `text`, never ending inside a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  const last = text.charCodeAt(max - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? max - 1 : max;
  return text.slice(0, end);
}

/** The longest prefix of `text` whose UTF-8 encoding fits `maxBytes`, cut between characters. */
export function cutUtf8(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  if (text.length * 3 <= maxBytes) return text;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Back off continuation bytes (10xxxxxx): the cut falls between two whole sequences.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.toString('utf8', 0, end);
}
