/**
 * `node:worker_threads`, loaded when the engine starts its first thread rather than with the
 * package: loading it costs about 4 ms, which `import('readpool')` and a one-read `readpool read`
 * (which may start no thread at all) would otherwise pay up front.
 */
import { createRequire } from 'node:module';
import type * as NodeWorkerThreads from 'node:worker_threads';

type WorkerThreads = typeof NodeWorkerThreads;

let loaded: WorkerThreads | null = null;

export function workerThreads(): WorkerThreads {
  loaded ??= createRequire(import.meta.url)('node:worker_threads') as WorkerThreads;
  return loaded;
}
