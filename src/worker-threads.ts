/**
 * `node:worker_threads`, loaded when the engine starts its first thread rather than with the
 * package, which `import('readpool')` and a one-read `readpool read` (which may start no thread
 * at all) would otherwise load up front: 3.6 ms to `require` in a bare process, about 1 ms of
 * `import('readpool')` in process (30.2 against 31.3 ms, medians of 16 alternating).
 */
import { createRequire } from 'node:module';
import type * as NodeWorkerThreads from 'node:worker_threads';

type WorkerThreads = typeof NodeWorkerThreads;

let loaded: WorkerThreads | null = null;

export function workerThreads(): WorkerThreads {
  loaded ??= createRequire(import.meta.url)('node:worker_threads') as WorkerThreads;
  return loaded;
}
