import { SessionLedger } from './cache/sessions.js';
import { settlesWithin } from './deadlines.js';
import type { ReadError } from './errors.js';
import { MediaLane } from './media-lane.js';
import type { MediaPool } from './media-pool.js';
import { resolveOptions, type EngineOptions, type ResolvedOptions } from './options.js';
import { ReadLedger } from './read-ledger.js';
import { fail, subjectOf } from './read-failure.js';
import { ReadPipeline } from './read-pipeline.js';
import type { ReadRequest } from './request.js';
import type { ReadResult } from './result.js';
import { Sandbox } from './sandbox.js';
import { Scheduler } from './scheduler.js';
import { StatLane } from './stat-lane.js';
import { TASKS_PER_WORKER, type TextPool } from './text-pool.js';
import { TurnGate } from './turn-gate.js';

/**
 * Machines this small keep a worker's next batch waiting in its port while at most one session
 * reads: a worker that answers then starts its next batch at once, instead of sleeping until the
 * host has turned its answer around. Waking a sleeping thread costs the host about 20 µs a
 * message on this project's 2-core machine (a `postMessage` to an idle worker, against 4 to a
 * busy one), and the workers' CPU is the scarcer there. Several sessions keep one batch a worker:
 * a second there made a host's turns longer (answers arriving while it settles others) and its
 * event-loop delay p99 about twice as high under a mixed load of 200 sessions (see README,
 * Scheduling). On many cores the host thread is the ceiling, and a second batch a worker only
 * adds tasks.
 */
const PIPELINE_CORES = 4;

/** Pool tasks in flight: one a worker thread, whatever the sessions (see `PIPELINE_CORES`). */
function inFlightBatches(threads: number): number {
  return threads;
}

/** Pool tasks in flight while at most one session reads. */
function aloneInFlightBatches(threads: number, cores: number): number {
  return cores <= PIPELINE_CORES ? threads * TASKS_PER_WORKER : threads;
}

/**
 * How long a batch may outlive all its reads (answered by abort or timeout) before its worker
 * is taken for stuck in a system call and the workers are recycled. Healthy workers stop at
 * the next chunk they poll, within milliseconds; a large base64 read polls only at its end.
 */
const STUCK_GRACE_MS = 2000;

/** How long `close()` waits for reads already in workers. */
const CLOSE_GRACE_MS = 5000;

/**
 * Reads started in one turn of the event loop; more wait for the next turn (see `TurnGate`).
 * About 1 ms of main-thread work at the cached-read rate, now that the stats behind hits go to
 * the stat thread in busy turns. Measured in the swarm (256 sessions, one read each), alternating
 * fresh processes: 256 against 128 took a pass from 713 to 656 ms (8 each; event-loop delay p99
 * 6.5 ms both), and from 689 to 635 ms (6 each; host CPU 3.72 to 3.17 µs a read, event-loop
 * delay p99 5.8 to 7.9 ms). Each read that waits a turn at the gate costs a place in its
 * session's line and a callback. Before the stat thread, 256 doubled the swarm's event-loop delay p99 and gained no
 * throughput. 512 took the swarm from 1 001 to 881 ms and 950 to 884 (8 each, a slow hour), but
 * its event-loop delay p99 from about 9.5 to 10.5 ms, and a burst of 500 reads then started in
 * one turn: kept at 256. Since a read that waits makes no promise of its own, 512 gains nothing
 * (swarm 722 against 706 ms, 10 alternating each).
 */
const READS_PER_TURN = 256;

import type { CallOptions, EngineStats, LastRead, ReadSettled, UnchangedCheck } from './engine-types.js';
import { startPools } from './pools.js';
import { checkUnchanged } from './unchanged-check.js';

export type { CacheStats, CallOptions, EngineStats, LastRead, ReadSettled, UnchangedCheck } from './engine-types.js';

/**
 * A sandboxed read engine over a worker pool. Create it with {@link createEngine}.
 */
export class Engine {
  readonly #sandbox: Sandbox;
  readonly #pool: TextPool;
  readonly #media: MediaPool;
  readonly #scheduler: Scheduler;
  readonly #sessions: SessionLedger;
  readonly #ledger = new ReadLedger();
  readonly #gate: TurnGate;
  readonly #stats = new StatLane();
  readonly #pipeline: ReadPipeline;
  #closing: Promise<void> | null = null;

