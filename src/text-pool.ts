import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { decodeOutcome, type JobBatch, type JobOutcome, type WireOutcome, type WorkerConfig } from './wire.js';

export interface TextPool {
  run(batch: JobBatch): Promise<JobOutcome[]>;
  /**
   * Replaces the workers: new batches go to fresh ones, and the old ones are stopped after a
   * grace period (batches still running on them then fail, and are retried by the
   * scheduler). For a worker stuck in a system call, which nothing else can reach.
   */
  recycle(): void;
  readonly threads: number;
  destroy(): Promise<void>;
}

/**
 * The compiled worker entry. From the build (`dist/src/*.js`) it sits beside us; when the
 * engine runs from its TypeScript sources (the test runner), workers still run the build,
 * because worker threads cannot load TypeScript on Node 20.
 */
export function workerFile(name: string): string {
  const fromBuild = import.meta.url.endsWith('.js');
  const url = new URL(fromBuild ? `../workers/${name}.js` : `../dist/workers/${name}.js`, import.meta.url);
  const file = fileURLToPath(url);
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

/** How long retired workers may finish what they hold before they are stopped. */
const RETIRE_GRACE_MS = 2000;

export function createTextPool(config: WorkerConfig, options: TextPoolOptions): TextPool {
  const { threads, nice, heapMb } = options;
  const start = () =>
    new Piscina<JobBatch, WireOutcome[]>({
      filename: workerFile('text-worker'),
      name: 'default',
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: 60_000,
      // Two tasks per worker: the next batch already waits in the worker's port when one ends,
      // so a worker does not idle through the round trip to the main thread (measured: +5%).
      // Piscina gives a second task only to workers whose tasks carry no AbortSignal, which
      // is why stuck workers are replaced by `recycle`, not by aborting their task.
      concurrentTasksPerWorker: 2,
      // Applied per worker thread through piscina's optional native helper; where that helper
      // is not installed the workers keep the host's priority.
      niceIncrement: nice,
      ...(heapMb === null ? {} : { resourceLimits: { maxOldGenerationSizeMb: heapMb } }),
      workerData: config,
    });
  let current = start();
  const retiring = new Set<Promise<void>>();
  return {
    run: async (batch) => (await current.run(batch)).map((wire, i) => decodeOutcome(wire, batch.paths[i] ?? '')),
    recycle: () => {
      const old = current;
      current = start();
      const stopped = new Promise<void>((resolve) => setTimeout(resolve, RETIRE_GRACE_MS).unref())
        .then(() => old.destroy())
        .finally(() => retiring.delete(stopped));
      retiring.add(stopped);
    },
    threads,
    destroy: async () => {
      await Promise.all([current.destroy(), ...retiring]);
    },
  };
}
