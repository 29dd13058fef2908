import { HeadQueue } from './head-queue.js';
import type { Ticket } from './ticket.js';
import { BATCH_BYTES, SOLO_READ_BYTES } from './wire.js';

/** The reads one session has waiting, in order. */
interface Lane {
  readonly session: string;
  /** Taken or settled entries before `head` are cleared: a ticket's answer holds its result. */
  tickets: (Ticket | undefined)[];
  head: number;
  /** Its reads still waiting (settled ones excluded). */
  queued: number;
}

/**
 * Waiting reads by session, served round-robin: one session's ten thousand reads cannot starve
 * another's one.
 */
export class Lanes {
  /** Lanes with reads waiting, by session. */
  readonly #lanes = new Map<string, Lane>();
  /**
   * Lanes in turn order: a lane served goes to the back while it has reads left. A queue, not a
   * ring walked by index, so that a lane leaving costs nothing: in a swarm each
   * session has one read waiting, and finding and splicing each emptied lane out of a ring of
   * 256 was a twentieth of a miss's host time. A lane that left early (its reads answered before
   * they were sent) stays here, emptied, until its turn comes and it is passed over, or until
   * such lanes outnumber the live ones (`push`): while every worker is busy no turn comes.
   */
  readonly #turns = new HeadQueue<Lane>();
  #bytes = 0;

  /** Sessions with reads waiting. */
  get count(): number {
    return this.#lanes.size;
  }

  /** Bytes of the files waiting, from the sizes their reads were queued with (unsized ones count 0). */
  get bytes(): number {
    return this.#bytes;
  }

  push(ticket: Ticket): void {
    let lane = this.#lanes.get(ticket.lane);
    if (lane === undefined) {
      lane = { session: ticket.lane, tickets: [], head: 0, queued: 0 };
      this.#lanes.set(ticket.lane, lane);
      // Lanes that left early, past twice the live ones: dropped, keeping the others' order.
      if (this.#turns.size > 2 * this.#lanes.size + 1024) this.#turns.keep((turn) => this.#lanes.get(turn.session) === turn);
      this.#turns.push(lane);
    }
    lane.tickets.push(ticket);
    lane.queued++;
    this.#bytes += Math.max(0, ticket.cost);
  }

  /** Reads of one session waiting. */
  queuedIn(session: string): number {
    return this.#lanes.get(session)?.queued ?? 0;
  }

  /** A queued read was answered before it was sent (abort, timeout, close). */
  left(ticket: Ticket): void {
    const lane = this.#lanes.get(ticket.lane);
    if (lane === undefined || ticket.retried) return;
    this.#bytes -= Math.max(0, ticket.cost);
    if (--lane.queued === 0) {
      this.#lanes.delete(lane.session);
      // Its turn may be a while coming: it keeps none of its answered reads meanwhile.
      lane.tickets = [];
      lane.head = 0;
    }
  }

  /** The deepest lanes: session and reads waiting. */
  deepest(count: number): { session: string; queued: number }[] {
    return [...this.#lanes.values()]
      .map((lane) => ({ session: lane.session, queued: lane.queued }))
      .sort((a, b) => b.queued - a.queued)
      .slice(0, count);
  }

  /** Every waiting read, emptying the lanes (on close). */
  drain(): Ticket[] {
    const out: Ticket[] = [];
    for (const lane of this.#lanes.values()) {
      for (let i = lane.head; i < lane.tickets.length; i++) {
        const ticket = lane.tickets[i];
        if (ticket !== undefined) out.push(ticket);
      }
    }
    this.#turns.clear();
    this.#lanes.clear();
    this.#bytes = 0;
    return out;
  }

  /**
   * Takes up to `size` waiting reads, one per lane per turn. A batch holds at most
   * `BATCH_BYTES` of files (or one larger read), and a read of `SOLO_READ_BYTES` or more goes alone.
   */
  take(size: number): Ticket[] {
    const tickets: Ticket[] = [];
    let bytes = 0;
    for (let lane = this.#turns.peek(); lane !== undefined && tickets.length < size; lane = this.#turns.peek()) {
      // A lane that left early, or emptied by reads answered before they were sent.
      if (this.#lanes.get(lane.session) !== lane) {
        this.#turns.shift();
        continue;
      }
      let ticket = lane.tickets[lane.head];
      while (ticket !== undefined && ticket.state !== 'queued') {
        lane.tickets[lane.head] = undefined;
        ticket = lane.tickets[++lane.head];
      }
      // A lane in the map has a waiting read (`queued` counts them): only a guard.
      if (ticket === undefined) {
        this.#lanes.delete(lane.session);
        this.#turns.shift();
        continue;
      }
      const solo = ticket.cost >= SOLO_READ_BYTES;
      // An unsized read (cost -1) counts as small: the worker defers it if it is not.
      if (tickets.length > 0 && (solo || bytes + ticket.cost > BATCH_BYTES)) break;
      lane.tickets[lane.head++] = undefined;
      lane.queued--;
      tickets.push(ticket);
      bytes += Math.max(0, ticket.cost);
      this.#bytes -= Math.max(0, ticket.cost);
      this.#turns.shift();
      // Empty once its last waiting read is taken, whatever answered reads stay behind it.
      if (lane.queued === 0) this.#lanes.delete(lane.session);
      else {
        if (lane.head > 1024 && lane.head * 2 > lane.tickets.length) {
          lane.tickets = lane.tickets.slice(lane.head);
          lane.head = 0;
        }
        this.#turns.push(lane);
      }
      if (solo) break;
    }
    return tickets;
  }
}

/** `RetryLane.next`'s answer while nothing may be sent yet. */
export const HOLD = Symbol('hold');

/**
 * Reads whose batch's worker died: sent again one per batch, before anything else, and only with
 * nothing else in flight, so that a read that kills its worker again takes no other with it.
 */
export class RetryLane {
  #tickets: Ticket[] = [];
  #inFlight = false;

  add(ticket: Ticket): void {
    this.#tickets.push(ticket);
  }

  /**
   * The retry to send now (it is then in flight until `returned`); `HOLD` while a retry runs or,
   * with one waiting, other batches do; null when none waits. Retries answered meanwhile are dropped.
   */
  next(batchesInFlight: number): Ticket | typeof HOLD | null {
    if (this.#inFlight) return HOLD;
    while (this.#tickets[0] !== undefined && this.#tickets[0].state !== 'queued') this.#tickets.shift();
    const ticket = this.#tickets[0];
    if (ticket === undefined) return null;
    if (batchesInFlight > 0) return HOLD;
    this.#tickets.shift();
    this.#inFlight = true;
    return ticket;
  }

  /** The retry sent last came back. */
  returned(): void {
    this.#inFlight = false;
  }

  /** Every retry still waiting, taken out. */
  drain(): Ticket[] {
    const tickets = this.#tickets;
    this.#tickets = [];
    return tickets;
  }
}
