import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { niceSettings } from './io/thread-priority.js';
import { decodeOutcome, encodeBatch, type JobBatch, type PoolAnswers, type WireAnswer, type WireOutcome, type WorkerConfig } from './wire.js';

export interface TextPool {
  run(batch: JobBatch): Promise<PoolAnswers>;
  /**
   * Replaces the workers: new batches go to fresh ones, and the old ones are stopped after a
   * grace period (batches still running on them then fail, and are retried by the
   * scheduler). For a worker stuck in a system call, which nothing else can reach.
   */
  recycle(): void;
  readonly threads: number;
  destroy(): Promise<void>;
}

/** Worker entries replaced by `substituteWorkerEntry`, by worker name. */
const substitutes = new Map<string, string>();

/**
 * @internal Fault injection for tests only: pools started from now on run `file` (a plain
 * JavaScript module, typically wrapping the built entry) as the `name` worker; null restores
 * the built one. Lets a test make real workers fail at start-up, exit mid-task or run out of heap.
 */
export function substituteWorkerEntry(name: 'text-worker' | 'media-worker' | 'stat-worker', file: string | null): void {
  if (file === null) substitutes.delete(name);
  else substitutes.set(name, file);
}

/**
 * The compiled worker entry. From the build (`dist/src/*.js`) it sits beside us; when the
 * engine runs from its TypeScript sources (the test runner), workers still run the build,
 * because worker threads cannot load TypeScript on Node 20. The bundled CommonJS entry
 * (`NAME.cjs`, see rolldown.config.ts) where the build made one, else tsc's module.
 */
export function workerFile(name: string): string {
  const substitute = substitutes.get(name);
  if (substitute !== undefined) return substitute;
  const folder = new URL(import.meta.url.endsWith('.js') ? '../workers/' : '../dist/workers/', import.meta.url);
  const bundled = fileURLToPath(new URL(`${name}.cjs`, folder));
  if (existsSync(bundled)) return bundled;
  const file = fileURLToPath(new URL(`${name}.js`, folder));
  if (!existsSync(file)) {
    throw new Error(`readpool worker ${name} is not built (${name}.js missing): run "npm run build" first`);
  }
  return file;
}

export interface TextPoolOptions {
  readonly threads: number;
  /** Nice increment of the worker threads. */
  readonly nice: number;
  /** Old-generation heap cap of each worker in MiB, or null for V8's default. */
  readonly heapMb: number | null;
}

/**
 * How long stopping the pool waits for workers still loading their module. Node aborts the whole
 * process when a worker is terminated in the middle of Piscina's synchronous `require` of an ES
 * module entry, so a worker is never stopped before it has answered its first (empty) batch.
 */
const BOOT_WAIT_MS = 2000;

/**
 * Batches a worker holds at once. One: reads that arrive while a worker is busy wait on the host
 * to share its next batch, instead of going out as a small second one. Every task costs the host
 * thread about as much as three reads (Piscina's dispatch, the message each way), and the host
 * thread is the ceiling. Measured against two a worker (the next batch waiting in the worker's
 * port), source tree at concurrency 64 on 2 threads, same process: batches of 32 instead of 10,
 * host CPU per miss 15 µs instead of 21, files/s +7 %.
 */
export const TASKS_PER_WORKER = 1;

/** How long retired workers may finish what they hold before they are stopped. */
const RETIRE_GRACE_MS = 2000;

/** A pool whose worker failed at start-up is replaced after this, doubling while failures repeat. */
const RESTART_BASE_MS = 50;
const RESTART_MAX_MS = 5000;

export function createTextPool(config: WorkerConfig, options: TextPoolOptions): TextPool {
  const { threads, nice, heapMb } = options;
  const priority = niceSettings(nice);
  const workerData: WorkerConfig = { ...config, threadNice: priority.threadNice };
  let failures = 0;
  let restart: NodeJS.Timeout | undefined;
  let destroyed = false;
  /**
   * Stops a pool once its workers have booted: one empty batch a worker (Piscina gives each to the
   * least busy worker, so one lands on each), answered once that worker has loaded its module; at
   * most `BOOT_WAIT_MS`, and a worker that failed to boot is not waited for.
   */
  const stop = async (pool: Piscina<JobBatch, WireAnswer>): Promise<void> => {
    const empty = encodeBatch([]);
    const booted = Promise.all(Array.from({ length: threads }, () => pool.run(empty))).then(
      () => undefined,
      () => undefined,
    );
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, BOOT_WAIT_MS);
      timer.unref();
    });
    await Promise.race([booted, late]);
    clearTimeout(timer);
    await pool.destroy();
  };
  const start = (): Piscina<JobBatch, WireAnswer> => {
    const pool = new Piscina<JobBatch, WireAnswer>({
      filename: workerFile('text-worker'),
      name: 'default',
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: 60_000,
      // One task a worker (see `TASKS_PER_WORKER`). Stuck workers are replaced by `recycle`, not
      // by aborting their task: no task carries an AbortSignal.
      concurrentTasksPerWorker: TASKS_PER_WORKER,
      // No run and wait histograms: nothing reads them, and they cost every task two records.
      recordTiming: false,
      // Applied per worker thread through piscina's optional native helper; where that helper
      // is not installed the workers keep the host's priority.
      niceIncrement: priority.niceIncrement,
      ...(heapMb === null ? {} : { resourceLimits: { maxOldGenerationSizeMb: heapMb } }),
      workerData,
    });
    // A worker that fails outside any task (at start-up) is reported here, not to a task:
    // unheard, the event would crash the host, and the pool would hold its queued batches.
    // The pool is replaced at once, after a backoff while failures repeat, without waiting
    // for a later request; its batches fail over to the new pool and are retried there.
    pool.on('error', () => {
      if (destroyed || pool !== current || restart !== undefined) return;
      const delay = Math.min(RESTART_MAX_MS, RESTART_BASE_MS * 2 ** failures++);
      restart = setTimeout(() => {
        restart = undefined;
        if (destroyed || pool !== current) return;
        current = start();
        void stop(pool).catch(() => undefined);
      }, delay);
      restart.unref();
    });
    return pool;
  };
  let current = start();
  const retiring = new Set<Promise<void>>();
  return {
    run: async (batch) => {
      const wires = await current.run(batch);
      const count = batch.paths.length;
      // Each job's outcome, then the batch's milliseconds in the worker: anything else (a worker
      // from an older build) fails the batch, whose reads are then retried one at a time.
      if (!Array.isArray(wires) || wires.length !== count + 1 || typeof wires[count] !== 'number') {
        throw new Error('the text worker answered in an unexpected shape (a stale build? run npm run build)');
      }
      const outcomes: PoolAnswers = [];
      for (let i = 0; i < count; i++) outcomes.push(decodeOutcome(wires[i] as WireOutcome, batch.paths[i] ?? ''));
      outcomes.workerMs = wires[count];
      wires.length = 0;
      failures = 0;
      return outcomes;
    },
    recycle: () => {
      const old = current;
      current = start();
      const stopped = new Promise<void>((resolve) => setTimeout(resolve, RETIRE_GRACE_MS).unref())
        .then(() => stop(old))
        .finally(() => retiring.delete(stopped));
      retiring.add(stopped);
    },
    threads,
    destroy: async () => {
      destroyed = true;
      clearTimeout(restart);
      await Promise.all([stop(current), ...retiring]);
    },
  };
}
