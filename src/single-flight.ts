import { Deadlines, type Expiring } from './deadlines.js';
import type { MediaPayload } from './media/wire.js';
import type { ReadResult } from './result.js';
import type { FilePayload, JobOutcome } from './wire.js';

/** What a read's work answers: a text pool job's outcome or a media pool task's. */
export type Outcome = { readonly ok: true; readonly value: FilePayload | MediaPayload } | Extract<JobOutcome, { ok: false }>;

/**
 * One caller waiting for a flight, with its own deadline and signal: the caller's own object (the
 * read in flight), so that joining costs no promise and no closure. It is its own entry on the
 * shared deadline timer (`expire`) and its own abort listener (`handleEvent`); both call
 * `SingleFlight.leave`. The flight calls `answer` once: the work's outcome, or the caller's own
 * `aborted` or `timeout`.
 */
export interface FlightWaiter extends Expiring {
  /** Set by the flight once answered. */
  done: boolean;
  /** The flight joined, set by `join`. */
  flight: Flight | null;
  readonly signal: AbortSignal | undefined;
  answer(outcome: Outcome, flight: Flight): void;
  handleEvent(): void;
}

/**
 * What a flight answered and emptied holds in place of its outcome: never seen by a caller, since
 * no one can join such a flight; should one ever, it is told plainly instead of waiting forever.
 */
const SETTLED: Outcome = Object.freeze({ ok: false, code: 'internal', details: Object.freeze({ message: 'joined a read that had already been answered' }) });

/**
 * The work behind a flight, as the flight sees it: one object its starter makes (not a closure
 * for each), which the flight lets go of once settled.
 */
export interface FlightWork {
  /** Stops the shared work: called when the flight's last waiter has left. */
  cancel(): void;
  /**
   * False once the work may have opened the file: a caller that has not seen the file's version
   * may join only before then, so that what it gets was read after it asked.
   */
  joinable(): boolean;
}

/** A new flight's work until its starter sets it: nothing to cancel, open to any caller. */
const NOT_STARTED: FlightWork = Object.freeze({
  cancel() {},
  joinable() {
    return true;
  },
});
/** A settled flight's work: over, and what it held (the read) let go. */
const OVER: FlightWork = Object.freeze({
  cancel() {},
  joinable() {
    return false;
  },
});

/** Identical work in flight, shared by every caller that asks for it while it runs. */
export class Flight {
  /** The shared work, set by the flight's starter (see `FlightWork`). */
  work: FlightWork = NOT_STARTED;
  /**
   * Callers still waiting, in the order they joined: the first in a field of its own (nearly
   * every flight has one caller, and a Set a read was a table to make and throw away on the host
   * thread), the others in a Set made when a second joins.
   */
  #first: FlightWaiter | null = null;
  #more: Set<FlightWaiter> | null = null;
  /** The outcome, once the work answered. */
  outcome: Outcome | null = null;
  /** The result built once from the outcome, shared by all waiters. */
  result: ReadResult | null = null;

  readonly key: string;

  constructor(key: string) {
    this.key = key;
  }

  /** Stops the shared work (see `FlightWork.cancel`). */
  cancel(): void {
    this.work.cancel();
  }

  /** Whether a caller that has not seen the file's version may join (see `FlightWork.joinable`). */
  joinable(): boolean {
    return this.work.joinable();
  }

  /** How many callers wait. */
  get waiting(): number {
    return (this.#first === null ? 0 : 1) + (this.#more?.size ?? 0);
  }

  addWaiter(waiter: FlightWaiter): void {
    // Behind any still waiting in `#more`, so that callers are answered in the order they came.
    if (this.#first === null && (this.#more === null || this.#more.size === 0)) this.#first = waiter;
    else (this.#more ??= new Set()).add(waiter);
  }

  deleteWaiter(waiter: FlightWaiter): void {
    if (this.#first === waiter) this.#first = null;
    else this.#more?.delete(waiter);
  }

  /** Calls `each` for every caller still waiting, in the order they joined; none wait afterwards. */
  drainWaiters(each: (waiter: FlightWaiter) => void): void {
    const first = this.#first;
    const more = this.#more;
    this.#first = null;
    this.#more = null;
    if (first !== null) each(first);
    if (more !== null) for (const waiter of more) each(waiter);
  }
}

/**
 * Reads in flight by key: each is worked once however many callers ask for it at the same time.
 * Each caller keeps its own deadline and signal (on one shared timer, see `Deadlines`); the work
 * is cancelled only when all have left. Work answers through `settle`, callers through their
 * own `answer`: no promise is made here.
 */
export class SingleFlight {
  readonly #flights = new Map<string, Flight>();
  readonly #deadlines = new Deadlines();

  get size(): number {
    return this.#flights.size;
  }

  get(key: string): Flight | undefined {
    return this.#flights.get(key);
  }

  /** Registers a flight for `key`; its starter sets `work` and calls `settle` once with the outcome. */
  open(key: string): Flight {
    const flight = new Flight(key);
    this.#flights.set(key, flight);
    return flight;
  }

  /** The work answered: every waiter is answered. */
  settle(flight: Flight, outcome: Outcome): void {
    if (this.#flights.get(flight.key) === flight) this.#flights.delete(flight.key);
    flight.outcome = outcome;
    // The work is over, waited for or not: what it held (the read) is let go.
    flight.work = OVER;
    if (flight.waiting === 0) return;
    flight.drainWaiters((waiter) => this.#finish(waiter, flight, outcome));
    // Out of the map and every waiter answered, so nothing can join it now. A flight settled
    // before anyone joined (its start failed at once) keeps its outcome for the caller that
    // started it. Letting go of the answer matters because a retired table of the flight map can
    // keep a settled flight until a full GC (see README, "Where the time goes").
    flight.outcome = SETTLED;
    flight.result = null;
  }

  /** Waits for a flight with the waiter's own deadline and signal; it is answered through `answer`. */
  join(flight: Flight, waiter: FlightWaiter): void {
    waiter.flight = flight;
    if (waiter.signal?.aborted === true) {
      // A flight started for this caller alone is not left running for no one.
      if (flight.waiting === 0 && flight.outcome === null) this.#abandon(flight);
      this.#finish(waiter, flight, { ok: false, code: 'aborted', details: { stage: 'queued' } });
      return;
    }
    if (flight.outcome !== null) {
      this.#finish(waiter, flight, flight.outcome);
      return;
    }
    flight.addWaiter(waiter);
    this.#deadlines.add(waiter);
    waiter.signal?.addEventListener('abort', waiter, { once: true });
  }

  /** A waiter leaves before the work answered (abort, timeout); the last one cancels the work. */
  leave(waiter: FlightWaiter, outcome: Outcome): void {
    const flight = waiter.flight;
    if (waiter.done || flight === null) return;
    this.#finish(waiter, flight, outcome);
    flight.deleteWaiter(waiter);
    if (flight.waiting === 0 && flight.outcome === null) this.#abandon(flight);
  }

  #abandon(flight: Flight): void {
    if (this.#flights.get(flight.key) === flight) this.#flights.delete(flight.key);
    flight.cancel();
  }

  #finish(waiter: FlightWaiter, flight: Flight, outcome: Outcome): void {
    if (waiter.done) return;
    waiter.done = true;
    this.#deadlines.delete(waiter);
    waiter.signal?.removeEventListener('abort', waiter);
    waiter.answer(outcome, flight);
  }
}
