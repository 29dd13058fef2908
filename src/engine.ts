import { describeError, describeWindow, RENDER } from './dialects/readpool.js';
import { ReadError, type ErrorDetails, type ReadErrorCode } from './errors.js';
import { resolveOptions, type EngineOptions, type ResolvedOptions } from './options.js';
import { parseRequest, type ParsedRequest, type ReadRequest } from './request.js';
import type { ReadResult, TextResult } from './result.js';
import { Sandbox } from './sandbox.js';
import { Scheduler, type SchedulerStats } from './scheduler.js';
import { createTextPool, type TextPool } from './text-pool.js';
import type { FilePayload, JobSpec, TextPayload } from './wire.js';

/** Pool tasks in flight: two per thread, so a worker's next batch is already waiting for it. */
function inFlightBatches(threads: number): number {
  return threads * 2;
}

/**
 * How long a batch may outlive all its reads (answered by abort or timeout) before its worker
 * is taken for stuck in a system call and the workers are recycled. Healthy workers stop at
 * the next chunk they poll, within milliseconds; a large base64 read polls only at its end.
 */
const STUCK_GRACE_MS = 2000;

/** How long `close()` waits for reads already in workers. */
const CLOSE_GRACE_MS = 5000;

/** Index of the native dialect's render spec in `WorkerConfig.renders`. */
const NATIVE_RENDER = 0;

export interface CallOptions {
  /** Cancels the read: a queued read is dropped, a running one stops at its next chunk. */
  readonly signal?: AbortSignal;
}

/** One entry of `readMany`'s answer, in request order. */
export type ReadSettled =
  | { readonly ok: true; readonly request: ReadRequest; readonly result: ReadResult }
  | { readonly ok: false; readonly request: ReadRequest; readonly error: ReadError };

export interface EngineStats extends SchedulerStats {
  readonly threads: number;
  readonly roots: readonly string[];
  readonly answered: number;
  /** Errors answered so far, by code. */
  readonly errors: Readonly<Partial<Record<ReadErrorCode, number>>>;
  readonly closed: boolean;
}

/**
 * A sandboxed read engine over a worker pool. Create it with {@link createEngine}.
 */
export class Engine {
  readonly #options: ResolvedOptions;
  readonly #sandbox: Sandbox;
  readonly #pool: TextPool;
  readonly #scheduler: Scheduler;
  readonly #errors: Partial<Record<ReadErrorCode, number>> = {};
  #answered = 0;
  #closing: Promise<void> | null = null;

  /** @internal use {@link createEngine} */
  constructor(options: ResolvedOptions, sandbox: Sandbox, pool: TextPool, cancel: Int32Array) {
    this.#options = options;
    this.#sandbox = sandbox;
    this.#pool = pool;
    this.#scheduler = new Scheduler({
      maxQueued: options.maxQueued,
      batchSize: options.batchSize,
      maxInFlight: inFlightBatches(options.threads),
      run: (batch) => pool.run(batch),
      recycle: () => pool.recycle(),
      stuckGraceMs: STUCK_GRACE_MS,
      cancel,
    });
  }

  /**
   * Reads one file. Resolves with a result discriminated on `kind`, or rejects with a
   * {@link ReadError} whose message tells a model what to do next.
   *
   * @example
   * const page = await engine.read({ path: 'logs/app.log', offset: 2001, limit: 2000 });
   * if (page.kind === 'text' && page.truncated) console.log(page.truncated.nextOffset);
   */
  async read(request: ReadRequest, call: CallOptions = {}): Promise<ReadResult> {
    try {
      const result = await this.#read(request, call.signal);
      this.#answered++;
      return result;
    } catch (error) {
      const readError =
        error instanceof ReadError ? error : new ReadError('internal', describeError('internal', { message: String(error) }, subjectOf(request)));
      this.#answered++;
      this.#errors[readError.code] = (this.#errors[readError.code] ?? 0) + 1;
      throw readError;
    }
  }

  /** Reads many files at once; never rejects: each entry holds its own result or error. */
  async readMany(requests: readonly ReadRequest[], call: CallOptions = {}): Promise<ReadSettled[]> {
    return Promise.all(
      requests.map((request) =>
        this.read(request, call).then(
          (result): ReadSettled => ({ ok: true, request, result }),
          (error: unknown): ReadSettled => ({ ok: false, request, error: error as ReadError }),
        ),
      ),
    );
  }

  stats(): EngineStats {
    return {
      ...this.#scheduler.stats(),
      threads: this.#pool.threads,
      roots: this.#sandbox.roots,
      answered: this.#answered,
      errors: { ...this.#errors },
      closed: this.#closing !== null,
    };
  }

  /**
   * Answers queued reads with `closed`, lets running ones finish (for up to 5 seconds; any
   * still running then are answered with `closed`), then stops the workers.
   */
  close(): Promise<void> {
    this.#closing ??= this.#scheduler.close(CLOSE_GRACE_MS).then(() => destroyWithin(this.#pool, CLOSE_GRACE_MS));
    return this.#closing;
  }

  async #read(request: ReadRequest, signal: unknown): Promise<ReadResult> {
    const subject = subjectOf(request);
    if (this.#closing !== null) throw fail('closed', {}, subject);
    if (signal !== undefined && !isAbortSignal(signal)) {
      throw fail('invalid_request', { issues: ['signal: must be an AbortSignal'] }, subject);
    }
    const parsed = parseRequest(request, this.#options);
    if (!parsed.ok) throw fail('invalid_request', { issues: parsed.issues }, subject);
    const located = this.#sandbox.locate(parsed.request.path);
    if (!located.ok) throw fail(located.code, located.details, subject);
    const job = this.#job(parsed.request, located.absolute);
    const outcome = await this.#scheduler.submit(job, parsed.request.timeoutMs, signal);
    if (!outcome.ok) {
      // A worker that meets the deadline first knows the time, not the budget: add it.
      const details = outcome.code === 'timeout' ? { ...outcome.details, timeoutMs: parsed.request.timeoutMs } : outcome.details;
      throw fail(outcome.code, details, subject);
    }
    return this.#result(outcome.value, parsed.request);
  }

  #job(request: ParsedRequest, absolute: string): JobSpec {
    return {
      path: absolute,
      offset: request.offset,
      limit: request.limit,
      maxBytes: request.maxBytes,
      maxTokens: request.maxTokens,
      allowBinary: request.allowBinary,
      sha256: request.sha256,
      deadline: Date.now() + request.timeoutMs,
      render: NATIVE_RENDER,
    };
  }

  #result(payload: FilePayload, request: ParsedRequest): ReadResult {
    if (payload.kind === 'binary') return payload;
    return textResult(payload, request, this.#options);
  }
}

