import { findRoot } from './core/containment.js';
import type { ReadError } from './errors.js';
import type { MediaLane } from './media-lane.js';
import type { ResolvedOptions } from './options.js';
import { fail, subjectOf } from './read-failure.js';
import { parseFast, parseWithSchema, type ParsedRequest, type ReadRequest } from './request.js';
import type { ReadResult } from './result.js';
import { Places, type Place } from './result-keys.js';
import type { Sandbox } from './sandbox.js';
import type { Scheduler } from './scheduler.js';
import type { StatLane } from './stat-lane.js';
import type { TurnGate } from './turn-gate.js';

/** What the intake works with, owned by the engine. */
export interface IntakeParts {
  readonly options: ResolvedOptions;
  readonly sandbox: Sandbox;
  readonly scheduler: Scheduler;
  readonly gate: TurnGate;
  readonly media: MediaLane;
  /** Where a read of a path some cache knows gets its stat. */
  readonly stats: StatLane;
  /** True once the engine is closing: reads are answered `closed`. */
  readonly closing: () => boolean;
}

/** How a read's one promise is settled (see `ReadIntake.read`). */
export type Resolve = (result: ReadResult) => void;
export type Reject = (error: ReadError) => void;

/** Where the intake hands a read it let past the gate, and where every failure is counted. */
export interface Admitted {
  /** Answers the read through `resolve` or `reject`; never throws. */
  serve(req: ParsedRequest, place: Place, deadline: number, signal: AbortSignal | undefined, subject: string, resolve: Resolve, reject: Reject): void;
  /** Any error as the counted `ReadError` a caller receives. */
  failed(error: unknown, subject: string): ReadError;
}

/**
 * A read's way in: validate the request, locate it in the sandbox, bound what waits, and wait at
 * the turn gate. The read then goes to `Admitted.serve`, which answers it from a cache or work.
 */
export class ReadIntake {
  readonly #p: IntakeParts;
  readonly #places: Places;
  readonly #admitted: Admitted;

  constructor(parts: IntakeParts, plainShape: string, admitted: Admitted) {
    this.#p = parts;
    this.#places = new Places((requested) => parts.sandbox.locate(requested), plainShape);
    this.#admitted = admitted;
  }

  /**
   * Takes one read. The promise returned is the only one a common read makes: the steps after
   * it (the gate, a stat, a flight) settle it through its `resolve` and `reject` instead of making
   * promises of their own. Every rejection is a `ReadError`, counted once in the ledger.
   */
  read(request: ReadRequest, signal: AbortSignal | undefined): Promise<ReadResult> {
    let subject = '(no path)';
    try {
      subject = subjectOf(request);
      if (this.#p.closing()) throw fail('closed', {}, subject);
      if (signal?.aborted === true) throw fail('aborted', { stage: 'queued' }, subject);
      const req = parseFast(request, this.#p.options);
      if (req === null) return this.#parsedSlowly(request, signal, subject);
      return this.#admit(req, signal, subject);
    } catch (error) {
      return Promise.reject(this.#admitted.failed(error, subject));
    }
  }

  /** Locates a valid read in the sandbox and lets it past the gate (at once, or when its turn comes). */
  #admit(req: ParsedRequest, signal: AbortSignal | undefined, subject: string): Promise<ReadResult> {
    const { options, scheduler, gate, media } = this.#p;
    try {
      const place = this.#places.of(req.path);
      if (!place.ok) throw fail(place.code, place.details, subject);
      if (req.within !== null && findRoot(req.within, place.absolute) === null) throw fail('outside_root', { roots: req.within }, subject);
      // Reads held at the gate or waiting for a stat, and media reads, count as queued: `maxQueued` bounds them all.
      const waiting = gate.waiting + scheduler.queued + media.pending + this.#p.stats.waiting;
      if (waiting >= options.maxQueued) {
        throw fail('overloaded', { queued: waiting, retryAfterMs: scheduler.retryAfterMs(waiting) }, subject);
      }
      const deadline = Date.now() + req.timeoutMs;
      return this.#throughGate(req, place, deadline, signal, subject);
    } catch (error) {
      return Promise.reject(this.#admitted.failed(error, subject));
    }
  }

  /** A request `parseFast` left to the schema: worded issues, or the read as usual. */
  async #parsedSlowly(request: ReadRequest, signal: AbortSignal | undefined, subject: string): Promise<ReadResult> {
    let req: ParsedRequest;
    try {
      const parsed = await parseWithSchema(request, this.#p.options);
      if (!parsed.ok) throw fail('invalid_request', { issues: parsed.issues }, subject);
      req = parsed.request;
    } catch (error) {
      throw this.#admitted.failed(error, subject);
    }
    return this.#admit(req, signal, subject);
  }

  /**
   * Served now when the gate lets the read start, else once its turn comes (or it leaves first).
   * A read let in at once allocates nothing here. A read that waits makes its one promise here
   * and is answered into it: in a swarm a quarter to two fifths of reads wait a turn, and a
   * promise resolved with another costs two more microtasks and a third promise.
   */
  #throughGate(req: ParsedRequest, place: Place, deadline: number, signal: AbortSignal | undefined, subject: string): Promise<ReadResult> {
    const { gate } = this.#p;
    const admitted = this.#admitted;
    const session = req.session ?? '';
    if (gate.pass(session)) return new Promise<ReadResult>((resolve, reject) => admitted.serve(req, place, deadline, signal, subject, resolve, reject));
    return new Promise<ReadResult>((resolve, reject) => {
      try {
        // Never throws: the gate calls it from its loops, where a throw would strand other reads.
        gate.wait(session, deadline, signal, (exit) => {
          if (exit === null) return admitted.serve(req, place, deadline, signal, subject, resolve, reject);
          try {
            throw fail(exit, exit === 'timeout' ? { timeoutMs: req.timeoutMs, stage: 'queued' } : { stage: 'queued' }, subject);
          } catch (error) {
            reject(admitted.failed(error, subject));
          }
        });
      } catch (error) {
        reject(admitted.failed(error, subject));
      }
    });
  }
}
