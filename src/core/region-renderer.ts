import { isUtf8 } from 'node:buffer';
import type { HeadBytes } from './line-format.js';
import { REGION_RENDER_WASM } from './region-render-wasm.js';
import { WasmModule } from './wasm-module.js';

/** What the caller's window allows a region: see `WindowOutput.emitRegion`. */
export interface RegionAsk {
  /** Number of the region's first line (negative in a tail read, numbered from -1 back). */
  readonly first: number;
  /** Most lines to take. */
  readonly room: number;
  /** Longest line a region may hold, in bytes and in UTF-16 code units; a longer one stops it. */
  readonly lineChars: number;
  /** Output bytes and UTF-16 code units the window has left (a line that would pass either stops it). */
  readonly bytesRoom: number;
  readonly charsRoom: number;
  /** Lines end at LF or CR LF (else at LF only, and the text holds no CR). */
  readonly crlf: boolean;
  /** The window shows lines before this region: its first line's size counts their joining LF. */
  readonly joiner: boolean;
  /** How many more UTF-8 bytes than UTF-16 code units the head holds (a non-ASCII prefix or separator). */
  readonly extraBytes: number;
  readonly head: HeadBytes | null;
}

/** The lines a region took, as `WindowOutput` counts them. */
export interface RenderedRegion {
  readonly lines: number;
  /** Source bytes taken, breaks included. */
  readonly bytes: number;
  /** Output bytes and code units spent, the joining LF before the first line included when asked. */
  readonly outBytes: number;
  readonly outChars: number;
  /** Lines whose break was CR LF. */
  readonly pairs: number;
  readonly text: string;
}

const NONE: RenderedRegion = { lines: 0, bytes: 0, outBytes: 0, outChars: 0, pairs: 0, text: '' };

/** The module's memory: head prefix, head separator, then the output and the source (see region-render.wat). */
const PREFIX_AT = 0;
const SEPARATOR_AT = 256;
const OUT_AT = 512;
/** Past the output and the source: a step reads and writes 16 bytes, only those up to the line feed used. */
const SLACK = 64;
/** A line head's digits and sign at most: |n| < 2^31. */
const NUMBER_CHARS = 11;
const MAX_I32 = 2 ** 31 - 1;
/**
 * Source bytes copied into the module for a region's first call: the whole of most source files.
 * A region that goes on past them gets twice as much at each call, so one that stops early (a long
 * line, a budget) costs a copy of about what it took, not of all it might have taken.
 */
const FIRST_WINDOW = 16 * 1024;

/** The part of the WebAssembly API used here (the project's type libraries leave it out). */
declare const WebAssembly: {
  Instance: new (module: object) => { readonly exports: object };
};

interface Global {
  readonly value: number;
}

interface Exports {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  readonly begin: (source: number, out: number) => void;
  readonly render: (
    end: number,
    first: number,
    room: number,
    lineChars: number,
    bytesRoom: number,
    charsRoom: number,
    flags: number,
    extra: number,
    prefixLen: number,
    sepLen: number,
    width: number,
  ) => void;
  readonly next: Global;
  readonly out: Global;
  readonly lines: Global;
  readonly bytes: Global;
  readonly chars: Global;
  readonly pairs: Global;
  readonly high: Global;
  readonly why: Global;
}

/** `why` after a call: the source copied so far ran out before the region was done. */
const NEEDS_SOURCE = 1;

const MODULE = new WasmModule(REGION_RENDER_WASM);

/** Compiles the module ahead of the first renderer, off this thread (see `WasmModule.warm`). */
export function precompileRegionRenderer(): Promise<void> {
  return MODULE.warm();
}

/**
 * Renders a region of whole lines (each line's head, its text, the LF between lines) in
 * WebAssembly, 16 bytes a step: each line is found, copied and measured (bytes, UTF-16 code
 * units, CRs) in one pass, with no call out of the module a line. One per thread; its memory grows
 * to the largest region rendered, which a read's chunk and budgets bound.
 */
