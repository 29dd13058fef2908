import { HostBatches } from './host-batches.js';
import { niceSettings } from './io/thread-priority.js';
import { probeTask, splitTask } from './scan-split.js';
import { settle, TextThread, type Task, type ThreadEvents, type ThreadSpec } from './text-thread.js';
import type { JobBatch, PoolAnswers, WorkerConfig } from './wire.js';
import { isSubstituted, workerFile } from './worker-files.js';

export interface TextPool {
  /** Runs a batch; `started` is called when its thread begins it (see `TASKS_PER_WORKER`). */
  run(batch: JobBatch, started?: () => void): Promise<PoolAnswers>;
  /**
   * Replaces the workers: new batches go to fresh ones, and the old ones are stopped after a
   * grace period (batches still running on them then fail, and are retried by the
   * scheduler). For a worker stuck in a system call, which nothing else can reach.
   */
  recycle(): void;
  readonly threads: number;
  /** Its threads have been started (see `TextPoolOptions.start`). */
  readonly started: boolean;
  /** Threads that have loaded their handler and take batches. */
  readonly readyThreads: number;
  /** Reads the host thread answered while no thread was ready (see `HostBatches`). */
  readonly hostReads: number;
  /** Whole scans of large files split over two threads (see `splitTask`). */
  readonly splitScans: number;
  /**
   * Starts the threads if they wait to be needed; resolves once one is ready, or the pool
   * stopped; rejects with the failure when a thread fails to start and none is up.
   */
  ready(): Promise<void>;
  destroy(): Promise<void>;
}

export interface TextPoolOptions {
  readonly threads: number;
  /** Nice increment of the worker threads. */
  readonly nice: number;
  /** Old-generation heap cap of each worker in MiB, or null for V8's default. */
  readonly heapMb: number | null;
  /**
   * The host thread answers small batches while no thread has started yet (see `HostBatches`).
   * Default false.
   */
  readonly hostBatches?: boolean;
  /**
   * When the threads start: with the pool (`now`, the default), or when a batch needs one
   * (`when-needed`): one the host thread may not take, or a second one waiting. A one-shot
   * command that reads one small file then starts none.
   */
  readonly start?: 'now' | 'when-needed';
}

/**
 * The most batches a worker holds at once: the one it runs, and the next, waiting in its port.
 * The pool hands idle threads a batch first; how many are out is the scheduler's choice (the
 * engine sends a second one a worker only on small machines, while one session reads: see
 * `inFlightBatches` in engine.ts).
 */
export const TASKS_PER_WORKER = 2;

/** How long retired workers may finish what they hold before they are stopped. */
const RETIRE_GRACE_MS = 2000;

/** A thread that failed at start-up is replaced after this, doubling while failures repeat. */
const RESTART_BASE_MS = 50;
const RESTART_MAX_MS = 5000;

/**
 * The text pool: `threads` worker threads, each running `workers/text-host.ts` around the text
 * worker's batch handler, one batch at a time, with a queue for batches that find every thread
 * busy. Its own rather than a Piscina pool: a Piscina task cost the host thread about 55 µs
 * (its dispatch, task bookkeeping and async resources, a message each way), where a message
 * each way to a thread costs about 16 (measured on this machine with the same answers, one
 * task in flight a thread), and the host thread is the ceiling. The media pool, whose tasks
 * take milliseconds, stays on Piscina.
 *
 * A thread that dies holding a batch fails that batch (the scheduler retries its reads alone)
 * and is replaced at once. A thread that fails before its handler loads fails the batches
 * waiting for one too (they could wait long), and is replaced after a backoff that doubles
 * while start-ups keep failing, without waiting for a request.
 */
class TextThreads implements TextPool, ThreadEvents {
  readonly threads: number;
  readonly #spec: ThreadSpec;
  #live: TextThread[] = [];
  /** Answers batches while no thread has ever been ready; null where the host reads nothing. */
  #onHost: HostBatches | null;
  /** Some thread has loaded its handler: from then on only threads read. */
  #threadsUp = false;
  #started = false;
  /** The threads start once the host's scheduled turn has run (see `#hostLoaded`). */
  #startAfterHostTurn = false;
  #hostReads = 0;
  #splitScans = 0;
  /** Callers of `ready()` waiting for a thread. */
  #readyWaiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  readonly #retiring = new Set<Promise<void>>();
  readonly #queue: Task[] = [];
  #failures = 0;
  #restart: NodeJS.Timeout | undefined;
  #destroyed = false;

