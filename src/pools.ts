import type { ResolvedOptions } from './options.js';
import { RENDER } from './dialects/readpool.js';
import { MediaPool } from './media-pool.js';
import type { Sandbox } from './sandbox.js';
import { createTextPool, type TextPool } from './text-pool.js';

/** Media tasks a media worker runs before it is replaced (mupdf's WASM heap never shrinks). */
const MEDIA_RECYCLE_TASKS = 200;
/** An idle media pool stops its worker after this long. */
const MEDIA_IDLE_MS = 30_000;
/** Notebooks are parsed whole as JSON; larger ones are refused before parsing. */
const MAX_NOTEBOOK_BYTES = 20 * 1024 * 1024;

/**
 * Starts the text pool's workers now, unless they start when needed (they boot while the caller
 * goes on, and the host thread answers small reads until one is ready), and sets up the media
 * pool, which starts on the first media read.
 * `cancelSlots` is the number of reads that can be in flight, each with a shared cancel flag.
 */
export function startPools(resolved: ResolvedOptions, sandbox: Sandbox, cancelSlots: number): { pool: TextPool; media: MediaPool; cancel: Int32Array } {
  const cancel = new Int32Array(new SharedArrayBuffer(4 * cancelSlots));
  const deny = sandbox.denyRules;
  const pool = createTextPool(
    {
      roots: sandbox.roots,
      deny,
      maxFileBytes: resolved.maxFileBytes,
      maxBinaryBytes: resolved.maxBinaryBytes,
      maxLineChars: resolved.maxLineChars,
      settleMs: resolved.settleMs,
      render: RENDER,
      cancel,
    },
    { threads: resolved.threads, nice: resolved.workerNice, heapMb: resolved.workerHeapMb, hostBatches: true, start: resolved.startThreads },
  );
  const media = new MediaPool(
    {
      roots: sandbox.roots,
      deny,
      maxFileBytes: resolved.maxMediaBytes,
      maxBinaryBytes: resolved.maxBinaryBytes,
      budget: { maxBase64Bytes: resolved.maxImageBytes, maxSide: resolved.maxImageSide, maxPixels: resolved.maxImagePixels, timeoutSeconds: 30 },
      maxNotebookBytes: MAX_NOTEBOOK_BYTES,
      render: RENDER,
    },
    {
      threads: resolved.mediaThreads,
      nice: resolved.workerNice,
      heapMb: resolved.workerHeapMb,
      idleTimeoutMs: MEDIA_IDLE_MS,
      recycleAfterTasks: MEDIA_RECYCLE_TASKS,
    },
  );
  return { pool, media, cancel };
}
