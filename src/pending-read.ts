import type { ReadMark } from './cache/sessions.js';
import type { Expiring } from './deadlines.js';
import type { ReadError } from './errors.js';
import type { ParsedRequest } from './request.js';
import type { Place } from './result-keys.js';
import type { ReadResult } from './result.js';
import type { Flight, FlightWaiter, Outcome, SingleFlight } from './single-flight.js';

/** A read that no cache answered, with what answering it later needs. */
export interface MissingRead {
  /** The result cache's key: path and shape (the entry holds its version). */
  readonly key: string;
  /** The key of work for this key that has not statted the file: `?` and the key. */
  readonly open: string;
  readonly shape: string;
  readonly req: ParsedRequest;
  readonly absolute: string;
  /** The requested path's place, which remembers what it taught the facts cache; null for a page read ahead. */
  readonly place: Place | null;
  /** The version a stat saw, or null when the path was not statted (no cache knew it). */
  readonly version: string | null;
  /** The file's size from that stat, or `UNSIZED`. */
  readonly size: number;
  readonly signal: AbortSignal | undefined;
  readonly subject: string;
  readonly startedAt: number;
  readonly deadline: number;
  /** The session's mark for this range, when it holds one. */
  readonly held: ReadMark | undefined;
  readonly range: string;
  /** Set when a conditional join did not serve (see `ReadPipeline.answer`): join no unstatted work again. */
  readonly relaunched?: boolean;
  /** Read ahead of any reader (see `read-ahead.ts`): kept for its first reader, not cached. */
  readonly ahead?: boolean;
}

/** How a waiting read is answered: the pipeline's own steps, so this file stays a plain waiter. */
export interface ReadAnswerer {
  readonly flights: SingleFlight;
  /**
   * Settles the read from its flight's outcome: `resolve` with its result, now or after a read of
   * its own (when the flight read another version). Throws the read's error.
   */
  answer(read: MissingRead, outcome: Outcome, flight: Flight, resolve: (result: ReadResult) => void, reject: (error: ReadError) => void): void;
  /** Any error as the counted `ReadError` a caller receives. */
  failed(error: unknown, subject: string): ReadError;
}

/**
 * One caller's read waiting for a flight: it holds the caller's promise and settles it once. It
 * is its own entry on the shared deadline timer and its own abort listener, so a miss costs one
 * object here and no closure.
 */
export class PendingRead implements FlightWaiter {
  done = false;
  flight: Flight | null = null;
  /** Its neighbours on the flights' deadline list (see `Deadlines`). */
  earlier: Expiring | null = null;
  later: Expiring | null = null;
  readonly deadline: number;
  readonly signal: AbortSignal | undefined;
  readonly #answerer: ReadAnswerer;
  readonly #read: MissingRead;
  /** The caller's promise; `ignore` once settled (see `answer`). */
  #resolve: (result: ReadResult) => void;
  #reject: (error: ReadError) => void;

  constructor(answerer: ReadAnswerer, read: MissingRead, resolve: (result: ReadResult) => void, reject: (error: ReadError) => void) {
    this.#answerer = answerer;
    this.#read = read;
    this.deadline = read.deadline;
    this.signal = read.signal;
    this.#resolve = resolve;
    this.#reject = reject;
  }

  answer(outcome: Outcome, flight: Flight): void {
    // Answered once, and then holding nothing of the answer: a settled waiter can outlive its read
    // in a retired table of a flight's set of waiters until a full GC (see README, "Where the time goes").
    const resolve = this.#resolve;
    const reject = this.#reject;
    this.#resolve = ignore;
    this.#reject = ignore;
    this.flight = null;
    try {
      this.#answerer.answer(this.#read, outcome, flight, resolve, reject);
    } catch (error) {
      reject(this.#answerer.failed(error, this.#read.subject));
    }
  }

  /** The read's own deadline passed while the shared work still runs. */
  expire(): void {
    this.#answerer.flights.leave(this, { ok: false, code: 'timeout', details: { timeoutMs: this.#read.req.timeoutMs, stage: 'running' } });
  }

  /** The caller's signal fired (this object is the listener). */
  handleEvent(): void {
    this.#answerer.flights.leave(this, { ok: false, code: 'aborted', details: { stage: 'queued' } });
  }
}

function ignore(): void {}
