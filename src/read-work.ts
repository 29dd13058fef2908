/**
 * The work a read that no cache answered starts: a text job in the scheduler (rerouted to the
 * media pool when its bytes turn out to be media) or a media job, shared as one flight; and what
 * its answer teaches the caches once its version has settled.
 */
import type { LRUCache } from 'lru-cache';
import { seekHint, type FactsCache } from './cache/file-facts.js';
import type { MediaLane } from './media-lane.js';
import { kindByName } from './media/kind.js';
import type { ResolvedOptions } from './options.js';
import type { MissingRead } from './pending-read.js';
import type { ReadLedger } from './read-ledger.js';
import type { ParsedRequest } from './request.js';
import type { AheadPages } from './read-ahead.js';
import type { ReadResult } from './result.js';
import { isSettled } from './result-keys.js';
import { resultBytes, resultOf } from './result-of.js';
import { UNSIZED, type CancelHook, type Scheduler } from './scheduler.js';
import type { Flight, Outcome, SingleFlight } from './single-flight.js';
import type { JobSpec, SeekHint } from './wire.js';

/** What a seek-hinted read is charged against `maxQueuedBytes`: about a page, not the file. */
const SEEK_COST_BYTES = 4 * 1024 * 1024;

/** Large files with a line index, by path: a read of one is statted, to seek by its version's index. */
const INDEXED_PATHS = 4096;

/**
 * A result larger than this (by `resultBytes`: a text window of more than about 128 K
 * characters) enters the result cache on its second miss, not its first: most such windows are
 * pages of a large file, read once as an agent pages on. A cached result outlives young
 * collections, which copy it (a 2000-line page of the 200 MB log is about 216 KB): paging that
 * log took 2.0 to 2.1 ms a page with each page cached, 1.5 to 1.6 with none (300 pages in a
 * loop). A window read again, by any session, is cached then.
 */
const LARGE_RESULT_BYTES = 256 * 1024;
/** Keys of large results seen once (see `LARGE_RESULT_BYTES`); past this it starts over. */
const LARGE_SEEN = 1024;

const never = (): boolean => false;

export interface WorkParts {
  readonly options: ResolvedOptions;
  readonly scheduler: Scheduler;
  readonly media: MediaLane;
  readonly ledger: ReadLedger;
  readonly flights: SingleFlight;
  readonly facts: FactsCache;
  readonly ahead: AheadPages;
  readonly results: LRUCache<string, ReadResult> | null;
}

export class ReadWork {
  readonly #p: WorkParts;
  /** Paths whose facts hold a line index (see `INDEXED_PATHS`). */
  readonly #indexed = new Set<string>();
  /** Keys of large results missed once, not cached (see `LARGE_RESULT_BYTES`). */
  readonly #largeSeen = new Set<string>();

  constructor(parts: WorkParts) {
    this.#p = parts;
  }

  /**
   * The outcome for a path that is not a plain regular file (missing, a FIFO, a directory): a
   * worker gives the verdict, or the media pool for a media name. Not shared, never cached.
   */
  async unstatted(req: ParsedRequest, absolute: string, deadline: number, signal: AbortSignal | undefined): Promise<Outcome> {
    const { scheduler, media } = this.#p;
    const remainingMs = Math.max(1, deadline - Date.now());
    const kind = req.media ? kindByName(absolute) : null;
    if (kind !== null) return media.run(req, absolute, kind, deadline, remainingMs, signal);
    const first = await scheduler.submit(jobOf(req, absolute, null, deadline), remainingMs, signal, req.session ?? '');
    return media.rerouted(first, req, absolute, deadline, remainingMs, signal);
  }

  /** True when the path's facts hold a line index: a read of it is worth a stat, to seek. */
  indexed(absolute: string): boolean {
    return this.#indexed.has(absolute);
  }