  constructor(config: WorkerConfig, options: TextPoolOptions) {
    this.threads = options.threads;
    this.#spec = {
      host: workerFile('text-host'),
      entry: workerFile('text-worker'),
      config,
      heapMb: options.heapMb,
      helperNice: niceSettings(options.nice).niceIncrement,
    };
    // A test that stands in for the worker entry exercises the threads: the host runs none of it.
    const startNow = options.start !== 'when-needed';
    this.#onHost = options.hostBatches === true && !isSubstituted('text-worker') ? new HostBatches(config, () => this.#hostLoaded(startNow)) : null;
    // With a host that reads, the threads start once it can (its handler loaded, 10 to 20 ms):
    // booting beside it, they took the cores its first reads needed. `createEngine` to the first
    // answer: 33 to 45 ms against 54 to 76 (ten alternating fresh processes each, 2 cores); a
    // fresh engine's first pass unchanged.
    if (this.#onHost === null) {
      if (startNow) this.#startThreads();
    } else {
      // A turn later, unless a batch asks first. A burst at once (a swarm's first reads) is left
      // to the threads, and loading the handler for it cost the host's CPU 12 to 20 ms for nothing.
      setImmediate(() => {
        if (!this.#started && !this.#destroyed) this.#onHost?.load();
      }).unref();
    }
  }

  #hostLoaded(startNow: boolean): void {
    this.#pump();
    if (!startNow) return;
    // A batch the host runs next turn goes first: making the threads' `Worker`s costs the host
    // about 5 ms, which its first answer would wait behind. They start once it is answered.
    if (this.#onHost?.scheduled === true) this.#startAfterHostTurn = true;
    else this.#startThreads();
  }

  get started(): boolean {
    return this.#started;
  }

  get readyThreads(): number {
    return this.#live.reduce((n, thread) => n + (thread.ready && !thread.stopping && !thread.gone ? 1 : 0), 0);
  }

  get hostReads(): number {
    return this.#hostReads;
  }

  get splitScans(): number {
    return this.#splitScans;
  }

