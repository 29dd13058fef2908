import { LRUCache } from 'lru-cache';
import { FactsCache } from './cache/file-facts.js';
import type { SessionLedger } from './cache/sessions.js';
import { findRoot } from './core/containment.js';
import { describeError } from './dialects/readpool.js';
import { ReadError } from './errors.js';
import { PendingRead, type MissingRead, type ReadAnswerer } from './pending-read.js';
import { RecentShapes } from './recent-shapes.js';
import { fail, failureOf } from './read-failure.js';
import { ReadIntake, type Admitted, type IntakeParts, type Reject, type Resolve } from './read-intake.js';
import type { ReadLedger } from './read-ledger.js';
import { AheadPages, nextPage } from './read-ahead.js';
import { ReadWork } from './read-work.js';
import { withDefaults, type ParsedRequest, type ReadRequest } from './request.js';
import type { ReadResult } from './result.js';
import { isDefaultShape, keysOf, rangeOf, shapeOf, type Place } from './result-keys.js';
import { resultBytes, resultOf } from './result-of.js';
import { UNSIZED } from './scheduler.js';
import { SessionAnswers } from './session-answers.js';
import { SingleFlight, type Flight, type Outcome } from './single-flight.js';
import { NOT_STATTED, type StatAnswer } from './stat-lane.js';

/** Memory for line indexes and hashes of file versions (small: 16 bytes an index entry). */
const FACTS_BYTES = 32 * 1024 * 1024;

/** What the pipeline works with, owned by the engine. */
export interface PipelineParts extends IntakeParts {
  readonly sessions: SessionLedger;
  readonly ledger: ReadLedger;
}

/**
 * One read from request to result: taken in by `ReadIntake` (validated, located in the sandbox,
 * past the gate), then answered from a session's stub, the result cache or a flight already
 * under way, or by new work in a pool. Everything on this path runs once per read on the host
 * thread, so it keeps to a stat, a few map lookups and one result object.
 */
export class ReadPipeline implements ReadAnswerer, Admitted {
  readonly #p: PipelineParts;
  readonly results: LRUCache<string, ReadResult> | null;
  readonly facts = new FactsCache(FACTS_BYTES);
  readonly flights = new SingleFlight();
  readonly ahead = new AheadPages();
  readonly #intake: ReadIntake;
  readonly #work: ReadWork;
  readonly #answers: SessionAnswers;
  /** A request of only a path, and its range and shape strings, built once. */
  readonly #plain: ParsedRequest;
  readonly #plainRange: string;
  readonly #plainShape: string;
  readonly #recent = new RecentShapes();

  constructor(parts: PipelineParts) {
    this.#p = parts;
    this.#plain = withDefaults({ path: '' }, parts.options);
    this.#plainRange = rangeOf(this.#plain);
    this.#plainShape = shapeOf(this.#plain, this.#plainRange);
    this.#intake = new ReadIntake(parts, this.#plainShape, this);
    this.results =
      parts.options.cacheBytes === 0 ? null : new LRUCache<string, ReadResult>({ maxSize: parts.options.cacheBytes, sizeCalculation: resultBytes });
    const { options, scheduler, media, ledger } = parts;
    this.#answers = new SessionAnswers(parts.sessions, parts.ledger, this.facts, parts.options.settleMs);
    this.#work = new ReadWork({ options, scheduler, media, ledger, flights: this.flights, facts: this.facts, results: this.results, ahead: this.ahead });
  }

  /** Answers one read (see `ReadIntake.read`); every result passed `#deliver`. */
  read(request: ReadRequest, signal: AbortSignal | undefined): Promise<ReadResult> {
    return this.#intake.read(request, signal);
  }

  /**
   * After the gate: new work for a path no cache knows, else the read waits for its stat
   * (`#statted`). Never throws: a failure is rejected, counted once.
   */
  serve(req: ParsedRequest, place: Place, deadline: number, signal: AbortSignal | undefined, subject: string, resolve: Resolve, reject: Reject): void {
    try {
      this.#answerOrThrow(req, place, deadline, signal, subject, resolve, reject);
    } catch (error) {
      reject(this.failed(error, subject));
    }
  }

