import type { Worker } from 'node:worker_threads';
import { settlesWithin } from './deadlines.js';
import type { WaitingBatch } from './host-batches.js';
import { decodeOutcome, HOST_READY, type PoolAnswers, type WireOutcome, type WorkerConfig } from './wire.js';
import { workerThreads } from './worker-threads.js';

/**
 * How long stopping a thread waits for it to load its handler: a thread is not terminated while
 * it loads its modules (Node has aborted the whole process for a worker terminated inside a
 * synchronous `require` of an ES module), unless it takes longer than this.
 */
const BOOT_WAIT_MS = 2000;

const nothing = (): void => undefined;

/** A batch waiting for a thread (or the host, see `HostBatches`), or running on one. */
export interface Task extends WaitingBatch {
  readonly started: (() => void) | undefined;
  readonly resolve: (answers: PoolAnswers) => void;
  readonly reject: (error: Error) => void;
  /** Takes the thread's answer as it came, instead of `resolve` (a hash-only job, see `splitTask`). */
  readonly answered?: (wires: unknown) => void;
  /** Runs whole on one thread, not split (see `splitTask`): its split did not hold. */
  readonly unsplit?: boolean;
}

/** How a thread was started: the files it runs and its settings. */
export interface ThreadSpec {
  /** `workers/text-host`, which loads `entry` and answers batches with it. */
  readonly host: string;
  /** The batch handler's module: the text worker's entry, or a test's stand-in. */
  readonly entry: string;
  readonly config: WorkerConfig;
  readonly heapMb: number | null;
  /** Applied by the thread's helper where a thread cannot lower its own priority (see `niceSettings`). */
  readonly helperNice: number;
}

/** What a thread tells its pool. */
export interface ThreadEvents {
  /** Its handler has loaded: it takes batches. */
  threadReady(thread: TextThread): void;
  /** It answered its oldest batch, which has been settled. */
  threadAnswered(thread: TextThread): void;
  /** It is gone; every batch it held has failed with `failure`. */
  threadExited(thread: TextThread, failure: Error): void;
}

/**
 * One worker thread of the text pool (`src/text-pool.ts`), running `workers/text-host.ts`
 * around the batch handler: the batches sent to it, in order, and its life from boot to exit.
 * It keeps the process alive while it holds a batch and while it is being stopped; the pool
 * decides the rest (`ref`, `unref`).
 */
export class TextThread {
  readonly worker: Worker;
  /** Its handler has loaded: it takes batches. */
  ready = false;
  /** Recycled: it takes no more batches, and is stopped after a grace period. */
  retiring = false;
  /** Being stopped on purpose: its exit is not a failure. */
  stopping = false;
  /**
   * It failed or exited: it takes nothing more. Set before the batches it held are failed, since
   * failing one can send a batch again at once (a split scan's, see `splitTask`), and the pool
   * must not hand it back here.
   */
  gone = false;
  /** The batches sent to it, in order: the first runs, the rest wait in its port (`TASKS_PER_WORKER`). */
  readonly tasks: Task[] = [];
  /** What failed it, from its `error` event, for the batches it held and its exit. */
  #failure: Error | null = null;
  /** Settles once it is ready or gone. */
  readonly #settled: Promise<void>;
  #settle: () => void = nothing;

  constructor(spec: ThreadSpec, events: ThreadEvents) {
    const { Worker } = workerThreads();
    this.worker = new Worker(spec.host, {
      argv: [spec.entry, String(spec.helperNice)],
      workerData: spec.config,
      ...(spec.heapMb === null ? {} : { resourceLimits: { maxOldGenerationSizeMb: spec.heapMb } }),
    });
    this.#settled = new Promise<void>((resolve) => {
      this.#settle = resolve;
    });
    this.worker.unref();
    this.worker.on('message', (message: unknown) => this.#message(message, events));
    this.worker.on('error', (error: Error) => this.#error(error));
    this.worker.on('exit', (code: number) => this.#exit(code, events));
  }

  /** Sends `task` to the thread; false when it could not be posted (the task has failed). */
  send(task: Task): boolean {
    try {
      this.worker.postMessage(task.batch);
    } catch (error) {
      task.reject(error instanceof Error ? error : new Error(String(error)));
      return false;
    }
    this.tasks.push(task);
    this.worker.ref();
    return true;
  }

  /** Stops the thread once it has loaded its handler or within `BOOT_WAIT_MS`; a batch it held fails. */
  async stop(): Promise<void> {
    this.stopping = true;
    // `close()` is awaited: the thread keeps the process alive until it has stopped, or a host
    // that closes its engine while a thread still boots would exit with its close unsettled.
    this.worker.ref();
    await settlesWithin(this.#settled, BOOT_WAIT_MS, { keepAlive: false });
    this.#failure ??= new Error('Terminating worker thread: the text pool stopped it');
    await this.worker.terminate();
  }

  #message(message: unknown, events: ThreadEvents): void {
    if (message === HOST_READY) {
      this.ready = true;
      this.#settle();
      // Kept alive while it booted for a caller of `ready()`: idle now, it holds nothing (`send`
      // refs it again with a batch).
      if (this.tasks.length === 0) this.worker.unref();
      events.threadReady(this);
      return;
    }
    const task = this.tasks.shift();
    if (this.tasks.length === 0 && !this.stopping) this.worker.unref();
    // The next batch, waiting in the thread's port, runs now.
    this.tasks[0]?.started?.();
    if (task !== undefined) settle(task, message);
    events.threadAnswered(this);
  }

  /** An error the thread did not catch (its heap limit among them); its exit follows. */
  #error(error: Error): void {
    this.gone = true;
    this.#failure ??= error;
    for (const task of this.tasks.splice(0)) task.reject(error);
  }

  #exit(code: number, events: ThreadEvents): void {
    this.gone = true;
    this.#settle();
    const failure = this.#failure ?? new Error(`the text worker exited with code ${code}`);
    for (const task of this.tasks.splice(0)) task.reject(failure);
    events.threadExited(this, failure);
  }
}

/**
 * Settles a batch with its thread's answer: each job's outcome, then the batch's milliseconds in
 * the worker. An error the handler threw fails the batch, and so does any other shape (a worker
 * from an older build); the scheduler then retries its reads one at a time.
 */
export function settle(task: Task, wires: unknown): void {
  if (wires instanceof Error) return task.reject(wires);
  if (task.answered !== undefined) return task.answered(wires);
  const { batch } = task;
  const count = batch.paths.length;
  if (!Array.isArray(wires) || wires.length !== count + 1 || typeof wires[count] !== 'number') {
    return task.reject(new Error('the text worker answered in an unexpected shape (a stale build? run npm run build)'));
  }
  try {
    const outcomes: PoolAnswers = [];
    for (let i = 0; i < count; i++) outcomes.push(decodeOutcome(wires[i] as WireOutcome, batch.paths[i] ?? ''));
    outcomes.workerMs = wires[count];
    task.resolve(outcomes);
  } catch (error) {
    // Never thrown into the thread's message event, where it would end the host.
    task.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
