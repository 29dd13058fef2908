import type fs from 'node:fs';
import { LRUCache } from 'lru-cache';
import { FactsCache, seekHint } from './cache/file-facts.js';
import { SessionLedger, type ReadMark } from './cache/sessions.js';
import { describeChange, describeError, describeStub, RENDER } from './dialects/readpool.js';
import { ReadError, type ErrorDetails, type ReadErrorCode } from './errors.js';
import { resolveOptions, type EngineOptions, type ResolvedOptions } from './options.js';
import { parseRequest, type ParsedRequest, type ReadRequest } from './request.js';
import { MediaPool } from './media-pool.js';
import { kindByName, type MediaKind } from './media/kind.js';
import type { MediaJob, MediaPayload } from './media/wire.js';
import type { ReadResult, UnchangedResult } from './result.js';
import { markOf, mediaResult, resultBytes, textResult } from './result-of.js';
import { canonicalPlace, statFile } from './io/probe.js';
import type { RenderSpec } from './core/line-format.js';
import { findRoot } from './core/containment.js';
import { Sandbox } from './sandbox.js';
import { TurnGate, type GateEntry } from './turn-gate.js';
import { Scheduler, type CancelHook, type SchedulerStats } from './scheduler.js';
import { createTextPool, type TextPool } from './text-pool.js';
import type { FilePayload, JobOutcome, JobSpec, SeekHint } from './wire.js';

/** Pool tasks in flight: two per thread, so a worker's next batch is already waiting for it. */
function inFlightBatches(threads: number): number {
  return threads * 2;
}

/**
 * How long a batch may outlive all its reads (answered by abort or timeout) before its worker
 * is taken for stuck in a system call and the workers are recycled. Healthy workers stop at
 * the next chunk they poll, within milliseconds; a large base64 read polls only at its end.
 */
const STUCK_GRACE_MS = 2000;

/** How long `close()` waits for reads already in workers. */
const CLOSE_GRACE_MS = 5000;

/** Memory for line indexes and hashes of file versions (small: 16 bytes an index entry). */
const FACTS_BYTES = 32 * 1024 * 1024;

/** What a seek-hinted read is charged against `maxQueuedBytes`: about a page, not the file. */
const SEEK_COST_BYTES = 4 * 1024 * 1024;

/**
 * Reads started in one turn of the event loop; more wait for the next turn (see `TurnGate`).
 * About 2 ms of main-thread work at the cached-read rate. Measured: 256 doubled the swarm's
 * event-loop delay p99 and gained no throughput.
 */
const READS_PER_TURN = 128;

/** Cache layers, as counted by `stats().cache`. */
interface CacheCounters {
  resultHits: number;
  resultMisses: number;
  stubHits: number;
  singleFlightJoins: number;
  lineIndexHits: number;
  hashHits: number;
}

/** What a read's work answers: a text pool job's outcome or a media pool task's. */
type Outcome = { readonly ok: true; readonly value: FilePayload | MediaPayload } | Extract<JobOutcome, { ok: false }>;

/** Media tasks a media worker runs before it is replaced (mupdf's WASM heap never shrinks). */
const MEDIA_RECYCLE_TASKS = 200;
/** An idle media pool stops its worker after this long. */
const MEDIA_IDLE_MS = 30_000;
/** Notebooks are parsed whole as JSON; larger ones are refused before parsing. */
const MAX_NOTEBOOK_BYTES = 20 * 1024 * 1024;

/** Identical work in flight, shared by every caller that asks for it while it runs. */
interface Flight {
  readonly promise: Promise<Outcome>;
  /** Stops the shared work: called when its last waiter has left. */
  readonly cancel: () => void;
  waiters: number;
  /** The result built once from the outcome, shared by all waiters. */
  result: ReadResult | null;
}
export interface CallOptions {
  /** Cancels the read: a queued read is dropped, a running one stops at its next chunk. */
  readonly signal?: AbortSignal;
}

