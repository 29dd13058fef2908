import { Deadlines } from './deadlines.js';
import type { MediaPayload } from './media/wire.js';
import type { ReadResult } from './result.js';
import type { FilePayload, JobOutcome } from './wire.js';

/** What a read's work answers: a text pool job's outcome or a media pool task's. */
export type Outcome = { readonly ok: true; readonly value: FilePayload | MediaPayload } | Extract<JobOutcome, { ok: false }>;

/** One caller waiting for a flight, with its own deadline and signal. */
class Waiter {
  done = false;
  readonly flight: Flight;
  readonly deadline: number;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly resolve: (outcome: Outcome) => void;
  readonly flights: SingleFlight;

  constructor(flight: Flight, deadline: number, timeoutMs: number, signal: AbortSignal | undefined, resolve: (outcome: Outcome) => void, flights: SingleFlight) {
    this.flight = flight;
    this.deadline = deadline;
    this.timeoutMs = timeoutMs;
    this.signal = signal;
    this.resolve = resolve;
    this.flights = flights;
  }

  expire(): void {
    this.flights.leave(this, { ok: false, code: 'timeout', details: { timeoutMs: this.timeoutMs, stage: 'running' } });
  }

  /** The AbortSignal listener (`handleEvent`): an object, so no closure per waiter. */
  handleEvent(): void {
    this.flights.leave(this, { ok: false, code: 'aborted', details: { stage: 'queued' } });
  }
}

/** Identical work in flight, shared by every caller that asks for it while it runs. */
export class Flight {
  /** Stops the shared work: called when its last waiter has left. */
  cancel: () => void = () => undefined;
  /** Callers still waiting. */
  readonly waiters = new Set<Waiter>();
  /** The outcome, once the work answered. */
  outcome: Outcome | null = null;
  /** The result built once from the outcome, shared by all waiters. */
  result: ReadResult | null = null;

  readonly key: string;

  constructor(key: string) {
    this.key = key;
  }
}

/**
 * Reads in flight by key: each is worked once however many callers ask for it at the same time.
 * Each caller keeps its own deadline and signal (on one shared timer, see `Deadlines`); the work
 * is cancelled only when all have left.
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

  /** Starts a flight for `key` on `work`, which answers each outcome exactly once. */
  start(key: string, work: Promise<Outcome>, cancel: () => void, onOutcome: (flight: Flight, outcome: Outcome) => void): Flight {
    const flight = new Flight(key);
    flight.cancel = cancel;
    this.#flights.set(key, flight);
    void work.then((outcome) => {
      if (this.#flights.get(key) === flight) this.#flights.delete(key);
      flight.outcome = outcome;
      onOutcome(flight, outcome);
      for (const waiter of flight.waiters) this.#finish(waiter, outcome);
      flight.waiters.clear();
    });
    return flight;
  }

  /** Waits for a flight with this caller's own deadline (`remainingMs` of `timeoutMs`) and signal. */
  join(flight: Flight, remainingMs: number, timeoutMs: number, signal: AbortSignal | undefined): Promise<Outcome> {
    if (signal?.aborted === true) {
      // A flight started for this caller alone is not left running for no one.
      if (flight.waiters.size === 0 && flight.outcome === null) this.#abandon(flight);
      return Promise.resolve({ ok: false, code: 'aborted', details: { stage: 'queued' } });
    }
    if (flight.outcome !== null) return Promise.resolve(flight.outcome);
    return new Promise<Outcome>((resolve) => {
      const waiter = new Waiter(flight, Date.now() + remainingMs, timeoutMs, signal, resolve, this);
      flight.waiters.add(waiter);
      this.#deadlines.add(waiter);
      signal?.addEventListener('abort', waiter, { once: true });
    });
  }

  /** A waiter leaves before the work answered (abort, timeout); the last one cancels the work. */
  leave(waiter: Waiter, outcome: Outcome): void {
    if (waiter.done) return;
    this.#finish(waiter, outcome);
    const flight = waiter.flight;
    flight.waiters.delete(waiter);
    if (flight.waiters.size === 0 && flight.outcome === null) this.#abandon(flight);
  }

  #abandon(flight: Flight): void {
    if (this.#flights.get(flight.key) === flight) this.#flights.delete(flight.key);
    flight.cancel();
  }

  #finish(waiter: Waiter, outcome: Outcome): void {
    if (waiter.done) return;
    waiter.done = true;
    this.#deadlines.delete(waiter);
    waiter.signal?.removeEventListener('abort', waiter);
    waiter.resolve(outcome);
  }
}
