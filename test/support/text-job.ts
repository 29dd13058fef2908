import { RENDER } from '../../src/dialects/readpool.js';
import type { SliceLimits } from '../../src/core/line-slicer.js';
import type { TextJob } from '../../src/wire.js';

/**
 * A job as the text worker runs it, for tests that call `readFile` without a pool: the native
 * render, no seek hint, never deferred, no deadline, cancel slot 0, the xxh64 computed by the
 * read; the window's limits at the engine's defaults unless given.
 */
export function textJob(file: string, limits: Partial<SliceLimits> = {}): TextJob {
  return {
    path: file,
    limits: { offset: 1, limit: 2000, maxBytes: 256 * 1024, maxTokens: 25_000, maxLineChars: 2000, ...limits },
    render: RENDER,
    allowBinary: false,
    sha256: false,
    encoding: 'auto',
    hint: null,
    deferAbove: Infinity,
    deadline: Number.MAX_SAFE_INTEGER,
    slot: 0,
    hash: 'inline',
    settleMs: 0,
  };
}
