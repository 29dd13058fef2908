/**
 * The strings caches are keyed by: a file's version, the range a request asks for (what an
 * unchanged-file stub stands for), and everything that shapes a result besides the file.
 */
import type { RenderSpec } from './core/line-format.js';
import { versionKey, type FileStat } from './io/stat-wire.js';
import type { ParsedRequest } from './request.js';

interface Remembered {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly key: string;
}

/** Paths whose last version string is kept; past this the memo starts over. */
const MEMO_PATHS = 16_384;

/**
 * Version strings by path, reused while the path's stat is unchanged: five number comparisons
 * instead of five number-to-string conversions and a concatenation on every read.
 */
export class VersionMemo {
  readonly #byPath = new Map<string, Remembered>();

  key(absolute: string, stat: FileStat): string {
    const last = this.#byPath.get(absolute);
    if (
      last !== undefined &&
      last.ctimeMs === stat.ctimeMs &&
      last.mtimeMs === stat.mtimeMs &&
      last.ino === stat.ino &&
      last.size === stat.size &&
      last.dev === stat.dev
    ) {
      return last.key;
    }
    const key = versionKey(stat);
    if (this.#byPath.size >= MEMO_PATHS) this.#byPath.clear();
    this.#byPath.set(absolute, { dev: stat.dev, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, key });
    return key;
  }
}

/** The lines (and pages, and forms) a request asks for: what an unchanged-file stub stands for. */
export function rangeOf(req: ParsedRequest): string {
  return `${req.offset}:${req.limit}:${req.column}:${renderKey(req.render)}:${req.pages ?? ''}:${req.images ? 1 : 0}${req.pdf ? 1 : 0}${req.media ? 1 : 0}`;
}

/** Everything that shapes a result besides the file: the result cache's key with the version. */
export function shapeOf(req: ParsedRequest, range: string): string {
  return `${range}:${req.maxBytes}:${req.maxTokens}:${req.allowBinary ? 1 : 0}${req.sha256 ? 1 : 0}`;
}

/** The range and shape strings of a request that changes nothing from the engine's defaults. */
export interface DefaultShape {
  readonly range: string;
  readonly shape: string;
}

/** Requests with every shaping field at its default share these strings, built once. */
export function isDefaultShape(req: ParsedRequest, defaults: ParsedRequest): boolean {
  return (
    req.offset === defaults.offset &&
    req.limit === defaults.limit &&
    req.column === 0 &&
    req.render === null &&
    req.pages === null &&
    req.images &&
    req.pdf &&
    req.media &&
    req.maxBytes === defaults.maxBytes &&
    req.maxTokens === defaults.maxTokens &&
    !req.allowBinary &&
    !req.sha256
  );
}

/** Render specs by identity: a dialect passes the same constant object with every read. */
const renderKeys = new WeakMap<RenderSpec, string>();

function renderKey(render: RenderSpec | null): string {
  if (render === null) return '';
  let key = renderKeys.get(render);
  if (key === undefined) {
    key = JSON.stringify([render.format, render.cutMarker, render.cut ?? 'lines']);
    renderKeys.set(render, key);
  }
  return key;
}

/**
 * True when the version's ctime is at least `settleMs` older than `startedAt`: any later write
 * then gets a later ctime, so an equal version means equal content. (Git's "racily clean"
 * problem: two writes within one coarse timestamp tick can leave equal versions.)
 */
export function isSettled(version: string, startedAt: number, settleMs: number): boolean {
  if (settleMs === 0) return true;
  const ctimeMs = version.slice(version.lastIndexOf(':') + 1);
  return Number(ctimeMs) <= startedAt - settleMs;
}

/** Paths whose default-shape keys are kept; past this the memo starts over. */
const KEYED_PATHS = 16_384;

/**
 * A path's keys for a read in the default shape, built once: the result cache's key and the key
 * of work not yet statted. A key built per read is a new string, which V8 flattens and hashes on
 * every lookup; the memo is looked up by the sandbox's own path string, whose hash V8 keeps.
 */
export class PlainKeys {
  readonly #shape: string;
  readonly #byPath = new Map<string, { readonly key: string; readonly open: string }>();

  constructor(shape: string) {
    this.#shape = shape;
  }

  of(absolute: string): { readonly key: string; readonly open: string } {
    let keys = this.#byPath.get(absolute);
    if (keys === undefined) {
      keys = keysOf(absolute, this.#shape);
      if (this.#byPath.size >= KEYED_PATHS) this.#byPath.clear();
      this.#byPath.set(absolute, keys);
    }
    return keys;
  }
}

/** The result cache's key for a path read in `shape`, and the key of its work not yet statted. */
export function keysOf(absolute: string, shape: string): { readonly key: string; readonly open: string } {
  const key = `${absolute}|${shape}`;
  return { key, open: `?${key}` };
}
