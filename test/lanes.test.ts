/**
 * The scheduler's lanes (src/lanes.ts) on their own: waiting reads taken round-robin by session,
 * within a batch's byte budget, with lanes that empty or leave early passed over. Checked against
 * a plain model of the rule over many random steps, as the swarm drives it (many sessions, one
 * or two reads each) and as a flood does (few sessions, many reads each).
 */
import { describe, expect, it } from 'vitest';
import { HeadQueue } from '../src/head-queue.js';
import { Lanes } from '../src/lanes.js';
import { newTicket, type Ticket } from '../src/ticket.js';
import { BATCH_BYTES, SOLO_READ_BYTES, type JobSpec } from '../src/wire.js';

let serial = 0;
/** A queued read of `session` that scans `cost` bytes; its job names it, for the assertions. */
function ticket(session: string, cost = 1000): Ticket {
  return newTicket({ path: `${session}#${serial++}` } as unknown as JobSpec, session, cost, undefined, () => {});
}
const names = (tickets: readonly Ticket[]) => tickets.map((t) => (t.job as unknown as { path: string }).path);

describe('Lanes', () => {
  it('takes one read a session a turn, in the order sessions arrived, and goes on where the last take stopped', () => {
    const lanes = new Lanes();
    const a = [ticket('a'), ticket('a'), ticket('a')];
    const b = [ticket('b')];
    const c = [ticket('c'), ticket('c')];
    for (const t of [a[0], b[0], a[1], c[0], a[2], c[1]]) lanes.push(t as Ticket);
    expect(lanes.count).toBe(3);
    expect(names(lanes.take(2))).toEqual(names([a[0], b[0]] as Ticket[]));
    // b is empty and gone; c's turn comes before a's second.
    expect(lanes.count).toBe(2);
    expect(names(lanes.take(10))).toEqual(names([c[0], a[1], c[1], a[2]] as Ticket[]));
    expect(lanes.count).toBe(0);
    expect(lanes.take(10)).toEqual([]);
  });

  it('passes over a session whose reads were all answered before they were sent, and takes its later reads in a new turn at the back', () => {
    const lanes = new Lanes();
    const early = ticket('early');
    const other = [ticket('other'), ticket('other')];
    lanes.push(early);
    for (const t of other) lanes.push(t);
    early.state = 'settled';
    lanes.left(early);
    expect(lanes.count).toBe(1);
    expect(lanes.queuedIn('early')).toBe(0);
    const again = ticket('early');
    lanes.push(again);
    expect(lanes.queuedIn('early')).toBe(1);
    expect(names(lanes.take(10))).toEqual(names([other[0], again, other[1]] as Ticket[]));
    expect(lanes.bytes).toBe(0);
  });

  it('keeps the turn order of waiting sessions through thousands of sessions that leave before any take', () => {
    const lanes = new Lanes();
    const live: Ticket[] = [];
    for (let round = 0; round < 4; round++) {
      const t = ticket(`live-${round}`);
      lanes.push(t);
      live.push(t);
      for (let i = 0; i < 1500; i++) {
        const gone = ticket(`gone-${round}-${i}`);
        lanes.push(gone);
        gone.state = 'settled';
        lanes.left(gone);
      }
    }
    expect(lanes.count).toBe(4);
    expect(names(lanes.take(10))).toEqual(names(live));
  });

  it('keeps a read that would overfill the batch first in line for the next take, and sends a very large read alone', () => {
    const lanes = new Lanes();
    const big = ticket('a', BATCH_BYTES - 100);
    const next = ticket('b', 200);
    const solo = ticket('c', SOLO_READ_BYTES);
    const after = ticket('d', 10);
    for (const t of [big, next, solo, after]) lanes.push(t);
    expect(names(lanes.take(10))).toEqual(names([big]));
    expect(names(lanes.take(10))).toEqual(names([next]));
    expect(names(lanes.take(10))).toEqual(names([solo]));
    expect(names(lanes.take(10))).toEqual(names([after]));
  });

  it('drains every waiting read, and its depths say who waits most', () => {
    const lanes = new Lanes();
    for (const session of ['a', 'b', 'b', 'c', 'c', 'c']) lanes.push(ticket(session));
    lanes.take(1);
    expect(lanes.deepest(2)).toEqual([
      { session: 'c', queued: 3 },
      { session: 'b', queued: 2 },
    ]);
    expect(lanes.drain()).toHaveLength(5);
    expect(lanes.count).toBe(0);
    expect(lanes.bytes).toBe(0);
    expect(lanes.take(10)).toEqual([]);
  });

  it('agrees with a plain round-robin model over random pushes, takes and early answers', () => {
    for (const [sessions, steps] of [
      [256, 6000],
      [3, 6000],
    ] as const) {
      let seed = sessions;
      const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
      const lanes = new Lanes();
      /** The model: sessions in turn order, each with its queued reads in order. */
      const model: { session: string; queue: Ticket[] }[] = [];
      const queued: Ticket[] = [];
      for (let step = 0; step < steps; step++) {
        const roll = random();
        if (roll < 0.5) {
          const session = `s${Math.floor(random() * sessions)}`;
          // Mostly small files; some large enough to fill a batch's bytes, some unsized, a few sent alone.
          const kind = random();
          const cost = kind < 0.7 ? Math.floor(random() * 4000) : kind < 0.9 ? Math.floor(random() * 120_000) : kind < 0.95 ? -1 : SOLO_READ_BYTES;
          const t = ticket(session, cost);
          lanes.push(t);
          queued.push(t);
          const lane = model.find((entry) => entry.session === session);
          if (lane === undefined) model.push({ session, queue: [t] });
          else lane.queue.push(t);
        } else if (roll < 0.6 && queued.length > 0) {
          const t = queued.splice(Math.floor(random() * queued.length), 1)[0] as Ticket;
          t.state = 'settled';
          lanes.left(t);
          const at = model.findIndex((entry) => entry.session === t.lane);
          const lane = model[at] as { queue: Ticket[] };
          lane.queue.splice(lane.queue.indexOf(t), 1);
          if (lane.queue.length === 0) model.splice(at, 1);
        } else {
          const size = 1 + Math.floor(random() * 40);
          const expected: Ticket[] = [];
          let bytes = 0;
          while (expected.length < size && model.length > 0) {
            const lane = model[0] as { session: string; queue: Ticket[] };
            const next = lane.queue[0] as Ticket;
            const solo = next.cost >= SOLO_READ_BYTES;
            // The batch's bytes are full, or a read that goes alone waits for a batch of its own.
            if (expected.length > 0 && (solo || bytes + next.cost > BATCH_BYTES)) break;
            model.shift();
            expected.push(lane.queue.shift() as Ticket);
            bytes += Math.max(0, next.cost);
            if (lane.queue.length > 0) model.push(lane);
            if (solo) break;
          }
          const taken = lanes.take(size);
          expect(names(taken)).toEqual(names(expected));
          for (const t of taken) {
            t.state = 'running';
            queued.splice(queued.indexOf(t), 1);
          }
        }
        expect(lanes.count).toBe(model.length);
        expect(lanes.bytes).toBe(model.reduce((sum, lane) => sum + lane.queue.reduce((n, t) => n + Math.max(0, t.cost), 0), 0));
        for (const lane of model.slice(0, 3)) expect(lanes.queuedIn(lane.session)).toBe(lane.queue.length);
      }
    }
  });
});

describe('HeadQueue', () => {
  it('hands items out first in, first out across its compactions, and keeps what it is told to', () => {
    const queue = new HeadQueue<number>();
    const expected: number[] = [];
    let next = 0;
    // A backlog of 100, then one in and one out a step: the array is cut down several times
    // while items remain in it.
    for (; next < 100; next++) {
      queue.push(next);
      expected.push(next);
    }
    for (let step = 0; step < 5000; step++) {
      queue.push(next);
      expected.push(next++);
      expect(queue.shift()).toBe(expected.shift());
      expect(queue.size).toBe(expected.length);
      expect(queue.peek()).toBe(expected[0]);
    }
    queue.keep((item) => item % 3 === 0);
    const kept = expected.filter((item) => item % 3 === 0);
    expect(queue.size).toBe(kept.length);
    for (const item of kept) expect(queue.shift()).toBe(item);
    expect(queue.shift()).toBeUndefined();
    expect(queue.size).toBe(0);
  });
});
