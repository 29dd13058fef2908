import { HeadQueue } from './head-queue.js';

/** Why a read left the gate without being admitted. */
export type GateExit = 'aborted' | 'timeout';

/**
 * Called once for a read that waited at the gate: with null when it may start, or with why it
 * left first. A callback, not a promise: in a swarm nearly every read waits a turn here, and a
 * promise, its continuation and an async frame per read cost more than the wait. It must not
 * throw: the gate calls several in a row, and a throw would leave the rest uncalled.
 */
export type GateCall = (exit: GateExit | null) => void;

/** A read waiting at the gate. */
interface Waiter {
  /** The read's call; `answered` once called (see `answer`). */
  call: GateCall;
  /** `Date.now()` after which the read answers `timeout` instead of waiting on. */
  readonly deadline: number;
  /** The read's signal and the gate's listener on it, removed once the read is answered. */
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  /** Set once admitted, aborted or timed out. */
  done: boolean;
}

/** How often held reads are checked against their deadlines. */
const SWEEP_MS = 10;

/**
 * Where reads wait before they start: admitted round-robin by session, at most `perTurn` in one
 * turn of the event loop, and only while the session's share of the pool's queue has room.
 *
 * - Reads answered on the main thread (cache hits, stubs) resolve in microtasks: without a
 *   bound per turn, a swarm could hold the host's event loop for as long as it keeps asking.
 * - Every read started costs main-thread work (a stat, a cache lookup, a queue entry). Holding
 *   reads here while the pool is backed up keeps that work from crowding out the workers, and
 *   keeps each session's part of the pool's queue short: a session with nothing queued starts
 *   at once, and waits behind a round of the others, never behind one session's ten thousand.
 *
 * Deadlines are checked by one sweep every `SWEEP_MS` while reads wait, not a timer per read:
 * in a swarm nearly every read waits a turn here, and a timer each would cost more than the wait.
 */
export class TurnGate {
  readonly #perTurn: number;
  readonly #room: (session: string) => boolean;
  #used = 0;
  #resetPending = false;
  /** Reads waiting, by session, in arrival order. */
  readonly #lanes = new Map<string, Waiter[]>();
  /**
   * Sessions with reads waiting, in turn order: a session admitted once goes to the
   * back while it has more waiting. A queue, not a ring walked by index, so that a session leaving
   * costs nothing (a splice each was a tenth of a swarm's host time, with 256 sessions).
   */
  readonly #ring = new HeadQueue<string>();
  #waiting = 0;
  #sweep: NodeJS.Timeout | undefined;

  /** `room(session)` says whether that session may queue more; call `pump()` when it may again. */
  constructor(perTurn: number, room: (session: string) => boolean) {
    this.#perTurn = perTurn;
    this.#room = room;
  }

  /** Reads waiting at the gate. */
  get waiting(): number {
    return this.#waiting;
  }

  /** Reads waiting at the gate, by session. */
  depths(): Map<string, number> {
    const depths = new Map<string, number>();
    for (const [session, lane] of this.#lanes) {
      const live = lane.reduce((n, waiter) => n + (waiter.done ? 0 : 1), 0);
      if (live > 0) depths.set(session, live);
    }
    return depths;
  }

  /**
   * True when a read of `session` may start now: it is counted against this turn's budget. Else
   * the read must `wait`. Two calls, so that a read let in at once makes no callback.
   */
  pass(session: string): boolean {
    this.#scheduleReset();
    if (this.#used < this.#perTurn && !this.#lanes.has(session) && this.#room(session)) {
      this.#used++;
      return true;
    }
    return false;
  }

  /**
   * Holds a read that `pass` turned away, in its session's line. `call` is called once, never from
   * inside `wait`: with null when the read is admitted, or with why it left first (its deadline
   * passed, or `signal` fired). A signal that refuses a listener (a faulty polyfill) throws here,
   * and the read is not held.
   */
  wait(session: string, deadline: number, signal: AbortSignal | undefined, call: GateCall): void {
    const waiter: Waiter = { call, deadline, signal, onAbort: undefined, done: false };
    if (signal !== undefined) {
      const onAbort = () => this.#leave(waiter, 'aborted');
      signal.addEventListener('abort', onAbort, { once: true });
      waiter.onAbort = onAbort;
    }
    this.#scheduleReset();
    let lane = this.#lanes.get(session);
    if (lane === undefined) {
      lane = [];
      this.#lanes.set(session, lane);
      this.#ring.push(session);
    }
    lane.push(waiter);
    this.#waiting++;
    this.#sweep ??= setTimeout(() => this.#expire(), SWEEP_MS);
  }