export class RegionRenderer {
  readonly #exports: Exports;
  #view: Buffer;
  /** The head whose prefix and separator are in memory now. */
  #head: HeadBytes | null = null;

  constructor() {
    this.#exports = new WebAssembly.Instance(MODULE.get()).exports as Exports;
    this.#view = Buffer.from(this.#exports.memory.buffer);
  }

  /**
   * The lines of `chunk[from, to)` that `ask` lets a region take, each ending at a LF before `to`,
   * rendered; `null` when the lines taken are not valid UTF-8 (the caller then goes line by line).
   * Takes nothing when a line number is beyond what the module counts in (2^31).
   */
  render(chunk: Uint8Array, from: number, to: number, ask: RegionAsk): RenderedRegion | null {
    const span = to - from;
    const { head } = ask;
    const prefixLen = head?.prefix.length ?? 0;
    const sepLen = head?.separator.length ?? 0;
    const width = head?.width ?? 0;
    const most = Math.min(ask.room, span);
    if (Math.abs(ask.first) > MAX_I32 - most) return NONE;
    // The output: every line rendered, or what the byte budget lets through plus the line being
    // written when it runs out (its text scanned up to `lineChars` and a step past).
    const lineHead = 1 + prefixLen + sepLen + Math.max(width, NUMBER_CHARS);
    const capacity = Math.min(span + (most + 1) * lineHead, Math.max(0, ask.bytesRoom) + lineHead + Math.min(ask.lineChars, span) + 32);
    const sourceAt = OUT_AT + align16(capacity + SLACK);
    const view = this.#reserve(sourceAt + span + SLACK);
    if (head !== this.#head && head !== null) {
      head.prefix.copy(view, PREFIX_AT);
      head.separator.copy(view, SEPARATOR_AT);
      this.#head = head;
    }
    const wasm = this.#exports;
    wasm.begin(sourceAt, OUT_AT);
    const flags = (head !== null ? 1 : 0) | (ask.crlf ? 2 : 0) | (ask.joiner ? 4 : 0);
    let copied = Math.min(to, from + FIRST_WINDOW);
    view.set(chunk.subarray(from, copied), sourceAt);
    for (;;) {
      wasm.render(
        sourceAt + copied - from,
        ask.first,
        Math.min(ask.room, MAX_I32),
        Math.min(ask.lineChars, MAX_I32),
        Math.min(ask.bytesRoom, MAX_I32),
        Math.min(ask.charsRoom, MAX_I32),
        flags,
        ask.extraBytes,
        prefixLen,
        sepLen,
        width,
      );
      if (wasm.why.value !== NEEDS_SOURCE || copied === to) break;
      const more = Math.min(to, from + 2 * (copied - from));
      view.set(chunk.subarray(copied, more), sourceAt + copied - from);
      copied = more;
    }
    const lines = wasm.lines.value;
    if (lines === 0) return NONE;
    const taken = wasm.next.value - sourceAt;
    const ascii = wasm.high.value === 0;
    if (!ascii && !isUtf8(chunk.subarray(from, from + taken))) return null;
    const end = wasm.out.value;
    return {
      lines,
      bytes: taken,
      outBytes: wasm.bytes.value,
      outChars: wasm.chars.value,
      pairs: wasm.pairs.value,
      text: view.toString(ascii && ask.extraBytes === 0 ? 'latin1' : 'utf8', OUT_AT, end),
    };
  }

  /** The memory's view, grown first to at least `bytes`. */
  #reserve(bytes: number): Buffer {
    const { memory } = this.#exports;
    if (memory.buffer.byteLength < bytes) {
      memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / 65_536));
      this.#view = Buffer.from(memory.buffer);
    }
    return this.#view;
  }
}

function align16(n: number): number {
  return Math.ceil(n / 16) * 16;
}
