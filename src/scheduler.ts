import os from 'node:os';
import { BatchesOut } from './batches-out.js';
import { CancelSlots } from './cancel-slots.js';
import { settlesWithin } from './deadlines.js';
import { HOLD, Lanes, RetryLane } from './lanes.js';
import { SchedulerClock } from './latency.js';
import { OncePerTurn } from './microtask.js';
import type { SchedulerOptions, SchedulerStats } from './scheduler-options.js';
import { answered, failure, markSent, newTicket, UNSIZED, type Batch, type Ticket } from './ticket.js';
import { TaskSizing, shareFloor } from './task-sizing.js';
import { CANCEL, encodeBatch, type JobOutcome, type JobSpec } from './wire.js';

export type { SchedulerOptions, SchedulerStats } from './scheduler-options.js';
export { UNSIZED } from './ticket.js';

/**
 * Queues reads, sends them to the pool in batches, and guarantees each exactly one answer:
 * the worker's, or `aborted`, `timeout`, `overloaded` or `closed` from here. An abort or a
 * timeout answers at once; a read already in a worker is then stopped through its shared
 * cancel flag at the next chunk.
 */
export class Scheduler {
  readonly #options: SchedulerOptions;
  /** Waiting reads by session. */
  readonly #lanes = new Lanes();
  #bytes = 0;
  readonly #retries = new RetryLane();
  #queued = 0;
  #running = 0;
  /** Deferred so that every read submitted in the same tick can share a batch. */
  readonly #dispatchSoon = new OncePerTurn(() => this.#dispatch());
  /** Tells the gate, once this turn's settling is done, that sessions may have room again. */
  readonly #roomSoon: OncePerTurn | null;
  /** How many reads the next task takes (see `src/task-sizing.ts`). */
  readonly #sizing: TaskSizing;
  #closed = false;
  readonly #drained = new Set<Promise<void>>();
  readonly #batches: BatchesOut;
  readonly #clock = new SchedulerClock();
  readonly #slots: CancelSlots;

  constructor(options: SchedulerOptions) {
    if (options.cancel.length < Math.max(options.maxInFlight, options.aloneInFlight ?? 0) * options.batchSize) {
      throw new RangeError('the cancel array needs a slot for every read that can be in flight');
    }
    this.#options = options;
    const recycle = () => options.recycle();
    this.#batches = new BatchesOut(options.stuckGraceMs, recycle);
    const floor = options.shareFloor ?? shareFloor(options.maxInFlight);
    const cores = options.cores ?? os.availableParallelism();
    const inFlight = { maxInFlight: options.maxInFlight, aloneInFlight: options.aloneInFlight ?? options.maxInFlight };
    this.#sizing = new TaskSizing({ batchSize: options.batchSize, floor, cores, ...inFlight, ...(options.holdMs === undefined ? {} : { holdMs: options.holdMs }) }, () => this.#dispatch());
    this.#slots = new CancelSlots(options.cancel);
    this.#roomSoon = options.onRoom === undefined ? null : new OncePerTurn(options.onRoom);
  }

  /**
   * Queues a read in its session's lane and answers it through a promise. `cost` is the bytes it
   * may scan (the file's size, or less when a line index lets it seek), bounded in total by
   * `maxQueuedBytes`; `UNSIZED` when the caller did not stat the file.
   */
  submit(job: JobSpec, timeoutMs: number, signal?: AbortSignal, lane = '', cost = 0): Promise<JobOutcome> {
    return new Promise<JobOutcome>((resolve) => this.enqueue(job, timeoutMs, signal, lane, cost, resolve));
  }

