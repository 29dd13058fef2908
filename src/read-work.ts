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
import { UNSIZED, type Scheduler } from './scheduler.js';
import type { Flight, FlightWork, Outcome, SingleFlight } from './single-flight.js';
import type { Ticket } from './ticket.js';
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
  /**
   * Whether any path was ever indexed: until one is, a read asks no set (most engines never read
   * a file large enough, and a lookup in a table no read has touched lately is a cache miss).
   */
  #anyIndexed = false;
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
    return this.#anyIndexed && this.#indexed.has(absolute);
  }

  /** Starts the flight `flightKey` for `read`; it settles itself when the work answers. */
  launch(flightKey: string, read: MissingRead): Flight {
    const { options, scheduler, media, flights, facts, ledger } = this.#p;
    const { req, absolute, version, size } = read;
    // Line indexes are of UTF-8 files, read as UTF-8: not for a request that names another encoding.
    const decodedAsIndexed = req.encoding === 'auto' || req.encoding === 'utf-8';
    const known = version === null || req.sha256 || !decodedAsIndexed ? undefined : facts.get(version);
    const seek = known === undefined || version === null ? null : seekHint(version, known, req.offset);
    // A page read ahead counts when its reader takes it (as a result hit), not here.
    if (seek !== null && read.ahead !== true) ledger.lineIndexHits++;
    const deadline = Date.now() + options.timeoutMs;
    const cost = size === UNSIZED || seek === null ? size : Math.min(size, SEEK_COST_BYTES);
    const kind = req.media ? kindByName(absolute) : null;
    const flight = flights.open(flightKey);
    if (kind === null) {
      // No timer and no AbortController of its own (both cost on every read): each waiter has
      // its own deadline, and the last to leave cancels the work through its ticket.
      const work = new TextWork(this, flight, read, deadline);
      flight.work = work;
      work.ticket = scheduler.enqueue(jobOf(req, absolute, seek, deadline), Infinity, undefined, req.session ?? '', cost, (outcome) => work.answered(outcome));
    } else {
      const work = new MediaWork();
      flight.work = work;
      void media.run(req, absolute, kind, deadline, options.timeoutMs, work.stop.signal).then((outcome) => this.land(flight, outcome, read));
    }
    return flight;
  }

  /** A flight's work answered: what it teaches the caches, then its waiters. */
  land(flight: Flight, outcome: Outcome, read: MissingRead): void {
    this.#landed(flight, outcome, read);
    this.#p.flights.settle(flight, outcome);
  }

  /** Bytes that turned out to be media (`binary_file` from a text job): the media pool reads them. */
  reroute(work: TextWork, outcome: Extract<Outcome, { ok: false }>): void {
    const { req, absolute } = work.read;
    const stop = (work.rerouteStop = new AbortController());
    const { deadline } = work;
    void Promise.resolve(this.#p.media.rerouted(outcome, req, absolute, deadline, Math.max(1, deadline - Date.now()), stop.signal)).then((answer) => this.land(work.flight, answer, work.read));
  }

  /** Stops a text job that no one waits for any more. */
  cancel(ticket: Ticket): void {
    this.#p.scheduler.cancel(ticket);
  }

  /** A flight's work answered: the result is built once, then cached when its version has settled. */
  #landed(flight: Flight, outcome: Outcome, read: MissingRead): void {
    if (!outcome.ok) return;
    const { options, facts, results } = this.#p;
    const payload = outcome.value;
    flight.result ??= resultOf(payload, read.req, options);
    // A version that may still be changing within one timestamp tick is not trusted later.
    if (!settledFor(read, payload.version, options.settleMs)) return;
    if (payload.kind === 'text') {
      facts.learn(payload, read.place);
      if (payload.index !== null) {
        if (this.#indexed.size >= INDEXED_PATHS) this.#indexed.clear();
        this.#indexed.add(read.absolute);
        this.#anyIndexed = true;
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
    encoding: request.encoding,
    deadline,
    render: request.render,
    hint: seek,
  };
}

/**
 * Whether `version` had settled when `read` started (`isSettled`), remembered on the read's
 * `Place`: a version found settled for a read that started at some moment is settled for any read
 * that started later, so such a read parses no ctime out of the version string again. Reads of
 * one path can land out of the order they started (a long read beside short ones), hence the
 * earliest start the version was found settled for, not the last.
 */
export function settledFor(read: Pick<MissingRead, 'place' | 'startedAt'>, version: string, settleMs: number): boolean {
  const place = read.place;
  if (place !== null && place.settledVersion === version && read.startedAt >= place.settledSince) return true;
  if (!isSettled(version, read.startedAt, settleMs)) return false;
  if (place !== null) {
    if (place.settledVersion === version) place.settledSince = Math.min(place.settledSince, read.startedAt);
    else {
      place.settledVersion = version;
      place.settledSince = read.startedAt;
    }
  }
  return true;
}

/**
 * A flight's text job: one object a miss, where closures for its answer, its cancel and its
 * joinable test (and the contexts they hold) had cost the host about half a kilobyte a read.
 */
class TextWork implements FlightWork {
  /** The job's ticket in the scheduler; null once answered at once (closed, overloaded). */
  ticket: Ticket | null = null;
  /** Stops the media pool's read when the bytes turned out to be media. */
  rerouteStop: AbortController | null = null;
  readonly #owner: ReadWork;
  readonly flight: Flight;
  readonly read: MissingRead;
  readonly deadline: number;

  constructor(owner: ReadWork, flight: Flight, read: MissingRead, deadline: number) {
    this.#owner = owner;
    this.flight = flight;
    this.read = read;
    this.deadline = deadline;
  }

  answered(outcome: Outcome): void {
    if (outcome.ok || outcome.code !== 'binary_file') this.#owner.land(this.flight, outcome, this.read);
    else this.#owner.reroute(this, outcome);
  }

  cancel(): void {
    if (this.ticket !== null) this.#owner.cancel(this.ticket);
    this.rerouteStop?.abort();
  }

  /** A caller that statted the file may join any time; one that did not, only before the job is sent. */
  joinable(): boolean {
    return this.read.version !== null || this.ticket?.state === 'queued';
  }
}

/** A flight's media job: cancelled through its own signal, and never joined unstatted. */
class MediaWork implements FlightWork {
  readonly stop = new AbortController();

  cancel(): void {
    this.stop.abort();
  }

  joinable(): boolean {
    return false;
  }
}
