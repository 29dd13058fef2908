import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { decodeOutcome, type JobBatch, type JobOutcome, type WireOutcome, type WorkerConfig } from './wire.js';

export interface TextPool {
  /** Aborting `signal` while the batch runs terminates its worker; piscina starts a new one. */
  run(batch: JobBatch, signal: AbortSignal): Promise<JobOutcome[]>;
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

export function createTextPool(config: WorkerConfig, options: TextPoolOptions): TextPool {
  const { threads, nice, heapMb } = options;
  const pool = new Piscina<JobBatch, WireOutcome[]>({
    filename: workerFile('text-worker'),
    name: 'default',
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 60_000,
    // Two tasks per worker: the next batch already waits in the worker's port when one ends,
    // so a worker does not idle through the round trip to the main thread (measured: +5%).
    concurrentTasksPerWorker: 2,
    // Applied per worker thread through piscina's optional native helper; where that helper
    // is not installed the workers keep the host's priority.
    niceIncrement: nice,
    ...(heapMb === null ? {} : { resourceLimits: { maxOldGenerationSizeMb: heapMb } }),
    workerData: config,
  });
  return {
    run: async (batch, signal) => (await pool.run(batch, { signal })).map(decodeOutcome),
    threads,
    destroy: () => pool.destroy(),
  };
}
