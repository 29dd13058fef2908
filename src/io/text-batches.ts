/**
 * The text pool's batch handler: runs each job of a batch through `readFile` and turns every
 * outcome into plain data. Each pool thread runs one (`workers/text-worker.ts`); so does the host
 * thread, for the engine's first small batches while no thread has started (`HostBatches` in
 * `src/host-batches.ts`).
 */
import xxhash from 'xxhash-wasm';
import { precompileLineFeeds } from '../core/line-feeds.js';
import { precompileRegionRenderer } from '../core/region-renderer.js';
import { primeSlicing } from '../core/slicer-priming.js';
import {
  BATCH_BYTES,
  CANCEL,
  decodeJob,
  encodeOutcome,
  type HashAnswer,
  type JobBatch,
  type PoolAnswer,
  type TextJob,
  type WireAnswer,
  type WireOutcome,
  type WorkerConfig,
} from '../wire.js';
import { createReaderContext, type ReaderContext } from './reader-context.js';
import { createReadTools, hashFile, readFile, type ReadTools } from './read-file.js';
import { Deferral, failureOf } from './refusal.js';

/** Answers a batch; null when it declines it (see `BatchHandlerOptions.maxBatchBytes`). */
export type BatchHandler = (batch: JobBatch) => WireAnswer | null;

export interface BatchHandlerOptions {
  /** Slice a few samples first, so the slicing code has type feedback before the first read (worker threads). */
  readonly prime: boolean;
  /**
   * The most bytes of files one batch reads, or Infinity: the host thread's cap. A batch with a
   * file that would take it past the cap, and that a worker would read, is declined whole (the
   * handler returns null) and left for a worker, so that where a batch runs changes no answer.
   */
  readonly maxBatchBytes: number;
}

/** Resolves once xxhash's WebAssembly is instantiated and the reader's own modules compiled. */
export function createBatchHandler(config: WorkerConfig, options: BatchHandlerOptions): Promise<BatchHandler> {
  const context = createReaderContext(config);
  return Promise.all([xxhash(), precompileLineFeeds(), precompileRegionRenderer()]).then(([api]) => {
    const tools = createReadTools(api);
    if (options.prime) primeSlicing(config.render, config.maxLineChars, tools.scratch, tools.feeds);
    return (batch: JobBatch): WireAnswer | null => runBatch(config, context, tools, batch, options.maxBatchBytes);
  });
}

function runJob(config: WorkerConfig, context: ReaderContext, tools: ReadTools, job: TextJob): PoolAnswer | HashAnswer {
  const cancelled = () => {
    const flag = Atomics.load(config.cancel, job.slot);
    if (flag === CANCEL.aborted) return 'aborted';
    if (flag === CANCEL.timeout || Date.now() > job.deadline) return 'timeout';
    return null;
  };
  const early = cancelled();
  if (early !== null) return { ok: false, code: early, details: { skipped: true } };
  try {
    if (job.hash === 'only') return hashFile(context, tools, job, cancelled);
    return { ok: true, value: readFile(context, tools, job, cancelled) };
  } catch (error) {
    if (error instanceof Deferral) return { resend: error.size };
    return failureOf(error);
  }
}

function runBatch(config: WorkerConfig, context: ReaderContext, tools: ReadTools, batch: JobBatch, maxBatchBytes: number): WireAnswer | null {
  const started = performance.now();
  // Bytes of the files this batch has read: an unsized read that would take it past BATCH_BYTES
  // is deferred (sent again sized, so the host packs it as it packs sized reads).
  let bytes = 0;
  const answer: (WireOutcome | number)[] = [];
  for (let index = 0; index < batch.paths.length; index++) {
    const decoded = decodeJob(batch, index, config);
    // Where a worker defers the job, and where this handler does (lower on the host, see `maxBatchBytes`).
    const deferAbove = decoded.deferAbove !== Infinity && bytes > 0 ? Math.min(decoded.deferAbove, BATCH_BYTES - bytes + 1) : decoded.deferAbove;
    const deferHere = Math.min(deferAbove, maxBatchBytes - bytes + 1);
    const job = deferHere === decoded.deferAbove ? decoded : { ...decoded, deferAbove: deferHere };
    const outcome = runJob(config, context, tools, job);
    if ('resend' in outcome && outcome.resend < deferAbove) return null;
    if ('ok' in outcome && outcome.ok) bytes += outcome.value.size;
    answer.push(encodeOutcome(outcome, batch.paths[index] ?? ''));
  }
  answer.push(performance.now() - started);
  return answer as WireAnswer;
}