  /**
   * `submit` without the promise: `answer` is called exactly once, with the read's outcome. The
   * read's ticket, or null when it was answered at once (closed, aborted, overloaded): its
   * `state` says whether it was sent to a worker, and `cancel` stops it.
   */
  enqueue(job: JobSpec, timeoutMs: number, signal: AbortSignal | undefined, lane: string, cost: number, answer: (outcome: JobOutcome) => void): Ticket | null {
    const bytes = Math.max(0, cost);
    const refusal = this.#refusal(signal, bytes);
    if (refusal !== null) {
      answer(refusal);
      return null;
    }
    this.#bytes += bytes;
    const ticket = newTicket(job, lane, cost, signal, answer);
    // A closure only where a signal can cancel the read: most reads have none.
    if (signal !== undefined) {
      const onAbort = () => this.cancel(ticket);
      // Listener first: if it throws, nothing was queued. Timer last, once the ticket exists.
      signal.addEventListener('abort', onAbort, { once: true });
      ticket.onAbort = onAbort;
    }
    this.#lanes.push(ticket);
    this.#queued++;
    // Infinity: the caller keeps the deadline itself (shared work whose waiters each have one).
    if (Number.isFinite(timeoutMs)) {
      ticket.timer = setTimeout(() => this.#settle(ticket, failure('timeout', { timeoutMs, stage: ticket.state }), CANCEL.timeout), timeoutMs);
    }
    this.#dispatchSoon.request();
    return ticket;
  }

  /** Answers a read `aborted` and stops it, as its signal would (shared work is cancelled this way). */
  cancel(ticket: Ticket): void {
    this.#settle(ticket, failure('aborted', { stage: ticket.state }), CANCEL.aborted);
  }

  /** Reads waiting for a worker. */
  get queued(): number {
    return this.#queued;
  }

  /** Reads of one session waiting for a worker. */
  queuedIn(session: string): number {
    return this.#lanes.queuedIn(session);
  }

  /** Why a read of `bytes` cannot be queued now (closed, aborted already, overloaded), or null. */
  #refusal(signal: AbortSignal | undefined, bytes: number): JobOutcome | null {
    if (this.#closed) return failure('closed', {});
    if (signal?.aborted === true) return failure('aborted', { stage: 'queued' });
    return this.#overloaded(bytes, this.#queued >= this.#options.maxQueued);
  }

  /** `overloaded` when `bytes` more would pass `maxQueuedBytes` (or `full` says so), else null. */
  #overloaded(bytes: number, full: boolean): JobOutcome | null {
    if (!full && !(this.#bytes > 0 && this.#bytes + bytes > this.#options.maxQueuedBytes)) return null;
    return failure('overloaded', { queued: this.#queued, bytes: this.#bytes, retryAfterMs: this.retryAfterMs(this.#queued) });
  }

  /** A retry hint for `overloaded`: about how long the reads ahead will take. */
  retryAfterMs(ahead: number): number {
    return this.#clock.retryAfterMs(ahead, this.#options.maxInFlight);
  }

  stats(): SchedulerStats {
    return {
      queued: this.#queued,
      running: this.#running,
      bytesAdmitted: this.#bytes,
      lanes: this.#lanes.count,
      deepestLanes: this.#lanes.deepest(5),
      batchesInFlight: this.#batches.size,
      ...this.#clock.summary(),
    };
  }

  /**
   * Answers every queued read with `closed` and waits for the batches already in workers, for
   * at most `graceMs`: a worker stuck in a system call (a hung network mount) must not hang the
   * host's shutdown. Reads still running then are answered with `closed` and told to stop.
   */
  async close(graceMs: number): Promise<void> {
    this.#closed = true;
    this.#sizing.close();
    for (const ticket of this.#lanes.drain()) this.#settle(ticket, failure('closed', {}), CANCEL.aborted);
    for (const ticket of this.#retries.drain()) this.#settle(ticket, failure('closed', {}), CANCEL.aborted);
    // Kept alive: the host awaits this close, which must settle however the workers fare.
    if (!(await settlesWithin(Promise.all(this.#drained), graceMs, { keepAlive: true }))) {
      for (const batch of this.#batches.values()) {
        for (const ticket of batch.tickets) if (ticket.batch === batch) this.#settle(ticket, failure('closed', { stage: 'running' }), CANCEL.aborted);
      }
    }
  }

  /** Answers a read once; `now` is passed by a batch answering many at the same moment. */
  #settle(ticket: Ticket, outcome: JobOutcome, flag: number, now = performance.now()): void {
    if (ticket.state === 'settled') return;
    this.#bytes -= Math.max(0, ticket.cost);
    if (ticket.state === 'queued') {
      this.#queued--;
      this.#lanes.left(ticket);
      // Its session has room again: reads waiting for it must not wait for some batch to end.
      this.#roomSoon?.request();
    } else {
      if (flag === CANCEL.none) this.#clock.run.record(now - ticket.sentAt);
      this.#running--;
      if (flag !== CANCEL.none) this.#slots.raise(ticket.slot, flag);
      const batch = ticket.batch;
      if (batch !== null && --batch.unanswered === 0 && flag !== CANCEL.none) this.#batches.answeredEarly(batch);
    }
    ticket.state = 'settled';
    clearTimeout(ticket.timer);
    if (ticket.onAbort !== undefined) ticket.signal?.removeEventListener('abort', ticket.onAbort);
    this.#clock.total.record(now - ticket.submittedAt);
    // A settled ticket can outlive its read (a Set's retired table keeps what it held until a
    // full GC): without the caller's callback it keeps nothing of the answer alive with it.
    const resolve = ticket.resolve;
    ticket.resolve = answered;
    resolve(outcome);
  }

  #dispatch(): void {
    const { maxInFlight } = this.#options;
    const limit = this.#sizing.limit(this.#lanes.count);
    while (!this.#closed && this.#batches.size < limit && this.#queued > 0) {
      const retry = this.#retries.next(this.#batches.size);
      if (retry === HOLD) return;
      if (retry !== null) {
        this.#send([retry], { retry: true });
        continue;
      }
      const size = this.#sizing.next({
        queued: this.#queued,
        queuedBytes: this.#lanes.bytes,
        sessions: this.#lanes.count,
        inFlight: this.#batches.size,
        free: limit - this.#batches.size,
        running: this.#running,
        paceMs: this.#clock.paceMs,
        idle: Math.max(0, maxInFlight - this.#batches.begun),
      });
      if (size === 0) break;
      const tickets = this.#lanes.take(size);
      if (tickets.length === 0) break;
      this.#send(tickets);
    }
    this.#options.onRoom?.();
  }

  /** A worker died with `ticket` in its batch: sent again alone, once (see `#send`). */
  #retry(ticket: Ticket): void {
    ticket.retried = true;
    this.#requeue(ticket);
    this.#retries.add(ticket);
  }

  /**
   * A read sent unsized met a file too large for its batch: it waits again in its lane, now sized,
   * so it is batched by its size (alone, when large). Admitted again as `enqueue` admits (the
   * bytes bound, `closed` once closing has emptied the lanes).
   */
  #resend(ticket: Ticket, size: number): void {
    if (ticket.state !== 'running') return;
    if (this.#closed) return this.#settle(ticket, failure('closed', {}), CANCEL.none);
    const overloaded = this.#overloaded(size, false);
    if (overloaded !== null) return this.#settle(ticket, overloaded, CANCEL.none);
    ticket.cost = size;
    this.#bytes += size;
    this.#requeue(ticket);
    this.#lanes.push(ticket);
  }

  /** A running read waits again: no batch, no slot (its batch's return frees the slot). */
  #requeue(ticket: Ticket): void {
    ticket.state = 'queued';
    ticket.batch = null;
    ticket.slot = -1;
    this.#running--;
    this.#queued++;
  }

  #send(tickets: Ticket[], { retry }: { retry: boolean } = { retry: false }): void {
    const batch: Batch = { retry, tickets, unanswered: tickets.length, started: false, stuckTimer: undefined };
    const sentAt = performance.now();
    // The batch's time in its worker, where the pool says; null while it has not answered.
    let workerMs: number | null | undefined = null;
    const slots = tickets.map((ticket) => {
      this.#clock.wait.record(sentAt - ticket.submittedAt);
      return markSent(ticket, batch, this.#slots.take(), sentAt);
    });
    this.#queued -= tickets.length;
    this.#running += tickets.length;
    this.#batches.add(batch);
    this.#clock.sent(tickets.length);
    const done = this.#options
      .run(
        encodeBatch(tickets.map((ticket, i) => ({ spec: ticket.job, slot: slots[i] ?? -1, defer: ticket.cost === UNSIZED && tickets.length > 1, size: ticket.cost }))),
        () => this.#batches.began(batch),
      )
      .then(
        (outcomes) => {
          workerMs = outcomes.workerMs;
          const now = performance.now();
          for (let i = 0; i < tickets.length; i++) {
            const ticket = tickets[i] as Ticket;
            const outcome = outcomes[i] ?? failure('internal', { message: 'the worker returned no outcome' });
            if ('resend' in outcome) this.#resend(ticket, outcome.resend);
            else this.#settle(ticket, outcome, CANCEL.none, now);
          }
          outcomes.length = 0;
        },
        (error: unknown) => {
          // The worker died (out of memory, stopped), taking every task it held. One read may
          // be the cause: each is retried once, alone, so only the culprit fails.
          const message = error instanceof Error ? error.message : String(error);
          for (const ticket of tickets) {
            if (ticket.state !== 'running') continue;
            if (ticket.retried) this.#settle(ticket, failure('internal', { message }), CANCEL.none);
            else this.#retry(ticket);
          }
        },
      )
      .finally(() => {
        if (batch.retry) this.#retries.returned();
        this.#slots.release(slots);
        this.#clock.returned(tickets.length, performance.now() - sentAt, workerMs);
        this.#batches.returned(batch);
        this.#drained.delete(done);
        this.#dispatch();
      });
    this.#drained.add(done);
  }
}
