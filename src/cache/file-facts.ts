import { LRUCache } from 'lru-cache';
import type { SeekHint, TextPayload } from '../wire.js';

/** What one full scan taught about a file version: its line count, hashes and line index. */
export interface FileFacts {
  readonly totalLines: number;
  readonly xxh64: string;
  sha256: string | null;
  readonly bom: boolean;
  /** The last line is terminated by a break. */
  readonly finalBreak: boolean;
  /** `[line, byte, ...]` pairs of a large UTF-8 file, ascending; null for small files. */
  readonly index: Float64Array | null;
}

/**
 * What a path remembers of the facts it last taught the cache (see `FactsCache.learn`), so that
 * reading it again at the same version skips the cache's lookup. Kept on the path's `Place`.
 */
export interface LearnMemo {
  /** The version last learned through this path, or `''`. */
  learnedVersion: string;
  /** The cache's `losses` when it was learned: an entry lost since is learned again. */
  learnedAt: number;
}

/** Bytes an entry holds besides its index: the key and the object. */
const ENTRY_BYTES = 160;

/**
 * Version → facts (DESIGN.md section 6: the line-index and hash caches). Filled from full scans
 * on the main thread, bounded by bytes, least recently used out first. A version key changes
 * with any write, so an entry can never describe other content than its own.
 */
export class FactsCache {
  readonly #entries: LRUCache<string, FileFacts>;
  /** Entries evicted or deleted so far: a `LearnMemo` taken before the last one may be stale. */
  #losses = 0;

  constructor(maxBytes: number) {
    this.#entries = new LRUCache<string, FileFacts>({
      maxSize: maxBytes,
      sizeCalculation: (facts, version) => ENTRY_BYTES + version.length * 2 + (facts.index?.byteLength ?? 0),
      dispose: (_facts, _version, reason) => {
        if (reason !== 'set') this.#losses++;
      },
    });
  }

  get(version: string): FileFacts | undefined {
    return this.#entries.get(version);
  }

  /**
   * Learns from a text payload that read its file whole; a seek or tail read teaches nothing new.
   * With the path's `memo`, a version this path taught already, and still held, is not looked up
   * again unless the payload brings a line index or a SHA-256: the lookup of a freshly received
   * version string was about a twentieth of the host's time a miss (2 cores, source tree, result
   * cache off: 10.77 against 11.41 µs a read, medians of 40 alternating passes). Such a re-read
   * does not renew the entry's place in the LRU order; an entry lost counts in `losses`, and
   * every path then learns again.
   */
  learn(payload: TextPayload, memo: LearnMemo | null = null): void {
    const { totalLines, xxh64 } = payload;
    if (totalLines === null || xxh64 === null) return;
    const fresh = payload.index !== null || payload.sha256 !== null;
    if (!fresh && memo !== null && memo.learnedAt === this.#losses && memo.learnedVersion === payload.version) return;
    this.#learn(payload, totalLines, xxh64);
    // Not when the cache refused the entry (larger than the whole cache: lru-cache drops it as a
    // 'set', which `losses` does not count).
    if (memo !== null && this.#entries.has(payload.version)) {
      memo.learnedVersion = payload.version;
      memo.learnedAt = this.#losses;
    }
  }

  #learn(payload: TextPayload, totalLines: number, xxh64: string): void {
    const known = this.#entries.get(payload.version);
    if (known !== undefined) {
      if (payload.sha256 !== null) known.sha256 = payload.sha256;
      if (known.index !== null || payload.index === null) return;
    }
    this.#entries.set(payload.version, {
      totalLines,
      xxh64,
      sha256: payload.sha256 ?? known?.sha256 ?? null,
      bom: payload.bom,
      finalBreak: payload.finalBreak,
      index: payload.index,
    });
  }

  /** Entries evicted or deleted so far (see `LearnMemo`). */
  get losses(): number {
    return this.#losses;
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#entries.calculatedSize;
  }
}

/**
 * The seek hint for reading from line `offset` (negative: counted from the end) of a version
 * whose facts include a line index, or null when there is none.
 */
export function seekHint(version: string, facts: FileFacts, offset: number): SeekHint | null {
  const { index } = facts;
  if (index === null || index.length < 2) return null;
  const target = offset > 0 ? offset : Math.max(1, facts.totalLines + offset + 1);
  // Largest recorded line start at or before the target: a binary search over the pairs.
  let lo = 0;
  let hi = index.length / 2 - 1;
  if ((index[0] ?? Infinity) > target) return null;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((index[mid * 2] ?? Infinity) <= target) lo = mid;
    else hi = mid - 1;
  }
  return {
    version,
    offset: target,
    line: index[lo * 2] ?? 1,
    byte: index[lo * 2 + 1] ?? 0,
    totalLines: facts.totalLines,
    xxh64: facts.xxh64,
    bom: facts.bom,
    finalBreak: facts.finalBreak,
  };
}
