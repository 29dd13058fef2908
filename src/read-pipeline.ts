import { LRUCache } from 'lru-cache';
import { FactsCache, seekHint } from './cache/file-facts.js';
import type { ReadMark, SessionLedger } from './cache/sessions.js';
import { findRoot } from './core/containment.js';
import { describeError } from './dialects/readpool.js';
import { describeStub } from './dialects/readpool-notices.js';
import { ReadError, type ErrorDetails, type ReadErrorCode } from './errors.js';
import { statFile } from './io/probe.js';
import type { MediaLane } from './media-lane.js';
import { kindByName } from './media/kind.js';
import type { MediaPayload } from './media/wire.js';
import type { ResolvedOptions } from './options.js';
import type { ReadLedger } from './read-ledger.js';
import { parseFast, parseWithSchema, withDefaults, type ParsedRequest, type ReadRequest } from './request.js';
import type { ReadResult, UnchangedResult } from './result.js';
import { isDefaultShape, isSettled, rangeOf, shapeOf, VersionMemo } from './result-keys.js';
import { markOf, mediaResult, resultBytes, textResult } from './result-of.js';
import type { Sandbox } from './sandbox.js';
import type { CancelHook, Scheduler } from './scheduler.js';
import { SingleFlight, type Flight, type Outcome } from './single-flight.js';
import type { TurnGate, GateEntry } from './turn-gate.js';
import type { FilePayload, JobSpec, SeekHint } from './wire.js';

/** Memory for line indexes and hashes of file versions (small: 16 bytes an index entry). */
const FACTS_BYTES = 32 * 1024 * 1024;

/** What a seek-hinted read is charged against `maxQueuedBytes`: about a page, not the file. */
const SEEK_COST_BYTES = 4 * 1024 * 1024;

/** What the pipeline works with, owned by the engine. */
export interface PipelineParts {
  readonly options: ResolvedOptions;
  readonly sandbox: Sandbox;
  readonly scheduler: Scheduler;
  readonly gate: TurnGate;
  readonly media: MediaLane;
  readonly sessions: SessionLedger;
  readonly ledger: ReadLedger;
  /** True once the engine is closing: reads are answered `closed`. */
  readonly closing: () => boolean;
}

/**
 * One read from request to result: validate, locate in the sandbox, wait at the gate, then
 * answer from a session's stub, the result cache or a flight already under way, or start the
 * work in a pool. Everything on this path runs once per read on the host thread, so it keeps
 * to a stat, a few map lookups and one result object.
 */
export class ReadPipeline {
  readonly #p: PipelineParts;
  readonly results: LRUCache<string, ReadResult> | null;
  readonly facts = new FactsCache(FACTS_BYTES);
  readonly flights = new SingleFlight();
  readonly #versions = new VersionMemo();
  /** A request of only a path, and its range and shape strings, built once. */
  readonly #plain: ParsedRequest;
  readonly #plainRange: string;
  readonly #plainShape: string;

  constructor(parts: PipelineParts) {
    this.#p = parts;
    this.#plain = withDefaults({ path: '' }, parts.options);
    this.#plainRange = rangeOf(this.#plain);
    this.#plainShape = shapeOf(this.#plain, this.#plainRange);
    this.results =
      parts.options.cacheBytes === 0 ? null : new LRUCache<string, ReadResult>({ maxSize: parts.options.cacheBytes, sizeCalculation: resultBytes });
  }