  /** Starts the flight `flightKey` for `read`; it settles itself when the work answers. */
  launch(flightKey: string, read: MissingRead): Flight {
    const { options, scheduler, media, flights, facts, ledger } = this.#p;
    const { req, absolute, version, size } = read;
    const known = version === null || req.sha256 ? undefined : facts.get(version);
    const seek = known === undefined || version === null ? null : seekHint(version, known, req.offset);
    // A page read ahead counts when its reader takes it (as a result hit), not here.
    if (seek !== null && read.ahead !== true) ledger.lineIndexHits++;
    const deadline = Date.now() + options.timeoutMs;
    const cost = size === UNSIZED || seek === null ? size : Math.min(size, SEEK_COST_BYTES);
    const kind = req.media ? kindByName(absolute) : null;
    const flight = flights.open(flightKey);
    const land = (outcome: Outcome) => {
      this.#landed(flight, outcome, read);
      flights.settle(flight, outcome);
    };
    if (kind === null) {
      // No timer and no AbortController of its own (both cost on every read): each waiter has
      // its own deadline, and the last to leave cancels the work through the hook.
      // Every field from the start: a shape made by adding fields is lost at an idle full GC (see `RecentShapes`).
      const hook: CancelHook = { cancel: undefined, sent: undefined };
      let rerouteStop: AbortController | null = null;
      const cancel = () => {
        hook.cancel?.();
        rerouteStop?.abort();
      };
      flight.cancel = cancel;
      if (version === null) {
        const joinable = () => hook.sent?.() === false;
        flight.joinable = joinable;
      }
      scheduler.enqueue(jobOf(req, absolute, seek, deadline), Infinity, undefined, req.session ?? '', cost, hook, (outcome) => {
        if (outcome.ok || outcome.code !== 'binary_file') return land(outcome);
        rerouteStop = new AbortController();
        void Promise.resolve(media.rerouted(outcome, req, absolute, deadline, Math.max(1, deadline - Date.now()), rerouteStop.signal)).then(land);
      });
    } else {
      const controller = new AbortController();
      const cancel = () => controller.abort();
      flight.cancel = cancel;
      flight.joinable = never;
      void media.run(req, absolute, kind, deadline, options.timeoutMs, controller.signal).then(land);
    }
    return flight;
  }

  /** A flight's work answered: the result is built once, then cached when its version has settled. */
  #landed(flight: Flight, outcome: Outcome, read: MissingRead): void {
    if (!outcome.ok) return;
    const { options, facts, results } = this.#p;
    const payload = outcome.value;
    flight.result ??= resultOf(payload, read.req, options);
    // A version that may still be changing within one timestamp tick is not trusted later.
    if (!isSettled(payload.version, read.startedAt, options.settleMs)) return;
    if (payload.kind === 'text') {
      facts.learn(payload, read.place);
      if (payload.index !== null) {
        if (this.#indexed.size >= INDEXED_PATHS) this.#indexed.clear();
        this.#indexed.add(read.absolute);
      }
    }
    // No one asked for it yet: it waits for its first reader, unless one joined its flight
    // already, which makes it a miss like any other.
    if (read.ahead === true && flight.waiting === 0) return this.#p.ahead.put(read.key, flight.result);
    if (results === null || !this.#admits(read.key, flight.result)) return;
    // Keyed by path and shape: the entry holds the version the worker read, which a hit must match.
    results.set(read.key, flight.result);
  }

  /**
   * A page read ahead, taken by its first reader: cached as a miss's result would be, so that
   * other sessions paging the same file share it rather than each reading it again.
   */
  taken(key: string, page: ReadResult): ReadResult {
    if (this.#p.results !== null && this.#admits(key, page)) this.#p.results.set(key, page);
    return page;
  }

  /** A small result always; a large one when its key missed before (see `LARGE_RESULT_BYTES`). */
  #admits(key: string, result: ReadResult): boolean {
    if (resultBytes(result) <= LARGE_RESULT_BYTES || this.#largeSeen.delete(key)) return true;
    if (this.#largeSeen.size >= LARGE_SEEN) this.#largeSeen.clear();
    this.#largeSeen.add(key);
    return false;
  }
}

/**
 * The job keeps the request's own offset (negative for a tail): a seek hint carries the line it
 * resolves to for its version, and the worker uses it only when the file still has that version.
 */
export function jobOf(request: ParsedRequest, absolute: string, seek: SeekHint | null, deadline: number): JobSpec {
  return {
    path: absolute,
    offset: request.offset,
    limit: request.limit,
    column: request.column,
    maxBytes: request.maxBytes,
    maxTokens: request.maxTokens,
    allowBinary: request.allowBinary,
    media: request.media,
    sha256: request.sha256,
    deadline,
    render: request.render,
    hint: seek,
  };
}