  /** Admits waiting reads now, within this turn's budget, where their sessions have room. */
  pump(): void {
    if (this.#waiting > 0) this.#admit();
  }

  /** Admits everything waiting, budget and room aside: on close, so each read can be answered. */
  flush(): void {
    const admitted: Waiter[] = [];
    for (const lane of this.#lanes.values()) {
      for (const waiter of lane) {
        if (waiter.done) continue;
        waiter.done = true;
        admitted.push(waiter);
      }
    }
    this.#lanes.clear();
    this.#ring.clear();
    this.#waiting = 0;
    clearTimeout(this.#sweep);
    this.#sweep = undefined;
    for (const waiter of admitted) answer(waiter, null);
  }

  #leave(waiter: Waiter, why: GateExit): void {
    if (waiter.done) return;
    waiter.done = true;
    this.#waiting--;
    answer(waiter, why);
  }

  /** Answers `timeout` for reads past their deadline; sweeps again while any wait. */
  #expire(): void {
    this.#sweep = undefined;
    const now = Date.now();
    for (const lane of this.#lanes.values()) {
      for (const waiter of lane) if (!waiter.done && waiter.deadline <= now) this.#leave(waiter, 'timeout');
    }
    if (this.#waiting > 0) this.#sweep = setTimeout(() => this.#expire(), SWEEP_MS);
  }

  #scheduleReset(): void {
    if (this.#resetPending) return;
    this.#resetPending = true;
    setImmediate(() => {
      this.#resetPending = false;
      this.#used = 0;
      this.#admit();
    });
  }

  /**
   * Starts waiting reads, one session at a time, within the turn's budget; a session without
   * room is passed over. Stops after a full round of the sessions admits nothing.
   */
  #admit(): void {
    // Called once the gate's own state is settled, so that a read started from its call finds
    // the gate consistent.
    const admitted: Waiter[] = [];
    let idle = 0;
    while (this.#used < this.#perTurn && this.#waiting > 0 && idle < this.#ring.size) {
      const session = this.#ring.shift() ?? '';
      const lane = this.#lanes.get(session);
      while (lane !== undefined && lane[0]?.done === true) lane.shift();
      if (lane === undefined || lane.length === 0) {
        this.#lanes.delete(session);
        continue;
      }
      if (!this.#room(session)) {
        idle++;
        this.#ring.push(session);
        continue;
      }
      idle = 0;
      const waiter = lane.shift();
      if (waiter !== undefined) {
        waiter.done = true;
        this.#used++;
        this.#waiting--;
        admitted.push(waiter);
      }
      if (lane.length === 0) this.#lanes.delete(session);
      else this.#ring.push(session);
    }
    // Out of budget: the next turn goes on. Out of room: `pump()` goes on when work completes.
    if (this.#waiting > 0 && this.#used >= this.#perTurn) this.#scheduleReset();
    for (const waiter of admitted) answer(waiter, null);
  }
}

/**
 * Calls a waiter's call once, leaving it holding nothing of its read: a waiter can outlive its turn
 * in a lane array or a retired table of the lane map until a full GC (README, "Where the time goes").
 */
function answer(waiter: Waiter, exit: GateExit | null): void {
  const { call, signal, onAbort } = waiter;
  waiter.call = answered;
  waiter.signal = undefined;
  waiter.onAbort = undefined;
  if (onAbort !== undefined) {
    try {
      signal?.removeEventListener('abort', onAbort);
    } catch {
      // A signal that refuses to let go (a faulty polyfill) keeps the listener, which then finds
      // the read done: no throw into the gate's loops.
    }
  }
  call(exit);
}

function answered(): void {}
