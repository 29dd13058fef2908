import type { MediaPool } from './media-pool.js';
import type { MediaKind } from './media/kind.js';
import type { MediaJob } from './media/wire.js';
import type { ResolvedOptions } from './options.js';
import type { ParsedRequest } from './request.js';
import type { Outcome } from './single-flight.js';

/**
 * Reads that go to the media pool: images, PDFs and notebooks by name, and files a text job
 * found to be media under a name that does not say so.
 */
export class MediaLane {
  readonly #pool: MediaPool;
  readonly #options: ResolvedOptions;

  constructor(pool: MediaPool, options: ResolvedOptions) {
    this.#pool = pool;
    this.#options = options;
  }

  /** Media reads waiting, counted against `maxQueued` with the rest. */
  get pending(): number {
    return this.#pool.pending;
  }

  /**
   * Runs one media read in the media pool, answering `aborted` or `timeout` when the signal or
   * the deadline comes first (the pool then stops that worker), and `internal` when the worker
   * died (out of memory): only this read fails, and the pool starts a fresh worker for the next.
   */
  async run(req: ParsedRequest, absolute: string, kind: MediaKind, deadline: number, timeoutMs: number, signal: AbortSignal | undefined): Promise<Outcome> {
    const job = this.#job(req, absolute, kind, deadline);
    const controller = new AbortController();
    let stop: 'aborted' | 'timeout' | null = null;
    const timer = setTimeout(() => {
      stop = 'timeout';
      controller.abort();
    }, timeoutMs);
    const onAbort = () => {
      stop = 'aborted';
      controller.abort();
    };
    if (signal?.aborted === true) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.#pool.run(job, controller.signal);
    } catch (error) {
      if (stop === 'timeout') return { ok: false, code: 'timeout', details: { timeoutMs, stage: 'running' } };
      if (stop === 'aborted') return { ok: false, code: 'aborted', details: { stage: 'running' } };
      return { ok: false, code: 'internal', details: { message: error instanceof Error ? error.message : String(error) } };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * A text job that found media under a name that does not say so (`binary_file` with
   * `details.media`) is run again in the media pool, as the kind its bytes announce.
   */
  rerouted(outcome: Outcome, req: ParsedRequest, absolute: string, deadline: number, timeoutMs: number, signal: AbortSignal | undefined): Promise<Outcome> | Outcome {
    if (!req.media || outcome.ok || outcome.code !== 'binary_file' || typeof outcome.details.media !== 'string') return outcome;
    const kind: MediaKind = outcome.details.media === 'pdf' ? 'pdf' : 'image';
    return this.run(req, absolute, kind, deadline, timeoutMs, signal);
  }

  #job(req: ParsedRequest, absolute: string, kind: MediaKind, deadline: number): MediaJob {
    return {
      path: absolute,
      kind,
      pages: req.pages,
      images: req.images,
      pdf: req.pdf,
      limits: { offset: Math.max(1, req.offset), limit: req.limit, maxBytes: req.maxBytes, maxTokens: req.maxTokens, maxLineChars: this.#options.maxLineChars },
      render: req.render,
      deadline,
    };
  }
}