function textResult(payload: TextPayload, request: ParsedRequest, options: ResolvedOptions): TextResult {
  const notice = describeWindow(payload, {
    limit: request.limit,
    maxBytes: request.maxBytes,
    maxTokens: request.maxTokens,
    maxLineChars: options.maxLineChars,
  });
  // Built field by field: object rest/spread is measurably slow on this hot path.
  return {
    kind: 'text',
    path: payload.path,
    relativePath: payload.relativePath,
    content: payload.content,
    startLine: payload.startLine,
    endLine: payload.endLine,
    totalLines: payload.totalLines,
    truncated: payload.stop === null ? false : { reason: payload.stop, nextOffset: payload.endLine + 1 },
    notice,
    cutLines: payload.cutLines,
    encoding: payload.encoding,
    bom: payload.bom,
    lineEnding: payload.lineEnding,
    size: payload.size,
    mtimeMs: payload.mtimeMs,
    version: payload.version,
    xxh64: payload.xxh64,
    sha256: payload.sha256,
  };
}

/**
 * Stops the workers, waiting at most `ms`: a thread stuck in a system call cannot be stopped
 * until the call returns, and must not hang the host's shutdown. Such a thread is left behind.
 */
async function destroyWithin(pool: TextPool, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  await Promise.race([pool.destroy(), late]);
  clearTimeout(timer);
}

/** An AbortSignal, also from another realm or a faithful polyfill (duck-typed, as Node does). */
function isAbortSignal(value: unknown): value is AbortSignal {
  if (value instanceof AbortSignal) return true;
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<'aborted' | 'addEventListener' | 'removeEventListener', unknown>>;
  return (
    typeof candidate.aborted === 'boolean' &&
    typeof candidate.addEventListener === 'function' &&
    typeof candidate.removeEventListener === 'function'
  );
}

function subjectOf(request: unknown): string {
  if (typeof request === 'object' && request !== null && 'path' in request && typeof request.path === 'string') {
    return request.path;
  }
  return '(no path)';
}

function fail(code: ReadErrorCode, details: ErrorDetails, subject: string): ReadError {
  return new ReadError(code, describeError(code, details, subject), details);
}

/**
 * Creates an engine confined to `options.root` (or `options.roots`) and starts its workers.
 * Throws a TypeError naming the option when an option is invalid.
 *
 * @example
 * const engine = await createEngine({ root: '/srv/workspace' });
 * const result = await engine.read({ path: 'src/app.ts' });
 * await engine.close();
 */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  const resolved = resolveOptions(options);
  const sandbox = await Sandbox.create(resolved);
  const cancel = new Int32Array(new SharedArrayBuffer(4 * inFlightBatches(resolved.threads) * resolved.batchSize));
  const pool = createTextPool(
    {
      roots: sandbox.roots,
      denySecrets: resolved.denySecrets,
      deny: resolved.deny,
      maxFileBytes: resolved.maxFileBytes,
      maxBinaryBytes: resolved.maxBinaryBytes,
      maxLineChars: resolved.maxLineChars,
      renders: [RENDER],
      cancel,
    },
    { threads: resolved.threads, nice: resolved.workerNice, heapMb: resolved.workerHeapMb },
  );
  return new Engine(resolved, sandbox, pool, cancel);
}
