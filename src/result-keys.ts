/**
 * The strings caches are keyed by: a file's version, the range a request asks for (what an
 * unchanged-file stub stands for), and everything that shapes a result besides the file.
 */
import type { LearnMemo } from './cache/file-facts.js';
import type { RenderSpec } from './core/line-format.js';
import { versionKey, type FileStat } from './io/stat-wire.js';
import type { ParsedRequest } from './request.js';
import type { Location } from './sandbox.js';

/** Requested paths whose `Place` is kept; past this the memo starts over. */
const PLACES = 16_384;

/** Places by the path as requested: a path's later reads skip the sandbox and the key building. */
export class Places {
  readonly #memo = new Map<string, Place>();
  readonly #locate: (requested: string) => Location;
  readonly #plainShape: string;

  constructor(locate: (requested: string) => Location, plainShape: string) {
    this.#locate = locate;
    this.#plainShape = plainShape;
  }

  /** The place of `requested`, or the sandbox's refusal of it (never kept). */
  of(requested: string): Place | Extract<Location, { ok: false }> {
    let place = this.#memo.get(requested);
    if (place === undefined) {
      const located = this.#locate(requested);
      if (!located.ok) return located;
      place = new Place(located.absolute, this.#plainShape);
      if (this.#memo.size >= PLACES) this.#memo.clear();
      this.#memo.set(requested, place);
    }
    return place;
  }
}

/**
 * What the pipeline keeps of a path as requested, from its first read on: where the sandbox put
 * it, its keys for a read in the default shape, and its last version string. One map lookup by
 * the requested path finds all three, where a read made three (the sandbox's, the keys', the
 * version's), each hashing or comparing a long path string.
 */
export class Place implements LearnMemo {
  /** A place, not a refusal (see `Places.of`). */
  readonly ok = true;
  readonly absolute: string;
  /** The result cache's key for a read in the default shape, and the key of its work not yet statted. */
  readonly key: string;
  readonly open: string;
  #dev = -1;
  #ino = -1;
  #size = -1;
  #mtimeMs = -1;
  #ctimeMs = -1;
  #version = '';
  /** What this path last taught the facts cache (see `FactsCache.learn`). */
  learnedVersion = '';
  learnedAt = -1;
  /** The last version found settled for a read of this path, and the earliest start it was found settled for (see `settledFor` in read-work.ts). */
  settledVersion = '';
  settledSince = Infinity;

  constructor(absolute: string, plainShape: string) {
    this.absolute = absolute;
    const { key, open } = keysOf(absolute, plainShape);
    this.key = key;
    this.open = open;
  }

  /**
   * The version string of `stat` (`versionKey`), reused while the path's stat is unchanged: five
   * number comparisons instead of five number-to-string conversions and a concatenation a read.
   */
  versionOf(stat: FileStat): string {
    if (stat.ctimeMs === this.#ctimeMs && stat.mtimeMs === this.#mtimeMs && stat.ino === this.#ino && stat.size === this.#size && stat.dev === this.#dev) {
      return this.#version;
    }
    this.#version = versionKey(stat);
    this.#dev = stat.dev;
    this.#ino = stat.ino;
    this.#size = stat.size;
    this.#mtimeMs = stat.mtimeMs;
    this.#ctimeMs = stat.ctimeMs;
    return this.#version;
  }
}

/** The lines (and pages, and forms) a request asks for: what an unchanged-file stub stands for. */
export function rangeOf(req: ParsedRequest): string {
  const decoded = req.encoding === 'auto' ? '' : `:${req.encoding}`;
  return `${req.offset}:${req.limit}:${req.column}:${renderKey(req.render)}:${req.pages ?? ''}:${req.images ? 1 : 0}${req.pdf ? 1 : 0}${req.media ? 1 : 0}${decoded}`;
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
    !req.sha256 &&
    req.encoding === 'auto'
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
  // The ctime is the version's last field. Found from the end by hand: a miss asks twice, and
  // `lastIndexOf` is a call into the runtime.
  let colon = version.length - 1;
  while (colon >= 0 && version.charCodeAt(colon) !== COLON) colon--;
  return Number(version.slice(colon + 1)) <= startedAt - settleMs;
}

const COLON = 0x3a;

/** The result cache's key for a path read in `shape`, and the key of its work not yet statted. */
export function keysOf(absolute: string, shape: string): { readonly key: string; readonly open: string } {
  const key = `${absolute}|${shape}`;
  return { key, open: `?${key}` };
}
