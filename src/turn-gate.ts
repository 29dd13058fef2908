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
 */
/** A read waiting at the gate: `admitted` resolves when it may start; `cancel` gives up its place. */
export interface GateEntry {
  readonly admitted: Promise<void>;
  cancel(): void;
}

interface Waiter {
  resolve: () => void;
  cancelled: boolean;
  admitted: boolean;
}

export class TurnGate {
  readonly #perTurn: number;
  readonly #room: (session: string) => boolean;
  #used = 0;
  #resetPending = false;
  /** Reads waiting for a later turn, by session. */
  readonly #lanes = new Map<string, Waiter[]>();
  #ring: string[] = [];
  #next = 0;
  #waiting = 0;

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
      const live = lane.reduce((n, waiter) => n + (waiter.cancelled ? 0 : 1), 0);
      if (live > 0) depths.set(session, live);
    }
    return depths;
  }

  /** Null when the read may start now; otherwise its place in the session's line. */
  enter(session: string): GateEntry | null {
    this.#scheduleReset();
    if (this.#used < this.#perTurn && !this.#lanes.has(session) && this.#room(session)) {
      this.#used++;
      return null;
    }
    const waiter: Waiter = { resolve: () => undefined, cancelled: false, admitted: false };
    const admitted = new Promise<void>((resolve) => {
      waiter.resolve = resolve;
    });
    let lane = this.#lanes.get(session);
    if (lane === undefined) {
      lane = [];
      this.#lanes.set(session, lane);
      this.#ring.push(session);
    }
    lane.push(waiter);
    this.#waiting++;
    return {
      admitted,
      cancel: () => {
        if (waiter.cancelled || waiter.admitted) return;
        waiter.cancelled = true;
        this.#waiting--;
      },
    };
  }

  /** Admits everything waiting, budget and room aside: on close, so each read can be answered. */
  flush(): void {
    for (const lane of this.#lanes.values()) {
      for (const waiter of lane) {
        if (waiter.cancelled) continue;
        waiter.admitted = true;
        waiter.resolve();
      }
    }
    this.#lanes.clear();
    this.#ring = [];
    this.#waiting = 0;
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

  /** Admits waiting reads now, within this turn's budget, if the pool has room. */
  pump(): void {
    if (this.#waiting > 0) this.#admit();
  }

  /**
   * Starts waiting reads, one session at a time, within the turn's budget; a session without
   * room is passed over. Stops after a full round of the sessions admits nothing.
   */
  #admit(): void {
    let idle = 0;
    while (this.#used < this.#perTurn && this.#waiting > 0 && idle < this.#ring.length) {
      if (this.#next >= this.#ring.length) this.#next = 0;
      const session = this.#ring[this.#next] ?? '';
      const lane = this.#lanes.get(session);
      while (lane !== undefined && lane[0]?.cancelled === true) lane.shift();
      if (lane === undefined || lane.length === 0) {
        this.#lanes.delete(session);
        this.#ring.splice(this.#next, 1);
        continue;
      }
      if (!this.#room(session)) {
        idle++;
        this.#next++;
        continue;
      }
      idle = 0;
      const waiter = lane.shift();
      this.#used++;
      this.#waiting--;
      if (waiter !== undefined) {
        waiter.admitted = true;
        waiter.resolve();
      }
      if (lane.length === 0) {
        this.#lanes.delete(session);
        this.#ring.splice(this.#next, 1);
      } else {
        this.#next++;
      }
    }
    // Out of budget: the next turn goes on. Out of room: `pump()` goes on when work completes.
    if (this.#waiting > 0 && this.#used >= this.#perTurn) this.#scheduleReset();
  }
}
