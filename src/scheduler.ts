import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import { CANCEL, encodeBatch, type JobBatch, type JobOutcome, type JobSpec } from './wire.js';

export interface SchedulerOptions {
  readonly maxQueued: number;
  readonly batchSize: number;
  /** Pool tasks in flight at once; two per thread keeps every worker busy between tasks. */
  readonly maxInFlight: number;
  /** Runs a batch in a worker. */
  readonly run: (batch: JobBatch) => Promise<JobOutcome[]>;
  /** Replaces the workers; called when a batch is stuck (see `stuckGraceMs`). */
  readonly recycle: () => void;
  /**
   * How long a batch may go on after all its reads were answered by abort or timeout. Workers
   * poll cancel flags between chunks, so a healthy one returns soon after; one that has not is
   * stuck in a system call (a hung network mount) and the workers are recycled.
   */
  readonly stuckGraceMs: number;
  /** Cancel flags shared with the workers; at least `maxInFlight * batchSize` slots. */
  readonly cancel: Int32Array;
}

export interface SchedulerStats {
  readonly queued: number;
  readonly running: number;
  readonly batchesInFlight: number;
  readonly batches: number;
  readonly meanBatchSize: number;
  /** Milliseconds from submit to answer, over every answered request. */
  readonly latencyMs: { readonly p50: number; readonly p99: number; readonly max: number };
}

interface Ticket {
  readonly job: JobSpec;
  readonly resolve: (outcome: JobOutcome) => void;
  readonly submittedAt: number;
  readonly cleanup: () => void;
  state: 'queued' | 'running' | 'settled';
  /** Cancel slot while running, else -1. */
  slot: number;
  /** The batch it runs in, once dispatched. */
  batch: Batch | null;
  /** Its deadline. */
  timer: NodeJS.Timeout | undefined;
  /** Sent again, alone, after its batch's worker died. */
  retried: boolean;
}

interface Batch {
  /** A lone retry after a worker died: nothing else is sent while it runs. */
  readonly retry: boolean;
  /** Reads of the batch not answered yet. */
  unanswered: number;
  /** Set once every read was answered by abort or timeout while the batch still runs. */
  stuckTimer: NodeJS.Timeout | undefined;
}

/**
 * Queues reads, sends them to the pool in batches, and guarantees each exactly one answer:
 * the worker's, or `aborted`, `timeout`, `overloaded` or `closed` from here. An abort or a
 * timeout answers at once; a read already in a worker is then stopped through its shared
 * cancel flag at the next chunk.
 */
export class Scheduler {
  readonly #options: SchedulerOptions;
  #queue: Ticket[] = [];
  /** Reads whose batch's worker died, sent again one per batch, before anything else. */
  #retries: Ticket[] = [];
  #retryInFlight = false;
  #head = 0;
  #queued = 0;
  #running = 0;
  #batchesInFlight = 0;
  #batches = 0;
  #batchedJobs = 0;
  #dispatchPending = false;
  #closed = false;
  readonly #drained = new Set<Promise<void>>();
  /** Tickets of the batches in workers (settled ones included until their batch returns). */
  readonly #inFlight = new Set<Ticket>();
  readonly #latency: RecordableHistogram = createHistogram();
  /** Moving average of a job's time in a worker, for the `overloaded` retry hint. */
  #jobMs = 1;

  /** Cancel slots not held by a running read. */
  readonly #freeSlots: number[];

  constructor(options: SchedulerOptions) {
    if (options.cancel.length < options.maxInFlight * options.batchSize) {
      throw new RangeError('the cancel array needs a slot for every read that can be in flight');
    }
    this.#options = options;
    this.#freeSlots = Array.from({ length: options.cancel.length }, (_, i) => i);
  }