  /** @internal use {@link createEngine} */
  constructor(options: ResolvedOptions, sandbox: Sandbox, pool: TextPool, media: MediaPool, cancel: Int32Array) {
    this.#sandbox = sandbox;
    this.#pool = pool;
    this.#media = media;
    this.#sessions = new SessionLedger({ maxSessions: options.maxSessions, maxEntries: options.maxSessionEntries });
    this.#scheduler = new Scheduler({
      maxQueued: options.maxQueued,
      maxQueuedBytes: options.maxQueuedBytes,
      batchSize: options.batchSize,
      maxInFlight: inFlightBatches(options.threads),
      aloneInFlight: aloneInFlightBatches(options.threads, options.cores),
      cores: options.cores,
      run: (batch, started) => pool.run(batch, started),
      recycle: () => pool.recycle(),
      stuckGraceMs: STUCK_GRACE_MS,
      cancel,
      onRoom: () => this.#gate.pump(),
    });
    // A session's reads start while it has less than a round of full batches queued: enough to
    // keep every worker busy on its own, and no more.
    const highWater = inFlightBatches(options.threads) * options.batchSize;
    this.#gate = new TurnGate(READS_PER_TURN, (session) => this.#scheduler.queuedIn(session) < highWater);
    this.#pipeline = new ReadPipeline({
      options,
      sandbox,
      scheduler: this.#scheduler,
      gate: this.#gate,
      media: new MediaLane(media, options),
      sessions: this.#sessions,
      ledger: this.#ledger,
      stats: this.#stats,
      closing: () => this.#closing !== null,
    });
  }

  /**
   * Reads one file. Resolves with a result discriminated on `kind`, or rejects with a
   * {@link ReadError} whose message tells a model what to do next.
   *
   * @example
   * const page = await engine.read({ path: 'logs/app.log', offset: 2001, limit: 2000 });
   * if (page.kind === 'text' && page.truncated) console.log(page.truncated.nextOffset);
   */
  read(request: ReadRequest, call: CallOptions = {}): Promise<ReadResult> {
    const signal: unknown = call.signal;
    if (signal !== undefined && !isAbortSignal(signal)) {
      return Promise.reject(this.#pipeline.failed(fail('invalid_request', { issues: ['signal: must be an AbortSignal'] }, subjectOf(request)), subjectOf(request)));
    }
    return this.#pipeline.read(request, signal);
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
    return checkUnchanged({ sandbox: this.#sandbox, sessions: this.#sessions, ledger: this.#ledger, pipeline: this.#pipeline }, session, path, expect);
  }

  /**
   * Resolves once a worker thread of the text pool is ready (or the engine is closed), starting
   * the threads if they wait to be needed (`startThreads: 'when-needed'`). Reads never need it:
   * until a thread is ready the host's thread answers small reads itself. Await it to start
   * the threads ahead of reads, or to have the next reads run on workers. Rejects with the
   * failure when a thread fails to start and none is up (a worker build missing, or a heap cap
   * too small to start in).
   */
  ready(): Promise<void> {
    return this.#pool.ready();
  }

  /** The canonical roots reads are confined to; relative paths resolve against the first. */
  get roots(): readonly string[] {
    return this.#sandbox.roots;
  }

  stats(): EngineStats {
    const c = this.#ledger;
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
      queued: pool.queued + this.#gate.waiting + this.#stats.waiting,
      notStarted: this.#gate.waiting,
      media: { started: this.#media.started, recycles: this.#media.recycles },
      stat: this.#stats.stats(),
      lanes: Math.max(pool.lanes, depths.size),
      deepestLanes,
      threads: this.#pool.threads,
      text: { started: this.#pool.started, ready: this.#pool.readyThreads, hostReads: this.#pool.hostReads, splitScans: this.#pool.splitScans },
      roots: this.#sandbox.roots,
      answered: c.answered,
      cache: {
        result: {
          hits: c.resultHits,
          misses: c.resultMisses,
          entries: this.#pipeline.results?.size ?? 0,
          bytes: this.#pipeline.results?.calculatedSize ?? 0,
        },
        stub: { hits: c.stubHits },
        singleFlight: { joins: c.singleFlightJoins, inFlight: this.#pipeline.flights.size },
        lineIndex: { hits: c.lineIndexHits, versions: this.#pipeline.facts.size, bytes: this.#pipeline.facts.bytes },
        hash: { hits: c.hashHits },
        readAhead: { pages: c.readAheads, waiting: this.#pipeline.ahead.size },
        sessions: this.#sessions.stats(),
      },
      errors: { ...c.errors },
      closed: this.#closing !== null,
    };
  }

  /**
   * Answers queued reads with `closed` (held at the gate, waiting for a stat or for a worker),
   * lets running ones finish (for up to 5 seconds; any still running then are answered with
   * `closed`), then stops the workers.
   */
  close(): Promise<void> {
    if (this.#closing !== null) return this.#closing;
    this.#closing = this.#scheduler
      .close(CLOSE_GRACE_MS)
      .then(() =>
        Promise.all([
          // A thread stuck in a system call cannot stop until the call returns: it is left behind.
          settlesWithin(this.#pool.destroy(), CLOSE_GRACE_MS, { keepAlive: false }),
          settlesWithin(this.#media.destroy(), CLOSE_GRACE_MS, { keepAlive: false }),
          settlesWithin(this.#stats.close(), CLOSE_GRACE_MS, { keepAlive: false }),
        ]),
      )
      .then(() => undefined);
    // After closing has begun: the reads the gate lets go now run at once and answer `closed`.
    this.#gate.flush();
    return this.#closing;
  }
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
  const { pool, media, cancel } = startPools(resolved, sandbox, aloneInFlightBatches(resolved.threads, resolved.cores) * resolved.batchSize);
  return new Engine(resolved, sandbox, pool, media, cancel);
}