  /** `#answer`'s steps; throws what fails before any work starts. */
  #answerOrThrow(req: ParsedRequest, place: Place, deadline: number, signal: AbortSignal | undefined, subject: string, resolve: Resolve, reject: Reject): void {
    if (this.#p.closing()) throw fail('closed', {}, subject);
    const { absolute } = place;
    const startedAt = Date.now();
    const plain = isDefaultShape(req, this.#plain);
    // The default range is '' (see `SessionLedger`), so that most session marks are keyed by the path alone.
    const asked = plain ? '' : rangeOf(req);
    const range = asked === this.#plainRange ? '' : asked;
    const shape = plain ? this.#plainShape : shapeOf(req, range);
    const held = this.#answers.held(req, absolute, range);
    const { key, open } = plain ? place : keysOf(absolute, shape);
    const cached = this.results?.get(key);
    // A path no cache knows is not statted here: the worker's fstat gives its version, and a
    // stat could only send it there anyway. Skipping one is never wrong, only a lost hit.
    if (held === undefined && cached === undefined && !this.#work.indexed(absolute)) {
      // Unless work for it is already running, unstatted: then this read stats, so that it and
      // the reads after it share one read of the version they see.
      const running = this.flights.get(open);
      if (running === undefined || running.joinable()) {
        this.#miss({ key, open, shape, req, absolute, place, version: null, size: UNSIZED, signal, subject, startedAt, deadline, held, range }, resolve, reject);
        return;
      }
    }
    // One stat gives the version every cache is keyed by, made after this read arrived (on this
    // thread, or on the stat thread in a busy turn: see `StatLane`).
    const known: KnownRead = { key, open, shape, req, absolute, signal, subject, startedAt, deadline, held, range, cached, place };
    this.#p.stats.stat(absolute, (stat) => {
      try {
        this.#statted(known, stat, resolve, reject);
      } catch (error) {
        reject(this.failed(error, subject));
      }
    });
  }

  /**
   * A read of a path some cache knows, with its stat: a stub or a cached result when the version
   * matches, else work. Anything that is not a plain regular file (missing, a link loop, a FIFO)
   * goes to a worker, which owns the sandbox's verdicts; a cache entry only ever comes from a read
   * that passed them.
   */
  #statted(read: KnownRead, stat: StatAnswer, resolve: Resolve, reject: Reject): void {
    const { req, absolute, deadline, signal, subject, held } = read;
    const { ledger } = this.#p;
    if (this.#p.closing()) throw fail('closed', {}, subject);
    if (isAborted(signal)) throw fail('aborted', { stage: 'queued' }, subject);
    if (Date.now() >= deadline) throw fail('timeout', { timeoutMs: req.timeoutMs, stage: 'queued' }, subject);
    // The stat lane gave up on its thread: read as if no cache knew the path.
    if (stat === NOT_STATTED) {
      const { key, open, shape, range, startedAt, place } = read;
      return this.#miss({ key, open, shape, req, absolute, place, version: null, size: UNSIZED, signal, subject, startedAt, deadline, held, range }, resolve, reject);
    }
    if (stat === null) {
      this.#unstatted(req, absolute, deadline, signal, subject).then(resolve, reject);
      return;
    }
    const version = read.place.versionOf(stat);
    // The entry seen before the stat, if it has this version; else the cache may have been filled
    // meanwhile (by work that was running when this read arrived).
    let cached = read.cached?.version === version ? read.cached : this.results?.get(read.key);
    // A page read ahead for this reader, unless the cache holds this version already.
    if (cached?.version !== version) {
      const ahead = this.ahead.take(read.key, version);
      if (ahead !== undefined) cached = this.#work.taken(read.key, ahead);
    }
    // No check of the path's canonical place before a cache answers (README, Sandbox: what a
    // cache may serve): a hit needs the same inode at the same version, so its bytes are the
    // bytes a worker already served from inside a root.
    const stub = this.#answers.unchanged(req, absolute, held, version);
    if (stub !== undefined) return resolve(this.#deliver(stub, req, subject));
    if (cached !== undefined && cached.version === version) {
      ledger.resultHits++;
      this.#readAhead(read, cached);
      return resolve(this.#deliver(this.#answers.remember(cached, req, absolute, held, read.range, read.startedAt, true), req, subject));
    }
    const { key, open, shape, range, startedAt, place } = read;
    this.#miss({ key, open, shape, req, absolute, place, version, size: stat.size, signal, subject, startedAt, deadline, held, range }, resolve, reject);
  }

  /** A path that is not a plain regular file: a worker (or the media pool, by name) gives the verdict. */
  async #unstatted(req: ParsedRequest, absolute: string, deadline: number, signal: AbortSignal | undefined, subject: string): Promise<ReadResult> {
    try {
      const outcome = await this.#work.unstatted(req, absolute, deadline, signal);
      if (!outcome.ok) throw failureOf(outcome, req, subject);
      return this.#deliver(resultOf(outcome.value, req, this.#p.options), req, subject);
    } catch (error) {
      throw this.failed(error, subject);
    }
  }

  /**
   * The result for the read, worked once however many callers ask for it at the same time. Each
   * caller keeps its own deadline and signal; the work is cancelled only when all have left. A
   * caller that did not stat the file joins only work not yet sent to a worker. The caller's
   * `PendingRead` settles its promise.
   */
  #miss(read: MissingRead, resolve: Resolve, reject: Reject): void {
    const { ledger } = this.#p;
    const flightKey = read.version === null ? read.open : `${read.version}|${read.key}`;
    let flight = this.flights.get(flightKey);
    if (flight !== undefined && read.version === null && !flight.joinable()) flight = undefined;
    // Work already running for the path, unstatted: joined on condition (see `answer`).
    if (flight === undefined && read.version !== null && !read.relaunched) flight = this.flights.get(read.open);
    if (flight !== undefined) ledger.singleFlightJoins++;
    else {
      ledger.resultMisses++;
      flight = this.#work.launch(flightKey, read);
    }
    this.#recent.flight = flight;
    this.#recent.work = flight.work;
    const waiter = new PendingRead(this, read, resolve, reject);
    this.#recent.waiter = waiter;
    this.flights.join(flight, waiter);
  }

  /** Answers a read that waited for a flight (see `PendingRead`); throws the read's error. */
  answer(read: MissingRead, outcome: Outcome, flight: Flight, resolve: Resolve, reject: Reject): void {
    // A caller that saw version V joined work that had not seen it: its answer serves only if the
    // worker read V too; otherwise (the file changed meanwhile) the caller reads for itself. Not
    // when the caller left on its own (its abort or deadline): that is its answer.
    const seen = outcome.ok ? outcome.value.version : null;
    const ownOutcome = outcome === flight.outcome;
    if (read.version !== null && ownOutcome && flight.key !== `${read.version}|${read.key}` && seen !== read.version) {
      return this.#miss({ ...read, relaunched: true }, resolve, reject);
    }
    if (!outcome.ok) throw failureOf(outcome, read.req, read.subject);
    flight.result ??= resultOf(outcome.value, read.req, this.#p.options);
    // Before the answer: the next page goes to a worker in this turn, before its reader's code runs.
    this.#readAhead(read, flight.result);
    resolve(this.#deliver(this.#answers.remember(flight.result, read.req, read.absolute, read.held, read.range, read.startedAt), read.req, read.subject));
  }

  /** Starts reading the page after `result` when an agent pages through a large file (see read-ahead.ts). */
  #readAhead(read: Pick<MissingRead, 'req' | 'absolute' | 'subject'>, result: ReadResult): void {
    // Not when reads are waiting for a worker: a page read ahead would only delay them.
    if (result.kind !== 'text' || this.results === null || this.#p.closing() || this.#p.scheduler.queued > 0 || !this.#work.indexed(read.absolute)) return;
    const req = nextPage(read.req, result);
    if (req === null) return;
    const range = rangeOf(req);
    const shape = shapeOf(req, range);
    const { key, open } = keysOf(read.absolute, shape);
    const { version } = result;
    const flightKey = `${version}|${key}`;
    if (this.flights.get(flightKey) !== undefined || this.ahead.has(key) || this.results.peek(key)?.version === version) return;
    const startedAt = Date.now();
    const deadline = startedAt + this.#p.options.timeoutMs;
    try {
      this.#work.launch(flightKey, { key, open, shape, req, absolute: read.absolute, place: null, version, size: result.size, signal: undefined, subject: read.subject, startedAt, deadline, held: undefined, range, ahead: true });
      this.#p.ledger.readAheads++;
    } catch {
      // Only ever an optimisation: the page is read when asked for.
    }
  }

  /** Every result passes here once: narrower roots are checked on the canonical place read too. */
  #deliver(result: ReadResult, req: ParsedRequest, subject: string): ReadResult {
    // A link inside the engine's roots may lead out of the caller's.
    if (req.within !== null && findRoot(req.within, result.path) === null) {
      throw fail('outside_root', { roots: req.within, throughLink: true }, subject);
    }
    this.#p.ledger.answered++;
    this.#recent.result(result);
    return result;
  }

  /** Every failure passes here once: made a `ReadError` (a bug becomes `internal`) and counted. */
  failed(error: unknown, subject: string): ReadError {
    const readError = error instanceof ReadError ? error : new ReadError('internal', describeError('internal', { message: String(error) }, subject));
    this.#p.ledger.failed(readError.code);
    return readError;
  }
}

/** A read of a path some cache knows, waiting for its stat. */
interface KnownRead extends Omit<MissingRead, 'version' | 'size' | 'relaunched'> {
  readonly cached: ReadResult | undefined;
  readonly place: Place;
}

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