  ready(): Promise<void> {
    if (this.#threadsUp || this.#destroyed) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.#readyWaiters.push({ resolve, reject });
      this.#startThreads();
      this.#pump();
    });
  }

  #startThreads(): void {
    if (this.#started || this.#destroyed) return;
    this.#started = true;
    for (let i = 0; i < this.threads; i++) this.#spawn();
  }

  run(batch: JobBatch, started?: () => void): Promise<PoolAnswers> {
    return new Promise<PoolAnswers>((resolve, reject) => {
      if (this.#destroyed) throw new Error('the text pool is stopped');
      this.#queue.push({ batch, started, resolve, reject });
      this.#pump();
    });
  }

  recycle(): void {
    const old = this.#live;
    this.#live = [];
    this.#started = true;
    for (const thread of old) thread.retiring = true;
    for (let i = 0; i < this.threads; i++) this.#spawn();
    this.#pump();
    const stopped = new Promise<void>((resolve) => setTimeout(resolve, RETIRE_GRACE_MS).unref())
      .then(() => Promise.all(old.map((thread) => thread.stop())))
      .then(() => undefined)
      .finally(() => this.#retiring.delete(stopped));
    this.#retiring.add(stopped);
  }

  async destroy(): Promise<void> {
    this.#destroyed = true;
    clearTimeout(this.#restart);
    this.#onHost?.cancel();
    for (const waiter of this.#readyWaiters.splice(0)) waiter.resolve();
    this.#failQueued(new Error('the text pool is stopped'));
    await Promise.all([...this.#live.map((thread) => thread.stop()), ...this.#retiring]);
  }

  /**
   * Hands waiting batches to ready, idle threads. A thread keeps the process alive while it holds
   * a batch, while it boots with batches waiting (as does a restart due) and while it is being
   * stopped; otherwise it does not, so a host that never closes its engine can still exit.
   */
  #pump(): void {
    // Idle threads first, then a second batch to each busy one.
    for (let depth = 0; depth < TASKS_PER_WORKER && this.#queue.length > 0; depth++) {
      for (const thread of this.#live) {
        if (this.#queue.length === 0) break;
        if (!thread.ready || thread.stopping || thread.gone || thread.tasks.length !== depth) continue;
        const task = this.#queue.shift() as Task;
        if (depth === 0 && this.#queue.length === 0 && this.#split(task, thread)) continue;
        if (thread.send(task) && depth === 0) task.started?.();
      }
    }
    if (this.#queue.length > 0 && !this.#threadsUp) this.#waitingForThreads();
    // A caller awaiting `ready()` keeps the booting threads alive as a waiting batch does.
    const waiting = this.#queue.length > 0 || this.#readyWaiters.length > 0;
    for (const thread of this.#live) {
      if (thread.ready || thread.stopping) continue;
      if (waiting) thread.worker.ref();
      else thread.worker.unref();
    }
    if (waiting) this.#restart?.ref();
    else this.#restart?.unref();
  }

  /**
   * Where two more threads are idle and nothing else waits for them, sends a whole scan of a large
   * file to `thread` and its hash to one of the others (see `splitTask`), or a whole scan of a
   * file the host did not stat flagged to come back sized if it is that large (`probeTask`).
   * False when it sent nothing. One thread is always left idle: a small read arriving while a
   * split ran on both threads of a 2-thread pool waited for one of its halves, 21 to 58 ms
   * against 4 to 15 (a 200 MB file, ten reads each).
   */
  #split(task: Task, thread: TextThread): boolean {
    let helper: TextThread | undefined;
    let spare = false;
    for (const other of this.#live) {
      if (other === thread || !other.ready || other.stopping || other.gone || other.tasks.length !== 0) continue;
      if (helper === undefined) helper = other;
      else spare = true;
    }
    if (helper === undefined || !spare) return false;
    const again = (next: Task) => this.#runAgain(next);
    const split = splitTask(task, again);
    if (split !== null) {
      this.#splitScans++;
      if (thread.send(split.read)) split.read.started?.();
      helper.send(split.hash);
      return true;
    }
    const probe = probeTask(task, again);
    if (probe === null) return false;
    if (thread.send(probe)) probe.started?.();
    return true;
  }

  /**
   * A split scan whose halves did not agree, or a probed one that came back sized, goes again,
   * ahead of the batches waiting.
   */
  #runAgain(task: Task): void {
    if (this.#destroyed) return task.reject(new Error('the text pool is stopped'));
    this.#queue.unshift(task);
    this.#pump();
  }

  /**
   * Batches are waiting and no thread has started: the host takes one it may while it is the
   * only one waiting, and threads start (where they wait to be needed) once a batch the host
   * may not take, or a second one, is waiting. A burst of batches is left to the threads: the
   * host reading beside their boots took the cores they needed (a swarm pass 1 203 against
   * 1 115 ms, ten pairs of fresh processes, when the host took every batch it could).
   */
  #waitingForThreads(): void {
    const host = this.#onHost;
    const [only] = this.#queue;
    // Only for a batch the host may take: the others wait for a thread, without a turn each.
    if (host === null || host.failed || this.#queue.length > 1 || only === undefined || !host.may(only)) return this.#startThreads();
    if (!host.ready) return host.load();
    host.schedule(this.#queue, () => this.#runOnHost(host));
  }

  /** Runs the first waiting batch the host may take, unless a thread has started meanwhile. */
  #runOnHost(host: HostBatches): void {
    if (this.#destroyed) return;
    const ran = this.#threadsUp || this.#queue.length !== 1 ? null : host.runFirst(this.#queue);
    if (ran !== null) {
      const [task] = this.#queue.splice(ran.index, 1) as [Task];
      this.#hostReads += task.batch.paths.length;
      task.started?.();
      settle(task, ran.answer);
    }
    // A turn later, once the answer has reached its caller (its promise settles in microtasks).
    if (this.#startAfterHostTurn) {
      this.#startAfterHostTurn = false;
      setImmediate(() => this.#startThreads());
    }
    this.#pump();
  }

  #spawn(): void {
    this.#live.push(new TextThread(this.#spec, this));
  }

  threadReady(thread: TextThread): void {
    this.#threadsUp = true;
    // The host's handler is not needed again: it is let go (the read module keeps the last
    // read's slicer, see `recent` in read-file.ts).
    this.#onHost = null;
    for (const waiter of this.#readyWaiters.splice(0)) waiter.resolve();
    this.#failures = 0;
    if (!thread.retiring) this.#pump();
  }

  threadAnswered(thread: TextThread): void {
    if (!thread.retiring) this.#pump();
  }

  threadExited(thread: TextThread, failure: Error): void {
    const at = this.#live.indexOf(thread);
    if (at === -1 || thread.stopping || this.#destroyed) return;
    this.#live.splice(at, 1);
    if (thread.ready) {
      this.#spawn();
      this.#pump();
      return;
    }
    // Failed at start-up: unless another thread is up, the batches waiting would wait for the
    // next start, which may fail too.
    if (!this.#live.some((other) => other.ready)) {
      this.#failQueued(failure);
      for (const waiter of this.#readyWaiters.splice(0)) waiter.reject(failure);
    }
    if (this.#restart !== undefined) return;
    const delay = Math.min(RESTART_MAX_MS, RESTART_BASE_MS * 2 ** this.#failures++);
    this.#restart = setTimeout(() => {
      this.#restart = undefined;
      if (this.#destroyed) return;
      while (this.#live.length < this.threads) this.#spawn();
      this.#pump();
    }, delay);
    if (this.#queue.length === 0) this.#restart.unref();
  }

  #failQueued(error: Error): void {
    for (const task of this.#queue.splice(0)) task.reject(error);
  }
}

export function createTextPool(config: WorkerConfig, options: TextPoolOptions): TextPool {
  const { threadNice } = niceSettings(options.nice);
  return new TextThreads({ ...config, threadNice }, options);
}