  submit(job: JobSpec, timeoutMs: number, signal?: AbortSignal): Promise<JobOutcome> {
    if (this.#closed) return Promise.resolve(failure('closed', {}));
    if (signal?.aborted === true) return Promise.resolve(failure('aborted', { stage: 'queued' }));
    if (this.#queued >= this.#options.maxQueued) {
      const retryAfterMs = Math.min(5000, Math.max(50, Math.round((this.#queued * this.#jobMs) / this.#options.maxInFlight)));
      return Promise.resolve(failure('overloaded', { queued: this.#queued, retryAfterMs }));
    }
    return new Promise<JobOutcome>((resolve) => {
      const onAbort = () => this.#settle(ticket, failure('aborted', { stage: ticket.state }), CANCEL.aborted);
      const ticket: Ticket = {
        job,
        resolve,
        submittedAt: performance.now(),
        cleanup: () => {
          clearTimeout(ticket.timer);
          signal?.removeEventListener('abort', onAbort);
        },
        state: 'queued',
        slot: -1,
        batch: null,
        timer: undefined,
        retried: false,
      };
      // Listener first: if it throws, nothing was queued. Timer last, once the ticket exists.
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(ticket);
      this.#queued++;
      ticket.timer = setTimeout(() => this.#settle(ticket, failure('timeout', { timeoutMs }), CANCEL.timeout), timeoutMs);
      this.#scheduleDispatch();
    });
  }

  stats(): SchedulerStats {
    const ms = (ns: number) => Math.round(ns / 1e3) / 1e3;
    const h = this.#latency;
    const answered = h.count > 0;
    return {
      queued: this.#queued,
      running: this.#running,
      batchesInFlight: this.#batchesInFlight,
      batches: this.#batches,
      meanBatchSize: this.#batches === 0 ? 0 : this.#batchedJobs / this.#batches,
      latencyMs: {
        p50: answered ? ms(h.percentile(50)) : 0,
        p99: answered ? ms(h.percentile(99)) : 0,
        max: answered ? ms(h.max) : 0,
      },
    };
  }

  /**
   * Answers every queued read with `closed` and waits for the batches already in workers, for
   * at most `graceMs`: a worker stuck in a system call (a hung network mount) must not hang the
   * host's shutdown. Reads still running then are answered with `closed` and told to stop.
   */
  async close(graceMs: number): Promise<void> {
    this.#closed = true;
    for (let i = this.#head; i < this.#queue.length; i++) {
      const ticket = this.#queue[i];
      if (ticket !== undefined) this.#settle(ticket, failure('closed', {}), CANCEL.aborted);
    }
    for (const ticket of this.#retries) this.#settle(ticket, failure('closed', {}), CANCEL.aborted);
    this.#retries = [];
    this.#queue = [];
    this.#head = 0;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), graceMs);
    });
    const drained = await Promise.race([Promise.all(this.#drained), grace]);
    clearTimeout(timer);
    if (drained === 'late') {
      for (const ticket of this.#inFlight) this.#settle(ticket, failure('closed', { stage: 'running' }), CANCEL.aborted);
    }
  }

  #settle(ticket: Ticket, outcome: JobOutcome, flag: number): void {
    if (ticket.state === 'settled') return;
    if (ticket.state === 'queued') this.#queued--;
    else {
      this.#running--;
      if (ticket.slot >= 0 && flag !== CANCEL.none) Atomics.store(this.#options.cancel, ticket.slot, flag);
      const batch = ticket.batch;
      if (batch !== null && --batch.unanswered === 0 && flag !== CANCEL.none) {
        batch.stuckTimer = setTimeout(() => this.#options.recycle(), this.#options.stuckGraceMs);
        batch.stuckTimer.unref();
      }
    }
    ticket.state = 'settled';
    ticket.cleanup();
    this.#latency.record(Math.max(1, Math.round((performance.now() - ticket.submittedAt) * 1e6)));
    ticket.resolve(outcome);
  }

  #scheduleDispatch(): void {
    if (this.#dispatchPending) return;
    this.#dispatchPending = true;
    // Deferred so that every read submitted in the same tick can share a batch.
    queueMicrotask(() => {
      this.#dispatchPending = false;
      this.#dispatch();
    });
  }

  #dispatch(): void {
    const { maxInFlight, batchSize } = this.#options;
    while (!this.#closed && this.#batchesInFlight < maxInFlight && this.#queued > 0) {
      // A retry runs with nothing else in flight, so that if it kills its worker again it
      // takes no other read with it.
      if (this.#retryInFlight) return;
      const retry = this.#retries.shift();
      if (retry !== undefined) {
        if (retry.state !== 'queued') continue;
        if (this.#batchesInFlight > 0) {
          this.#retries.unshift(retry);
          return;
        }
        this.#retryInFlight = true;
        this.#send([retry], { retry: true });
        continue;
      }
      const free = maxInFlight - this.#batchesInFlight;
      const size = Math.min(batchSize, Math.ceil(this.#queued / free));
      const tickets = this.#take(size);
      if (tickets.length === 0) break;
      this.#send(tickets);
    }
  }

  #retry(ticket: Ticket): void {
    ticket.state = 'queued';
    ticket.retried = true;
    ticket.batch = null;
    ticket.slot = -1;
    this.#running--;
    this.#queued++;
    this.#retries.push(ticket);
  }

  #take(size: number): Ticket[] {
    const tickets: Ticket[] = [];
    while (tickets.length < size && this.#head < this.#queue.length) {
      const ticket = this.#queue[this.#head++];
      if (ticket !== undefined && ticket.state === 'queued') tickets.push(ticket);
    }
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    return tickets;
  }

  #send(tickets: Ticket[], { retry }: { retry: boolean } = { retry: false }): void {
    const { cancel } = this.#options;
    const batch: Batch = { retry, unanswered: tickets.length, stuckTimer: undefined };
    const slots = tickets.map((ticket) => {
      this.#inFlight.add(ticket);
      ticket.batch = batch;
      const slot = this.#freeSlots.pop() ?? -1;
      if (slot >= 0) Atomics.store(cancel, slot, CANCEL.none);
      ticket.state = 'running';
      ticket.slot = slot;
      return slot;
    });
    this.#queued -= tickets.length;
    this.#running += tickets.length;
    this.#batchesInFlight++;
    this.#batches++;
    this.#batchedJobs += tickets.length;
    const started = performance.now();
    const done = this.#options
      .run(encodeBatch(tickets.map((ticket, i) => ({ spec: ticket.job, slot: slots[i] ?? -1 }))))
      .then(
        (outcomes) => {
          tickets.forEach((ticket, index) => {
            this.#settle(ticket, outcomes[index] ?? failure('internal', { message: 'the worker returned no outcome' }), CANCEL.none);
          });
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
        if (batch.retry) this.#retryInFlight = false;
        // A slot is free again only once its worker is done with it, not when its read was answered.
        for (const slot of slots) if (slot >= 0) this.#freeSlots.push(slot);
        for (const ticket of tickets) this.#inFlight.delete(ticket);
        clearTimeout(batch.stuckTimer);
        this.#jobMs = 0.9 * this.#jobMs + 0.1 * ((performance.now() - started) / tickets.length);
        this.#batchesInFlight--;
        this.#drained.delete(done);
        this.#dispatch();
      });
    this.#drained.add(done);
  }
}

function failure(code: Extract<JobOutcome, { ok: false }>['code'], details: Readonly<Record<string, unknown>>): JobOutcome {
  return { ok: false, code, details };
}
