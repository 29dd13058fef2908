import type { BatchHandler } from './io/text-batches.js';
import { BATCH_BYTES, knownBytes, type JobBatch, type WireAnswer, type WorkerConfig } from './wire.js';

/**
 * The most bytes of files the host thread reads in one batch: what a worker's batch holds (about
 * a millisecond of a warm thread's work, a few in a cold one). Larger files wait for a thread.
 */
export const HOST_BATCH_BYTES = BATCH_BYTES;

/** A batch waiting in the text pool's queue, as the host sees it. */
export interface WaitingBatch {
  readonly batch: JobBatch;
  /** The host declined it (see `runFirst`): only a thread runs it. */
  forThread?: boolean;
}

/** What `runFirst` ran: the batch's place in the queue and its answer (the error, if it threw). */
export interface HostRun {
  readonly index: number;
  readonly answer: WireAnswer | Error;
}

/**
 * The text workers' batch handler, run on the host thread: the engine's first small batches,
 * while no pool thread has started, are answered here instead of waiting for one. A worker
 * thread takes 50 to 75 ms to start on this project's 2-core machine, where reading a small
 * file takes well under one; a host's first read, and a one-shot command's only one, need not
 * wait for that (see `TextThreads`).
 *
 * The handler is loaded on first use (a module chunk of its own, with xxhash's WebAssembly) and
 * runs the very code the workers run, with the same sandbox settings: every path is opened and
 * checked inside a root as it is there. It reads synchronously, as the stat lane's stats on the
 * host thread do, so it takes only files known small or found small at open (`HOST_BATCH_BYTES`):
 * a batch with a larger file is left for a thread, whole. It runs one batch a turn of the
 * event loop (`schedule`), so timers and I/O go on between them.
 */
export class HostBatches {
  readonly #config: WorkerConfig;
  readonly #loaded: () => void;
  #handler: BatchHandler | null = null;
  #state: 'unloaded' | 'loading' | 'ready' | 'failed' = 'unloaded';
  #turn: NodeJS.Immediate | undefined;

  /** `loaded` is called once the handler has loaded, or failed to. */
  constructor(config: WorkerConfig, loaded: () => void) {
    this.#config = config;
    this.#loaded = loaded;
  }

  /** It can run batches now. */
  get ready(): boolean {
    return this.#state === 'ready';
  }

  /** Its handler could not load: every batch waits for a thread. */
  get failed(): boolean {
    return this.#state === 'failed';
  }

  /** A turn has been asked for (`schedule`) and has not run yet. */
  get scheduled(): boolean {
    return this.#turn !== undefined;
  }

  /** Starts loading the handler, once. */
  load(): void {
    if (this.#state !== 'unloaded') return;
    this.#state = 'loading';
    import('./io/text-batches.js')
      .then((module) => module.createBatchHandler(this.#config, { prime: false, maxBatchBytes: HOST_BATCH_BYTES }))
      .then(
        (handler) => {
          this.#handler = handler;
          this.#state = 'ready';
        },
        () => {
          this.#state = 'failed';
        },
      )
      .finally(this.#loaded);
  }

  /** The host may run `task`: one it has not declined, with no file it knows takes it past `HOST_BATCH_BYTES`. */
  may(task: WaitingBatch): boolean {
    return task.forThread !== true && knownBytes(task.batch) <= HOST_BATCH_BYTES;
  }

  /** Asks once for a turn of the event loop, in which `turn` runs, when a batch of `queue` is one it may run. */
  schedule(queue: readonly WaitingBatch[], turn: () => void): void {
    if (this.#turn !== undefined || !queue.some((task) => this.may(task))) return;
    this.#turn = setImmediate(() => {
      this.#turn = undefined;
      turn();
    });
  }

  /** Forgets the turn asked for: the pool stopped. */
  cancel(): void {
    clearImmediate(this.#turn);
    this.#turn = undefined;
  }

  /**
   * Runs the first batch of `queue` it may run, now, on this thread (only once `ready`), and
   * says which and what it answered; null when there was none, or when it declined the batch,
   * having met a file too large for the host that a worker would read (the batch is marked for
   * a thread).
   */
  runFirst(queue: readonly WaitingBatch[]): HostRun | null {
    if (this.#handler === null) throw new Error('the host batch handler is not loaded');
    const index = queue.findIndex((task) => this.may(task));
    const task = queue[index];
    if (task === undefined) return null;
    let answer: WireAnswer | Error | null;
    try {
      answer = this.#handler(task.batch);
    } catch (error) {
      answer = error instanceof Error ? error : new Error(String(error));
    }
    if (answer !== null) return { index, answer };
    task.forThread = true;
    return null;
  }
}
