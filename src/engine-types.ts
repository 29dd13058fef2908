/** The shapes the engine's public methods take and answer. */
import type { LastRead } from './cache/sessions.js';
import type { ReadError, ReadErrorCode } from './errors.js';
import type { ReadRequest } from './request.js';
import type { ReadResult } from './result.js';
import type { SchedulerStats } from './scheduler.js';
import type { StatLaneStats } from './stat-lane.js';

export interface CallOptions {
  /** Cancels the read: a queued read is dropped, a running one stops at its next chunk. */
  readonly signal?: AbortSignal;
}

/** One entry of `readMany`'s answer, in request order. */
export type ReadSettled =
  | { readonly ok: true; readonly request: ReadRequest; readonly result: ReadResult }
  | { readonly ok: false; readonly request: ReadRequest; readonly error: ReadError };

/** What `lastRead` reports: when a session read a file, which version and content, which lines. */
export type { LastRead };

/** The answer of `checkUnchanged`, for a host's edit tool deciding whether a write is stale. */
export interface UnchangedCheck {
  readonly unchanged: boolean;
  /**
   * `same_version`: not written since the read. `same_content`: written (touched, checked out)
   * but byte-identical. `modified`, `deleted`: changed since the read. `not_read`: the session
   * holds no read of this file (never read, forgotten, or evicted).
   */
  readonly reason: 'same_version' | 'same_content' | 'modified' | 'deleted' | 'not_read';
  /** For a model: what changed and what to do before writing. Null when unchanged. */
  readonly message: string | null;
  readonly lastRead: LastRead | null;
}

export interface CacheStats {
  readonly result: { readonly hits: number; readonly misses: number; readonly entries: number; readonly bytes: number };
  readonly stub: { readonly hits: number };
  readonly singleFlight: { readonly joins: number; readonly inFlight: number };
  readonly lineIndex: { readonly hits: number; readonly versions: number; readonly bytes: number };
  readonly hash: { readonly hits: number };
  /** Pages read ahead of an agent paging through a large file, and those not yet taken. */
  readonly readAhead: { readonly pages: number; readonly waiting: number };
  readonly sessions: { readonly sessions: number; readonly entries: number };
}

export interface EngineStats extends SchedulerStats {
  /** Of `queued`, the reads not started yet: held at the gate until their session has room. */
  readonly notStarted: number;
  /** The media pool: started by the first media read; replaced after large renders. */
  readonly media: { readonly started: boolean; readonly recycles: number };
  /**
   * Where the stats behind cache hits and stubs were made: on the host, or in batches on the stat
   * thread (in busy turns), and batches given up on as stuck (their reads went to the text pool).
   */
  readonly stat: StatLaneStats;
  readonly threads: number;
  /**
   * The text pool: whether its threads have started (see the `startThreads` option), how many
   * are ready, how many reads the host thread answered itself before any was, and how many whole
   * scans of large files were split over two threads (the read on one, its xxh64 on the other).
   */
  readonly text: { readonly started: boolean; readonly ready: number; readonly hostReads: number; readonly splitScans: number };
  readonly roots: readonly string[];
  readonly answered: number;
  readonly cache: CacheStats;
  /** Errors answered so far, by code. */
  readonly errors: Readonly<Partial<Record<ReadErrorCode, number>>>;
  readonly closed: boolean;
}