/** One entry of `readMany`'s answer, in request order. */
export type ReadSettled =
  | { readonly ok: true; readonly request: ReadRequest; readonly result: ReadResult }
  | { readonly ok: false; readonly request: ReadRequest; readonly error: ReadError };

/** What `lastRead` reports: when a session read a file, which version and content, which lines. */
export type LastRead = Readonly<ReadMark>;

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
  readonly sessions: { readonly sessions: number; readonly entries: number };
}

export interface EngineStats extends SchedulerStats {
  /** Of `queued`, the reads not started yet: held at the gate until their session has room. */
  readonly notStarted: number;
  /** The media pool: started by the first media read; replaced after large renders. */
  readonly media: { readonly started: boolean; readonly recycles: number };
  readonly threads: number;
  readonly roots: readonly string[];
  readonly answered: number;
  readonly cache: CacheStats;
  /** Errors answered so far, by code. */
  readonly errors: Readonly<Partial<Record<ReadErrorCode, number>>>;
  readonly closed: boolean;
}

/**
 * A sandboxed read engine over a worker pool. Create it with {@link createEngine}.
 */
export class Engine {
  readonly #options: ResolvedOptions;
  readonly #sandbox: Sandbox;
  readonly #pool: TextPool;
  readonly #media: MediaPool;
  readonly #scheduler: Scheduler;
  readonly #errors: Partial<Record<ReadErrorCode, number>> = {};
  readonly #results: LRUCache<string, ReadResult> | null;
  readonly #facts = new FactsCache(FACTS_BYTES);
  readonly #flights = new Map<string, Flight>();
  readonly #sessions: SessionLedger;
  readonly #counters: CacheCounters = {
    resultHits: 0,
    resultMisses: 0,
    stubHits: 0,
    singleFlightJoins: 0,
    lineIndexHits: 0,
    hashHits: 0,
  };
  #answered = 0;
  #closing: Promise<void> | null = null;
  readonly #gate: TurnGate;

  /** @internal use {@link createEngine} */
  constructor(options: ResolvedOptions, sandbox: Sandbox, pool: TextPool, media: MediaPool, cancel: Int32Array) {
    this.#options = options;
    this.#sandbox = sandbox;
    this.#pool = pool;
    this.#media = media;
    this.#results =
      options.cacheBytes === 0
        ? null
        : new LRUCache<string, ReadResult>({ maxSize: options.cacheBytes, sizeCalculation: resultBytes });
    this.#sessions = new SessionLedger({ maxSessions: options.maxSessions, maxEntries: options.maxSessionEntries });
    this.#scheduler = new Scheduler({
      maxQueued: options.maxQueued,
      maxQueuedBytes: options.maxQueuedBytes,
      batchSize: options.batchSize,
      maxInFlight: inFlightBatches(options.threads),
      run: (batch) => pool.run(batch),
      recycle: () => pool.recycle(),
      stuckGraceMs: STUCK_GRACE_MS,
      cancel,
      onRoom: () => this.#gate.pump(),
    });
    // A session's reads start while it has less than a round of full batches queued: enough to
    // keep every worker busy on its own, and no more.
    const highWater = inFlightBatches(options.threads) * options.batchSize;
    this.#gate = new TurnGate(READS_PER_TURN, (session) => this.#scheduler.queuedIn(session) < highWater);
  }

  /**
   * Reads one file. Resolves with a result discriminated on `kind`, or rejects with a
   * {@link ReadError} whose message tells a model what to do next.
   *
   * @example
   * const page = await engine.read({ path: 'logs/app.log', offset: 2001, limit: 2000 });
   * if (page.kind === 'text' && page.truncated) console.log(page.truncated.nextOffset);
   */
  async read(request: ReadRequest, call: CallOptions = {}): Promise<ReadResult> {
    try {
      const result = await this.#read(request, call.signal);
      // Narrower roots are checked on the canonical place read too: a link inside the engine's
      // roots may lead out of the caller's.
      if (request.within !== undefined && findRoot(request.within, result.path) === null) {
        throw fail('outside_root', { roots: request.within, throughLink: true }, subjectOf(request));
      }
      this.#answered++;
      return result;
    } catch (error) {
      const readError =
        error instanceof ReadError ? error : new ReadError('internal', describeError('internal', { message: String(error) }, subjectOf(request)));
      this.#answered++;
      this.#errors[readError.code] = (this.#errors[readError.code] ?? 0) + 1;
      throw readError;
    }
  }

  /** Reads many files at once; never rejects: each entry holds its own result or error. */
  async readMany(requests: readonly ReadRequest[], call: CallOptions = {}): Promise<ReadSettled[]> {
    return Promise.all(
      requests.map((request) =>
        this.read(request, call).then(
          (result): ReadSettled => ({ ok: true, request, result }),
          (error: unknown): ReadSettled => ({ ok: false, request, error: error as ReadError }),
        ),
      ),
    );
  }

  /**
   * Forgets what a session has read, so its next reads return content, never an `unchanged`
   * stub. Call it when the session's context was compacted or reset. True if it held anything.
   */
  forgetSession(session: string): boolean {
    return this.#sessions.forget(session);
  }

  /**
   * The session's last read of `path` (as the session would pass it to `read`): when, which
   * version and content hash, which lines. Null when it holds none. For a host's edit tool.
   */
  lastRead(session: string, path: string): LastRead | null {
    const located = this.#sandbox.locate(path);
    if (!located.ok) return null;
    return this.#sessions.last(session, located.absolute) ?? null;
  }

  /**
   * Has `path` changed since `session` last read it? By version first (no read at all), then by
   * content hash, so a touch or an identical rewrite is not a change. With `sha256`, compares the
   * file's current sha256 to that instead (the digest of the content a model saw). A host's edit
   * tool refuses a stale write with `message`, which says what changed and what to do.
   */
  async checkUnchanged(session: string, path: string, expect: { readonly sha256?: string } = {}): Promise<UnchangedCheck> {
    const located = this.#sandbox.locate(path);
    const mark = located.ok ? (this.#sessions.last(session, located.absolute) ?? null) : null;
    const stat = located.ok ? statFile(located.absolute) : null;
    const version = stat === null ? null : versionKey(stat);
    const answer = (unchanged: boolean, reason: UnchangedCheck['reason']): UnchangedCheck => ({
      unchanged,
      reason,
      message: unchanged ? null : describeChange(reason, path, mark, stat === null ? null : Number(stat.size)),
      lastRead: mark,
    });
    if (expect.sha256 === undefined && mark === null) return answer(false, 'not_read');
    if (stat === null || version === null) return answer(false, mark === null && expect.sha256 === undefined ? 'not_read' : 'deleted');
    if (expect.sha256 === undefined && mark?.settled === true && mark.version === version) return answer(true, 'same_version');
    const wanted = expect.sha256 ?? mark?.sha256 ?? null;
    const known = this.#facts.get(version);
    let current = wanted !== null ? known?.sha256 : known?.xxh64;
    if (current !== undefined && current !== null) this.#counters.hashHits++;
    else {
      try {
        const result = await this.#read({ path, limit: 1, allowBinary: true, ...(wanted !== null ? { hash: 'sha256' as const } : {}) }, undefined);
        current = result.kind === 'unchanged' ? null : wanted !== null ? result.sha256 : result.xxh64;
      } catch (error) {
        if (error instanceof ReadError && error.code === 'not_found') return answer(false, 'deleted');
        // Anything else (now denied, outside the root, too large, unreadable): not what was read.
        if (error instanceof ReadError && error.code !== 'internal' && error.code !== 'closed') return answer(false, 'modified');
        throw error;
      }
    }
    const same = current !== null && current === (wanted ?? mark?.xxh64);
    return answer(same, same ? 'same_content' : 'modified');
  }

  /** The canonical roots reads are confined to; relative paths resolve against the first. */
  get roots(): readonly string[] {
    return this.#sandbox.roots;
  }

  stats(): EngineStats {
    const c = this.#counters;
    const pool = this.#scheduler.stats();
    // A session's reads wait in two places: not started (at the gate) and in the pool's queue.
    const depths = this.#gate.depths();
    for (const lane of pool.deepestLanes) depths.set(lane.session, (depths.get(lane.session) ?? 0) + lane.queued);
    const deepestLanes = [...depths]
      .map(([session, queued]) => ({ session, queued }))
      .sort((a, b) => b.queued - a.queued)
      .slice(0, 5);
    return {
      ...pool,
      queued: pool.queued + this.#gate.waiting,
      notStarted: this.#gate.waiting,
      media: { started: this.#media.started, recycles: this.#media.recycles },
      lanes: Math.max(pool.lanes, depths.size),
      deepestLanes,
      threads: this.#pool.threads,
      roots: this.#sandbox.roots,
      answered: this.#answered,
      cache: {
        result: {
          hits: c.resultHits,
          misses: c.resultMisses,
          entries: this.#results?.size ?? 0,
          bytes: this.#results?.calculatedSize ?? 0,
        },
        stub: { hits: c.stubHits },
        singleFlight: { joins: c.singleFlightJoins, inFlight: this.#flights.size },
        lineIndex: { hits: c.lineIndexHits, versions: this.#facts.size, bytes: this.#facts.bytes },
        hash: { hits: c.hashHits },
        sessions: this.#sessions.stats(),
      },
      errors: { ...this.#errors },
      closed: this.#closing !== null,
    };
  }

  /**
   * Answers queued reads with `closed`, lets running ones finish (for up to 5 seconds; any
   * still running then are answered with `closed`), then stops the workers.
   */
  close(): Promise<void> {
    if (this.#closing === null) this.#gate.flush();
    this.#closing ??= this.#scheduler
      .close(CLOSE_GRACE_MS)
      .then(() => Promise.all([destroyWithin(this.#pool, CLOSE_GRACE_MS), destroyWithin(this.#media, CLOSE_GRACE_MS)]))
      .then(() => undefined);
    return this.#closing;
  }

  async #read(request: ReadRequest, signal: unknown): Promise<ReadResult> {
    const subject = subjectOf(request);
    if (this.#closing !== null) throw fail('closed', {}, subject);
    if (signal !== undefined && !isAbortSignal(signal)) {
      throw fail('invalid_request', { issues: ['signal: must be an AbortSignal'] }, subject);
    }
    if (signal?.aborted === true) throw fail('aborted', { stage: 'queued' }, subject);
    const parsed = parseRequest(request, this.#options);
    if (!parsed.ok) throw fail('invalid_request', { issues: parsed.issues }, subject);
    const req = parsed.request;
    const located = this.#sandbox.locate(req.path);
    if (!located.ok) throw fail(located.code, located.details, subject);
    const absolute = located.absolute;
    if (req.within !== null && findRoot(req.within, absolute) === null) throw fail('outside_root', { roots: req.within }, subject);
    // Reads held at the gate and media reads count as queued: `maxQueued` bounds them all.
    const waiting = this.#gate.waiting + this.#scheduler.queued + this.#media.pending;
    if (waiting >= this.#options.maxQueued) {
      throw fail('overloaded', { queued: waiting, retryAfterMs: this.#scheduler.retryAfterMs(waiting) }, subject);
    }
    const deadline = Date.now() + req.timeoutMs;
    const entry = this.#gate.enter(req.session ?? '', deadline);
    if (entry !== null) {
      await waitAtGate(entry, signal, req.timeoutMs, subject);
      // The signal may have fired between admission and this continuation.
      if (isAborted(signal)) throw fail('aborted', { stage: 'queued' }, subject);
    }
    if (this.#closing !== null) throw fail('closed', {}, subject);
    const startedAt = Date.now();
    const remainingMs = Math.max(1, deadline - startedAt);
    // One stat on this thread gives the version every cache is keyed by. Anything that is not a
    // plain regular file (missing, a link loop, a FIFO) goes to a worker, which owns the
    // sandbox's verdicts; a cache entry only ever comes from a read that passed them.
    const stat = statFile(absolute);
    const media = req.media ? kindByName(absolute) : null;
    if (stat === null) {
      if (media !== null) return this.#settled(await this.#runMedia(this.#mediaJob(req, absolute, media, deadline), remainingMs, signal), req, subject);
      const job = this.#job(req, absolute, null, deadline);
      const outcome = await this.#scheduler.submit(job, remainingMs, signal, req.session ?? '');
      return this.#settled(await this.#rerouted(outcome, req, absolute, deadline, remainingMs, signal), req, subject);
    }
    const version = versionKey(stat);
    const range = rangeOf(req);
    const session = req.session;
    // Before anything cached answers, the path must still lead to the place it was read at: a
    // mark or an entry for a place the path no longer leads to (a directory moved out of the
    // root and linked back) is void. Asked at most once, and only when a cache could answer.
    let place: string | null | undefined;
    const stillAt = (canonical: string) => (place === undefined ? (place = canonicalPlace(absolute)) : place) === canonical;
    const held = session === null || req.fresh ? undefined : this.#sessions.range(session, absolute, range);
    if (held !== undefined) {
      if (held.settled && held.version === version && stillAt(held.path)) return this.#stub(held, 'same_version');
      // Facts are only kept for settled versions: a match means the same bytes.
      const known = this.#facts.get(version);
      if (known !== undefined && known.xxh64 === held.xxh64 && stillAt(held.path)) {
        this.#counters.hashHits++;
        held.version = version;
        held.settled = true;
        return this.#stub(held, 'same_content');
      }
    }
    const key = `${absolute}|${version}|${shapeOf(req)}`;
    let result = this.#results?.get(key);
    if (result !== undefined && stillAt(result.path)) this.#counters.resultHits++;
    else result = await this.#shared(key, req, absolute, version, Number(stat.size), signal, subject, startedAt, remainingMs);
    if (session === null || result.kind === 'unchanged') return result;
    const settled = this.#isSettled(result.version, startedAt);
    if (held !== undefined && held.path === result.path && result.xxh64 !== null && result.xxh64 === held.xxh64) {
      held.version = result.version;
      held.settled = settled;
      return this.#stub(held, 'same_content');
    }
    this.#sessions.record(session, absolute, range, markOf(result, settled));
    return result;
  }

  /**
   * A text job that found media under a name that does not say so (`binary_file` with
   * `details.media`) is run again in the media pool, as the kind its bytes announce.
   */
  async #rerouted(outcome: Outcome, req: ParsedRequest, absolute: string, deadline: number, timeoutMs: number, signal: AbortSignal | undefined): Promise<Outcome> {
    if (!req.media || outcome.ok || outcome.code !== 'binary_file' || typeof outcome.details.media !== 'string') return outcome;
    const kind: MediaKind = outcome.details.media === 'pdf' ? 'pdf' : 'image';
    return this.#runMedia(this.#mediaJob(req, absolute, kind, deadline), timeoutMs, signal);
  }

  /** Answers from a read's outcome, or throws its error. */
  #settled(outcome: Outcome, req: ParsedRequest, subject: string): ReadResult {
    if (!outcome.ok) {
      // A worker that meets the deadline first knows the time, not the budget: add it.
      const details = outcome.code === 'timeout' ? { ...outcome.details, timeoutMs: req.timeoutMs } : outcome.details;
      throw fail(outcome.code, details, subject);
    }
    return this.#result(outcome.value, req);
  }

  /**
   * The result for `key`, read once however many callers ask for it at the same time. Each
   * caller keeps its own deadline and signal; the work is cancelled only when all have left.
   */
  async #shared(
    key: string,
    req: ParsedRequest,
    absolute: string,
    version: string,
    size: number,
    signal: AbortSignal | undefined,
    subject: string,
    startedAt: number,
    remainingMs: number,
  ): Promise<ReadResult> {
    let flight = this.#flights.get(key);
    if (flight !== undefined) this.#counters.singleFlightJoins++;
    else {
      this.#counters.resultMisses++;
      flight = this.#start(key, req, absolute, version, size, startedAt);
    }
    const outcome = await this.#join(flight, key, remainingMs, req.timeoutMs, signal);
    if (!outcome.ok) return this.#settled(outcome, req, subject);
    flight.result ??= this.#result(outcome.value, req);
    return flight.result;
  }

  #start(key: string, req: ParsedRequest, absolute: string, version: string, size: number, startedAt: number): Flight {
    const known = req.sha256 ? undefined : this.#facts.get(version);
    const seek = known === undefined ? null : seekHint(version, known, req.offset);
    if (seek !== null) this.#counters.lineIndexHits++;
    const deadline = Date.now() + this.#options.timeoutMs;
    const cost = seek === null ? size : Math.min(size, SEEK_COST_BYTES);
    const media = req.media ? kindByName(absolute) : null;
    let promise: Promise<Outcome>;
    let cancel: () => void;
    if (media === null) {
      // No timer and no AbortController of its own (both cost on every read): each waiter has
      // its own deadline, and the last to leave cancels the work through the hook.
      const hook: CancelHook = {};
      let rerouteStop: AbortController | null = null;
      promise = this.#scheduler.submit(this.#job(req, absolute, seek, deadline), Infinity, undefined, req.session ?? '', cost, hook).then((outcome) => {
        if (outcome.ok || outcome.code !== 'binary_file') return outcome;
        rerouteStop = new AbortController();
        return this.#rerouted(outcome, req, absolute, deadline, Math.max(1, deadline - Date.now()), rerouteStop.signal);
      });
      cancel = () => {
        hook.cancel?.();
        rerouteStop?.abort();
      };
    } else {
      const controller = new AbortController();
      promise = this.#runMedia(this.#mediaJob(req, absolute, media, deadline), this.#options.timeoutMs, controller.signal);
      cancel = () => controller.abort();
    }
    const flight: Flight = { promise, cancel, waiters: 0, result: null };
    this.#flights.set(key, flight);
    void promise.then((outcome) => {
      if (this.#flights.get(key) === flight) this.#flights.delete(key);
      if (!outcome.ok) return;
      const payload = outcome.value;
      flight.result ??= this.#result(payload, req);
      // A version that may still be changing within one timestamp tick is not trusted later.
      if (!this.#isSettled(payload.version, startedAt)) return;
      if (payload.kind === 'text') this.#facts.learn(payload);
      // Keyed by the version the worker read, which may be newer than the one stat saw.
      this.#results?.set(`${absolute}|${payload.version}|${shapeOf(req)}`, flight.result);
    });
    return flight;
  }

  /**
   * True when the version's ctime is at least `settleMs` older than the read's start: any later
   * write then gets a later ctime, so an equal version means equal content. (Git's "racily
   * clean" problem: two writes within one coarse timestamp tick can leave equal versions.)
   */
  #isSettled(version: string, startedAt: number): boolean {
    if (this.#options.settleMs === 0) return true;
    const ctimeNs = version.slice(version.lastIndexOf(':') + 1);
    return Number(ctimeNs) / 1e6 <= startedAt - this.#options.settleMs;
  }

  /**
   * Runs one media read in the media pool, answering `aborted` or `timeout` when the signal or
   * the deadline comes first (the pool then stops that worker), and `internal` when the worker
   * died (out of memory): only this read fails, and the pool starts a fresh worker for the next.
   */
  async #runMedia(job: MediaJob, timeoutMs: number, signal: AbortSignal | undefined): Promise<Outcome> {
    const controller = new AbortController();
    let stop: 'aborted' | 'timeout' | null = null;
    const timer = setTimeout(() => {
      stop = 'timeout';
      controller.abort();
    }, timeoutMs);
    const onAbort = () => {
      stop = 'aborted';
      controller.abort();
    };
    if (signal?.aborted === true) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.#media.run(job, controller.signal);
    } catch (error) {
      if (stop === 'timeout') return { ok: false, code: 'timeout', details: { timeoutMs, stage: 'running' } };
      if (stop === 'aborted') return { ok: false, code: 'aborted', details: { stage: 'running' } };
      return { ok: false, code: 'internal', details: { message: error instanceof Error ? error.message : String(error) } };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  #mediaJob(req: ParsedRequest, absolute: string, kind: MediaKind, deadline: number): MediaJob {
    return {
      path: absolute,
      kind,
      pages: req.pages,
      images: req.images,
      pdf: req.pdf,
      limits: { offset: Math.max(1, req.offset), limit: req.limit, maxBytes: req.maxBytes, maxTokens: req.maxTokens, maxLineChars: this.#options.maxLineChars },
      render: req.render,
      deadline,
    };
  }

  /** Waits for a flight with this caller's own deadline (`remainingMs` of `timeoutMs`) and signal. */
  #join(flight: Flight, key: string, remainingMs: number, timeoutMs: number, signal: AbortSignal | undefined): Promise<Outcome> {
    if (signal?.aborted === true) return Promise.resolve({ ok: false, code: 'aborted', details: { stage: 'queued' } });
    flight.waiters++;
    return new Promise<Outcome>((resolve) => {
      let done = false;
      const finish = (outcome: Outcome) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      const leave = (outcome: Outcome) => {
        if (done) return;
        finish(outcome);
        if (--flight.waiters === 0) {
          if (this.#flights.get(key) === flight) this.#flights.delete(key);
          flight.cancel();
        }
      };
      const onAbort = () => leave({ ok: false, code: 'aborted', details: { stage: 'queued' } });
      const timer = setTimeout(() => leave({ ok: false, code: 'timeout', details: { timeoutMs, stage: 'running' } }), remainingMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      void flight.promise.then(finish);
    });
  }

  #stub(mark: ReadMark, reason: UnchangedResult['reason']): UnchangedResult {
    this.#counters.stubHits++;
    return {
      kind: 'unchanged',
      reason,
      path: mark.path,
      relativePath: mark.relativePath,
      stub: describeStub(mark),
      startLine: mark.startLine,
      endLine: mark.endLine,
      totalLines: mark.totalLines,
      version: mark.version,
      xxh64: mark.xxh64,
      readAt: mark.readAt,
    };
  }

  /**
   * The job keeps the request's own offset (negative for a tail): a seek hint carries the line it
   * resolves to for its version, and the worker uses it only when the file still has that version.
   */
  #job(request: ParsedRequest, absolute: string, seek: SeekHint | null, deadline: number): JobSpec {
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

  #result(payload: FilePayload | MediaPayload, request: ParsedRequest): ReadResult {
    if (payload.kind === 'binary') return Object.freeze(payload);
    if (payload.kind === 'text') return textResult(payload, request, this.#options);
    return Object.freeze(mediaResult(payload, request, this.#options));
  }
}

/** Waits for the gate to admit a read; answers `aborted` or `timeout` if that comes first. */
async function waitAtGate(entry: GateEntry, signal: AbortSignal | undefined, timeoutMs: number, subject: string): Promise<void> {
  const onAbort = () => entry.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await entry.admitted;
  } catch (why) {
    const code = why === 'timeout' ? 'timeout' : 'aborted';
    throw fail(code, code === 'timeout' ? { timeoutMs, stage: 'queued' } : { stage: 'queued' }, subject);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

function versionKey(stat: fs.BigIntStats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

/** The lines (and pages, and forms) a request asks for: what an unchanged-file stub stands for. */
function rangeOf(req: ParsedRequest): string {
  return `${req.offset}:${req.limit}:${req.column}:${renderKey(req.render)}:${req.pages ?? ''}:${req.images ? 1 : 0}${req.pdf ? 1 : 0}${req.media ? 1 : 0}`;
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

/** Everything that shapes a result besides the file: the result cache's key with the version. */
function shapeOf(req: ParsedRequest): string {
  return `${rangeOf(req)}:${req.maxBytes}:${req.maxTokens}:${req.allowBinary ? 1 : 0}${req.sha256 ? 1 : 0}`;
}

/**
 * Stops the workers, waiting at most `ms`: a thread stuck in a system call cannot be stopped
 * until the call returns, and must not hang the host's shutdown. Such a thread is left behind.
 */
async function destroyWithin(pool: { destroy(): Promise<void> }, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  await Promise.race([pool.destroy(), late]);
  clearTimeout(timer);
}

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/** An AbortSignal, also from another realm or a faithful polyfill (duck-typed, as Node does). */
function isAbortSignal(value: unknown): value is AbortSignal {
  if (value instanceof AbortSignal) return true;
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<'aborted' | 'addEventListener' | 'removeEventListener', unknown>>;
  return (
    typeof candidate.aborted === 'boolean' &&
    typeof candidate.addEventListener === 'function' &&
    typeof candidate.removeEventListener === 'function'
  );
}

function subjectOf(request: unknown): string {
  if (typeof request === 'object' && request !== null && 'path' in request && typeof request.path === 'string') {
    return request.path;
  }
  return '(no path)';
}

function fail(code: ReadErrorCode, details: ErrorDetails, subject: string): ReadError {
  return new ReadError(code, describeError(code, details, subject), details);
}

/**
 * Creates an engine confined to `options.root` (or `options.roots`) and starts its workers.
 * Throws a TypeError naming the option when an option is invalid.
 *
 * @example
 * const engine = await createEngine({ root: '/srv/workspace' });
 * const result = await engine.read({ path: 'src/app.ts' });
 * await engine.close();
 */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  const resolved = resolveOptions(options);
  const sandbox = await Sandbox.create(resolved);
  const cancel = new Int32Array(new SharedArrayBuffer(4 * inFlightBatches(resolved.threads) * resolved.batchSize));
  const pool = createTextPool(
    {
      roots: sandbox.roots,
      denySecrets: resolved.denySecrets,
      deny: resolved.deny,
      maxFileBytes: resolved.maxFileBytes,
      maxBinaryBytes: resolved.maxBinaryBytes,
      maxLineChars: resolved.maxLineChars,
      render: RENDER,
      cancel,
    },
    { threads: resolved.threads, nice: resolved.workerNice, heapMb: resolved.workerHeapMb },
  );
  const media = new MediaPool(
    {
      roots: sandbox.roots,
      denySecrets: resolved.denySecrets,
      deny: resolved.deny,
      maxFileBytes: resolved.maxMediaBytes,
      maxBinaryBytes: resolved.maxBinaryBytes,
      budget: { maxBase64Bytes: resolved.maxImageBytes, maxSide: resolved.maxImageSide, maxPixels: resolved.maxImagePixels, timeoutSeconds: 30 },
      maxNotebookBytes: MAX_NOTEBOOK_BYTES,
      render: RENDER,
    },
    {
      threads: resolved.mediaThreads,
      nice: resolved.workerNice,
      heapMb: resolved.workerHeapMb,
      idleTimeoutMs: MEDIA_IDLE_MS,
      recycleAfterTasks: MEDIA_RECYCLE_TASKS,
    },
  );
  return new Engine(resolved, sandbox, pool, media, cancel);
}
