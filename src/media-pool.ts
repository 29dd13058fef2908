import type { Piscina } from 'piscina';
import { niceSettings } from './io/thread-priority.js';
import type { MediaConfig, MediaJob, MediaOutcome } from './media/wire.js';
import { workerFile } from './worker-files.js';

let piscina: Promise<typeof Piscina> | null = null;

/**
 * Piscina loads with the first media read: importing it took about 25 ms on this project's
 * 2-core machine, most of what `import('readpool')` cost over bare node, for hosts that may
 * never read an image.
 */
function loadPiscina(): Promise<typeof Piscina> {
  piscina ??= import('piscina').then((loaded) => loaded.Piscina);
  return piscina;
}

export interface MediaPoolOptions {
  readonly threads: number;
  readonly nice: number;
  readonly heapMb: number | null;
  /** An idle media worker is stopped after this long: the pool shrinks to nothing when unused. */
  readonly idleTimeoutMs: number;
  /** A media worker is replaced after this many tasks (mupdf's WASM heap never shrinks). */
  readonly recycleAfterTasks: number;
}

/**
 * The media pool: separate from the text pool, so an image or a PDF never holds a text read.
 * Started on the first media read (sharp and mupdf are loaded only then), shrinking to no
 * worker when idle, and replaced after large renders or every `recycleAfterTasks` tasks.
 */
export class MediaPool {
  readonly #config: MediaConfig;
  readonly #options: MediaPoolOptions;
  #pool: Piscina<MediaJob, MediaOutcome> | null = null;
  #tasks = 0;
  #pending = 0;
  readonly #retiring = new Set<Promise<void>>();
  #recycles = 0;
  #begun = false;
  #destroyed = false;
  /** Pools replaced because a worker died in a task: their other tasks' failures are not theirs. */
  readonly #broken = new WeakSet<Piscina<MediaJob, MediaOutcome>>();

  constructor(config: MediaConfig, options: MediaPoolOptions) {
    this.#config = config;
    this.#options = options;
  }

  /** True once the first media read started the pool. */
  get started(): boolean {
    return this.#begun;
  }

  get recycles(): number {
    return this.#recycles;
  }

  /** Media reads queued or running: counted with the text queue against `maxQueued`. */
  get pending(): number {
    return this.#pending;
  }

  /**
   * Runs one media read. An abort stops its worker (piscina terminates it; a fresh one takes
   * the next read), which is also how a render that outlives every caller's deadline ends.
   */
  async run(job: MediaJob, signal: AbortSignal): Promise<MediaOutcome> {
    this.#pending++;
    this.#begun = true;
    try {
      return await this.#runOn(job, signal, true);
    } finally {
      this.#pending--;
    }
  }

  /**
   * Every task goes through here, so a broken pool is seen by the task that broke it: a worker
   * that died in its task (killed, out of memory) leaves the tasks queued behind it in that
   * pool waiting until their deadlines. The pool is replaced at once; its other tasks, failed
   * by the replacement and not by their own doing, run once more in the new pool.
   */
  async #runOn(job: MediaJob, signal: AbortSignal, mayRetry: boolean): Promise<MediaOutcome> {
    const Pool = await loadPiscina();
    if (this.#destroyed) throw new Error('the media pool is stopped');
    this.#pool ??= this.#start(Pool);
    const pool = this.#pool;
    try {
      const outcome = await pool.run(job, { signal });
      if ((outcome.ok && outcome.recycle) || ++this.#tasks >= this.#options.recycleAfterTasks) this.#recycle(pool);
      return outcome;
    } catch (error) {
      if (signal.aborted) throw error;
      if (this.#broken.has(pool)) {
        if (mayRetry) return this.#runOn(job, signal, false);
        throw error;
      }
      this.#replaceBroken(pool);
      throw error;
    }
  }

  async destroy(): Promise<void> {
    this.#destroyed = true;
    const pool = this.#pool;
    this.#pool = null;
    await Promise.all([pool?.destroy(), ...this.#retiring]);
  }

  #start(Pool: typeof Piscina): Piscina<MediaJob, MediaOutcome> {
    const { threads, nice, heapMb, idleTimeoutMs } = this.#options;
    const priority = niceSettings(nice);
    return new Pool<MediaJob, MediaOutcome>({
      filename: workerFile('media-worker'),
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: idleTimeoutMs,
      concurrentTasksPerWorker: 1,
      niceIncrement: priority.niceIncrement,
      ...(heapMb === null ? {} : { resourceLimits: { maxOldGenerationSizeMb: heapMb } }),
      workerData: { ...this.#config, threadNice: priority.threadNice },
    });
  }

  /** A pool whose worker died in a task: stopped now, so its queued tasks fail over at once. */
  #replaceBroken(pool: Piscina<MediaJob, MediaOutcome>): void {
    this.#broken.add(pool);
    if (this.#pool === pool) {
      this.#pool = null;
      this.#tasks = 0;
      this.#recycles++;
    }
    const stopped = pool
      .destroy()
      .catch(() => undefined)
      .finally(() => this.#retiring.delete(stopped));
    this.#retiring.add(stopped);
  }

  /** New reads go to a fresh pool; the old one finishes what it holds, then stops. */
  #recycle(pool: Piscina<MediaJob, MediaOutcome>): void {
    if (this.#pool !== pool) return;
    this.#pool = null;
    this.#tasks = 0;
    this.#recycles++;
    const closed = pool
      .close()
      .catch(() => pool.destroy())
      .finally(() => this.#retiring.delete(closed));
    this.#retiring.add(closed);
  }
}
