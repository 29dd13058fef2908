/**
 * Text pool worker entry, loaded by each pool thread (`text-host.ts`). Thin on purpose: compiles
 * the engine's config once, then runs each job of a batch through `readFile` and turns every
 * outcome into plain data.
 */
// The engine's config, which the pool hands each thread as its workerData.
import { workerData } from 'node:worker_threads';
import xxhash from 'xxhash-wasm';
import { primeSlicing } from '../src/core/slicer-priming.js';
import { createReaderContext } from '../src/io/reader-context.js';
import { createReadTools, readFile, type ReadTools } from '../src/io/read-file.js';
import { Deferral, failureOf } from '../src/io/refusal.js';
import { lowerThreadPriority } from '../src/io/thread-priority.js';
import {
  BATCH_BYTES,
  CANCEL,
  decodeJob,
  encodeOutcome,
  type JobBatch,
  type PoolAnswer,
  type TextJob,
  type WireAnswer,
  type WireOutcome,
  type WorkerConfig,
} from '../src/wire.js';

const config = workerData as WorkerConfig;
lowerThreadPriority(config.threadNice);
const context = createReaderContext(config);

function runJob(tools: ReadTools, job: TextJob): PoolAnswer {
  const cancelled = () => {
    const flag = Atomics.load(config.cancel, job.slot);
    if (flag === CANCEL.aborted) return 'aborted';
    if (flag === CANCEL.timeout || Date.now() > job.deadline) return 'timeout';
    return null;
  };
  const early = cancelled();
  if (early !== null) return { ok: false, code: early, details: { skipped: true } };
  try {
    return { ok: true, value: readFile(context, tools, job, cancelled) };
  } catch (error) {
    if (error instanceof Deferral) return { resend: error.size };
    return failureOf(error);
  }
}

/**
 * The batch handler, once xxhash's WebAssembly is instantiated: the pool's thread awaits a
 * promised default export before it takes its first batch. No top-level await, so that the build can
 * bundle this worker as CommonJS, which a worker thread loads without starting Node's ES module
 * loader (about 5 ms of each worker's boot, on the way to the engine's first answer).
 */
export default xxhash().then((api) => {
  const tools = createReadTools(api);
  primeSlicing(config.render, config.maxLineChars, tools.scratch, tools.feeds);
  return (batch: JobBatch): WireAnswer => runBatch(tools, batch);
});

function runBatch(tools: ReadTools, batch: JobBatch): WireAnswer {
  const started = performance.now();
  // Bytes of the files this batch has read: an unsized read that would take it past BATCH_BYTES
  // is deferred (sent again sized, so the host packs it as it packs sized reads).
  let bytes = 0;
  const answer: (WireOutcome | number)[] = batch.paths.map((path, index) => {
    let job = decodeJob(batch, index, config);
    if (job.deferAbove !== Infinity && bytes > 0) job = { ...job, deferAbove: Math.min(job.deferAbove, BATCH_BYTES - bytes + 1) };
    const outcome = runJob(tools, job);
    if ('ok' in outcome && outcome.ok) bytes += outcome.value.size;
    return encodeOutcome(outcome, path);
  });
  answer.push(performance.now() - started);
  return answer as WireAnswer;
}
