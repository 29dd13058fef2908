import { cutText, cutUtf8 } from './column-window.js';
import { fillCutMarker, headBytesOf, renderLine, type HeadBytes, type RenderSpec } from './line-format.js';
import { RegionRenderer } from './region-renderer.js';
import { PIECE_CHARS } from './slice-result.js';

/** This thread's region renderer, made at its first region. */
let renderer: RegionRenderer | undefined;

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

  /**
   * The output as strings that concatenate to it, each of at most `PIECE_CHARS` code units
   * unless a single line is longer: the blocks, with the LF between them, joined a group at a
   * time. One piece whenever the output is short.
   */
  get pieces(): readonly string[] {
    const out = this.#out;
    if (this.#outChars <= PIECE_CHARS) return [out.join('\n')];
    const pieces: string[] = [];
    let group: string[] = [];
    let chars = 0;
    for (let i = 0; i < out.length; i++) {
      const block = out[i] as string;
      const joined = block.length + (i > 0 ? 1 : 0);
      if (chars > 0 && chars + joined > PIECE_CHARS) {
        pieces.push(group.join(''));
        group = [];
        chars = 0;
      }
      if (i > 0) group.push('\n');
      group.push(block);
      chars += joined;
    }
    if (group.length > 0) pieces.push(group.join(''));
    return pieces;
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
   * Renders the lines of `chunk[from, to)` that can go as one region, numbered from `first`: whole
   * lines of valid UTF-8, each ending at a LF before `to` (or, with `crlf`, at LF or CR LF, and
   * holding no other CR), none longer than `lineChars`, as many as the limit and the budgets let
   * through. The line that stops it is left to `emit`, which cuts it or closes the window, so the
   * output is the same as line by line. The region is rendered in WebAssembly into one flat string
   * (`RegionRenderer`): string pieces joined into a rope cost their garbage, and a copy more when
   * posting the answer flattens it. Returns the lines taken, the source bytes they span (breaks
   * included) and how many ended in CR LF; `null` when they are not valid UTF-8.
   */
  emitRegion(chunk: Uint8Array, from: number, to: number, first: number, crlf: boolean): { lines: number; bytes: number; pairs: number } | null {
    const { maxBytes, maxTokens, limit } = this.#limits;
    renderer ??= new RegionRenderer();
    const region = renderer.render(chunk, from, to, {
      first,
      room: limit - this.#shown,
      lineChars: this.lineChars,
      // A region's text stays within V8's regular heap pages (see `PIECE_CHARS`): the line that
      // would take it past them goes alone, and the next region takes up after it.
      bytesRoom: Math.min(maxBytes - this.#outBytes, PIECE_CHARS),
      charsRoom: maxTokens * 4 - this.#outChars,
      crlf,
      joiner: this.#shown > 0,
      extraBytes: this.overhead.bytes - this.overhead.chars,
      head: this.#head,
    });
    if (region === null || region.lines === 0) return region;
    this.#out.push(region.text);
    this.#shown += region.lines;
    this.#outBytes += region.outBytes;
    this.#outChars += region.outChars;
    if (this.#shown >= limit) this.#open = false;
    return region;
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

