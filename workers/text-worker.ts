/**
 * Text pool worker entry, loaded by each pool thread (`text-host.ts`). Thin on purpose: lowers
 * the thread's priority and builds the batch handler (`src/io/text-batches.ts`) from the
 * engine's config, which the pool hands each thread as its workerData.
 */
import { workerData } from 'node:worker_threads';
import { createBatchHandler } from '../src/io/text-batches.js';
import { lowerThreadPriority } from '../src/io/thread-priority.js';
import type { WorkerConfig } from '../src/wire.js';

const config = workerData as WorkerConfig;
lowerThreadPriority(config.threadNice);

/**
 * The batch handler, once xxhash's WebAssembly is instantiated: the pool's thread awaits a
 * promised default export before it takes its first batch. No top-level await, so that the build can
 * bundle this worker as CommonJS, which a worker thread loads without starting Node's ES module
 * loader (about 5 ms of each worker's boot, on the way to the engine's first answer).
 */
export default createBatchHandler(config, { prime: true, maxBatchBytes: Infinity });