  async read(request: ReadRequest, signal: AbortSignal | undefined): Promise<ReadResult> {
    const { options, sandbox, scheduler, gate, media, sessions, ledger } = this.#p;
    const subject = subjectOf(request);
    if (this.#p.closing()) throw fail('closed', {}, subject);
    if (signal?.aborted === true) throw fail('aborted', { stage: 'queued' }, subject);
    // Synchronous for a plainly valid request (no turn lost); the schema words the rest.
    let req = parseFast(request, options);
    if (req === null) {
      const parsed = await parseWithSchema(request, options);
      if (!parsed.ok) throw fail('invalid_request', { issues: parsed.issues }, subject);
      req = parsed.request;
    }
    const located = sandbox.locate(req.path);
    if (!located.ok) throw fail(located.code, located.details, subject);
    const absolute = located.absolute;
    if (req.within !== null && findRoot(req.within, absolute) === null) throw fail('outside_root', { roots: req.within }, subject);
    // Reads held at the gate and media reads count as queued: `maxQueued` bounds them all.
    const waiting = gate.waiting + scheduler.queued + media.pending;
    if (waiting >= options.maxQueued) {
      throw fail('overloaded', { queued: waiting, retryAfterMs: scheduler.retryAfterMs(waiting) }, subject);
    }
    const deadline = Date.now() + req.timeoutMs;
    const entry = gate.enter(req.session ?? '', deadline);
    if (entry !== null) {
      await waitAtGate(entry, signal, req.timeoutMs, subject);
      // The signal may have fired between admission and this continuation.
      if (isAborted(signal)) throw fail('aborted', { stage: 'queued' }, subject);
    }
    if (this.#p.closing()) throw fail('closed', {}, subject);
    const startedAt = Date.now();
    const remainingMs = Math.max(1, deadline - startedAt);
    // One stat on this thread gives the version every cache is keyed by. Anything that is not a
    // plain regular file (missing, a link loop, a FIFO) goes to a worker, which owns the
    // sandbox's verdicts; a cache entry only ever comes from a read that passed them.
    const stat = statFile(absolute);
    if (stat === null) {
      const kind = req.media ? kindByName(absolute) : null;
      if (kind !== null) return this.#settled(await media.run(req, absolute, kind, deadline, remainingMs, signal), req, subject);
      const outcome = await scheduler.submit(this.#job(req, absolute, null, deadline), remainingMs, signal, req.session ?? '');
      return this.#settled(await media.rerouted(outcome, req, absolute, deadline, remainingMs, signal), req, subject);
    }
    const version = this.#versions.key(absolute, stat);
    const plain = isDefaultShape(req, this.#plain);
    const range = plain ? this.#plainRange : rangeOf(req);
    const session = req.session;
    // No check of the path's canonical place before a cache answers (README, Sandbox: what a
    // cache may serve): a hit needs the same inode at the same version, so its bytes are the
    // bytes a worker already served from inside a root.
    const held = session === null || req.fresh ? undefined : sessions.range(session, absolute, range);
    if (held !== undefined) {
      if (held.settled && held.version === version) return this.#stub(held, 'same_version');
      // Facts are only kept for settled versions: a match means the same bytes.
      const known = this.facts.get(version);
      if (known !== undefined && known.xxh64 === held.xxh64) {
        ledger.hashHits++;
        held.version = version;
        held.settled = true;
        return this.#stub(held, 'same_content');
      }
    }
    const shape = plain ? this.#plainShape : shapeOf(req, range);
    const key = `${absolute}|${version}|${shape}`;
    let result = this.results?.get(key);
    if (result !== undefined) ledger.resultHits++;
    else result = await this.#shared(key, shape, req, absolute, version, Number(stat.size), signal, subject, startedAt, remainingMs);
    if (session === null || result.kind === 'unchanged') return result;
    const settled = isSettled(result.version, startedAt, options.settleMs);
    if (held !== undefined && held.path === result.path && result.xxh64 !== null && result.xxh64 === held.xxh64) {
      held.version = result.version;
      held.settled = settled;
      return this.#stub(held, 'same_content');
    }
    sessions.record(session, absolute, range, markOf(result, settled));
    return result;
  }

  /** Answers from a read's outcome, or throws its error. */
  #settled(outcome: Outcome, req: ParsedRequest, subject: string): ReadResult {
    if (!outcome.ok) throw this.#failure(outcome, req, subject);
    return this.#result(outcome.value, req);
  }

  #failure(outcome: Extract<Outcome, { ok: false }>, req: ParsedRequest, subject: string): ReadError {
    // A worker that meets the deadline first knows the time, not the budget: add it.
    const details = outcome.code === 'timeout' ? { ...outcome.details, timeoutMs: req.timeoutMs } : outcome.details;
    return fail(outcome.code, details, subject);
  }

  /**
   * The result for `key`, read once however many callers ask for it at the same time. Each
   * caller keeps its own deadline and signal; the work is cancelled only when all have left.
   */
  async #shared(
    key: string,
    shape: string,
    req: ParsedRequest,
    absolute: string,
    version: string,
    size: number,
    signal: AbortSignal | undefined,
    subject: string,
    startedAt: number,
    remainingMs: number,
  ): Promise<ReadResult> {
    let flight = this.flights.get(key);
    if (flight !== undefined) this.#p.ledger.singleFlightJoins++;
    else {
      this.#p.ledger.resultMisses++;
      flight = this.#start(key, shape, req, absolute, version, size, startedAt);
    }
    const outcome = await this.flights.join(flight, remainingMs, req.timeoutMs, signal);
    if (!outcome.ok) throw this.#failure(outcome, req, subject);
    flight.result ??= this.#result(outcome.value, req);
    return flight.result;
  }

  #start(key: string, shape: string, req: ParsedRequest, absolute: string, version: string, size: number, startedAt: number): Flight {
    const { options, scheduler, media } = this.#p;
    const known = req.sha256 ? undefined : this.facts.get(version);
    const seek = known === undefined ? null : seekHint(version, known, req.offset);
    if (seek !== null) this.#p.ledger.lineIndexHits++;
    const deadline = Date.now() + options.timeoutMs;
    const cost = seek === null ? size : Math.min(size, SEEK_COST_BYTES);
    const kind = req.media ? kindByName(absolute) : null;
    let work: Promise<Outcome>;
    let cancel: () => void;
    if (kind === null) {
      // No timer and no AbortController of its own (both cost on every read): each waiter has
      // its own deadline, and the last to leave cancels the work through the hook.
      const hook: CancelHook = {};
      let rerouteStop: AbortController | null = null;
      work = scheduler.submit(this.#job(req, absolute, seek, deadline), Infinity, undefined, req.session ?? '', cost, hook).then((outcome) => {
        if (outcome.ok || outcome.code !== 'binary_file') return outcome;
        rerouteStop = new AbortController();
        return media.rerouted(outcome, req, absolute, deadline, Math.max(1, deadline - Date.now()), rerouteStop.signal);
      });
      cancel = () => {
        hook.cancel?.();
        rerouteStop?.abort();
      };
    } else {
      const controller = new AbortController();
      work = media.run(req, absolute, kind, deadline, options.timeoutMs, controller.signal);
      cancel = () => controller.abort();
    }
    return this.flights.start(key, work, cancel, (flight, outcome) => {
      if (!outcome.ok) return;
      const payload = outcome.value;
      flight.result ??= this.#result(payload, req);
      // A version that may still be changing within one timestamp tick is not trusted later.
      if (!isSettled(payload.version, startedAt, options.settleMs)) return;
      if (payload.kind === 'text') this.facts.learn(payload);
      // Keyed by the version the worker read, which may be newer than the one stat saw.
      this.results?.set(payload.version === version ? key : `${absolute}|${payload.version}|${shape}`, flight.result);
    });
  }

  #stub(mark: ReadMark, reason: UnchangedResult['reason']): UnchangedResult {
    this.#p.ledger.stubHits++;
    return {
      kind: 'unchanged',
      reason,
      path: mark.path,
      relativePath: mark.relativePath,
      stub: describeStub(mark),
      startLine: mark.startLine,
      endLine: mark.endLine,
      totalLines: mark.totalLines,
      version: mark.version,
      xxh64: mark.xxh64,
      readAt: mark.readAt,
    };
  }

  /**
   * The job keeps the request's own offset (negative for a tail): a seek hint carries the line it
   * resolves to for its version, and the worker uses it only when the file still has that version.
   */
  #job(request: ParsedRequest, absolute: string, seek: SeekHint | null, deadline: number): JobSpec {
    return {
      path: absolute,
      offset: request.offset,
      limit: request.limit,
      column: request.column,
      maxBytes: request.maxBytes,
      maxTokens: request.maxTokens,
      allowBinary: request.allowBinary,
      media: request.media,
      sha256: request.sha256,
      deadline,
      render: request.render,
      hint: seek,
    };
  }

  #result(payload: FilePayload | MediaPayload, request: ParsedRequest): ReadResult {
    if (payload.kind === 'binary') return Object.freeze(payload);
    if (payload.kind === 'text') return textResult(payload, request, this.#p.options);
    return Object.freeze(mediaResult(payload, request, this.#p.options));
  }
}

/** Waits for the gate to admit a read; answers `aborted` or `timeout` if that comes first. */
async function waitAtGate(entry: GateEntry, signal: AbortSignal | undefined, timeoutMs: number, subject: string): Promise<void> {
  const onAbort = () => entry.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await entry.admitted;
  } catch (why) {
    const code = why === 'timeout' ? 'timeout' : 'aborted';
    throw fail(code, code === 'timeout' ? { timeoutMs, stage: 'queued' } : { stage: 'queued' }, subject);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

export function subjectOf(request: unknown): string {
  if (typeof request === 'object' && request !== null && 'path' in request && typeof request.path === 'string') {
    return request.path;
  }
  return '(no path)';
}

export function fail(code: ReadErrorCode, details: ErrorDetails, subject: string): ReadError {
  return new ReadError(code, describeError(code, details, subject), details);
}
