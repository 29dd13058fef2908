import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import { CANCEL, encodeBatch, type JobBatch, type JobOutcome, type JobSpec } from './wire.js';

export interface SchedulerOptions {
  readonly maxQueued: number;
  /**
   * Bytes of files queued or running (from their sizes) before new reads are refused with
   * `overloaded`. A read alone is always admitted, however large.
   */
  readonly maxQueuedBytes: number;
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
  /** Called whenever reads may have left the queue (a batch sent or finished). */
  readonly onRoom?: () => void;
}

/**
 * Filled in by `submit`: calling `cancel` answers the read `aborted` and stops it, as an
 * AbortSignal would, without the cost of one per read (shared work is cancelled this way).
 */
export interface CancelHook {
  cancel?: () => void;
}

/** A percentile summary of a histogram, in milliseconds. */
export interface LatencySummary {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

export interface SchedulerStats {
  readonly queued: number;
  readonly running: number;
  /** Bytes of files queued or running, the measure admission is bounded by. */
  readonly bytesAdmitted: number;
  /** Sessions with reads waiting (each is a lane, served round-robin). */
  readonly lanes: number;
  /** The deepest lanes: session (`''` for reads without one) and reads waiting. */
  readonly deepestLanes: readonly { readonly session: string; readonly queued: number }[];
  readonly batchesInFlight: number;
  readonly batches: number;
  readonly meanBatchSize: number;
  /** Milliseconds from submit to answer, over every answered request. */
  readonly latencyMs: LatencySummary;
  /** Milliseconds from submit until sent to a worker. */
  readonly waitMs: LatencySummary;
  /** Milliseconds from sent to a worker until answered by it. */
  readonly runMs: LatencySummary;
}

/** Reads of at least this many bytes go to a worker alone, never delaying a batch of small ones. */
export const SOLO_READ_BYTES = 8 * 1024 * 1024;

/**
 * A batch stops growing at this many bytes of files: about a millisecond of a worker's time, so
 * a read arriving from another session waits behind little work, whatever the file sizes.
 */
export const BATCH_BYTES = 256 * 1024;

/** The reads one session has waiting, in order. */
interface Lane {
  readonly session: string;
  tickets: Ticket[];
  head: number;
  /** Its reads still waiting (settled ones excluded). */
  queued: number;
}

interface Ticket {
  readonly job: JobSpec;
  readonly lane: string;
  /** Bytes this read may scan, counted against `maxQueuedBytes`. */
  readonly cost: number;
  /** When it was sent to a worker. */
  sentAt: number;
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
  /** Waiting reads by session. */
  readonly #lanes = new Map<string, Lane>();
  /** Lanes with reads waiting, visited round-robin from `#turn`. */
  #ring: Lane[] = [];
  #turn = 0;
  #bytes = 0;
  /** Reads whose batch's worker died, sent again one per batch, before anything else. */
  #retries: Ticket[] = [];
  #retryInFlight = false;
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
  readonly #wait: RecordableHistogram = createHistogram();
  readonly #run: RecordableHistogram = createHistogram();
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

  /**
   * Queues a read in its session's lane. `cost` is the bytes it may scan (the file's size, or
   * less when a line index lets it seek), bounded in total by `maxQueuedBytes`.
   */
  submit(job: JobSpec, timeoutMs: number, signal?: AbortSignal, lane = '', cost = 0, hook?: CancelHook): Promise<JobOutcome> {
    if (this.#closed) return Promise.resolve(failure('closed', {}));
    if (signal?.aborted === true) return Promise.resolve(failure('aborted', { stage: 'queued' }));
    const overBytes = this.#bytes > 0 && this.#bytes + cost > this.#options.maxQueuedBytes;
    if (this.#queued >= this.#options.maxQueued || overBytes) {
      const retryAfterMs = this.retryAfterMs(this.#queued);
      return Promise.resolve(failure('overloaded', { queued: this.#queued, bytes: this.#bytes, retryAfterMs }));
    }
    this.#bytes += cost;
    return new Promise<JobOutcome>((resolve) => {
      const onAbort = () => this.#settle(ticket, failure('aborted', { stage: ticket.state }), CANCEL.aborted);
      const ticket: Ticket = {
        job,
        lane,
        cost,
        sentAt: 0,
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
      if (hook !== undefined) hook.cancel = onAbort;
      this.#enqueue(ticket);
      this.#queued++;
      // Infinity: the caller keeps the deadline itself (shared work whose waiters each have one).
      if (Number.isFinite(timeoutMs)) {
        ticket.timer = setTimeout(() => this.#settle(ticket, failure('timeout', { timeoutMs }), CANCEL.timeout), timeoutMs);
      }
      this.#scheduleDispatch();
    });
  }

  /** Reads waiting for a worker. */
  get queued(): number {
    return this.#queued;
  }

  /** Reads of one session waiting for a worker. */
  queuedIn(session: string): number {
    return this.#lanes.get(session)?.queued ?? 0;
  }

  /** A retry hint for `overloaded`: about how long the reads ahead will take. */
  retryAfterMs(ahead: number): number {
    return Math.min(5000, Math.max(50, Math.round((ahead * this.#jobMs) / this.#options.maxInFlight)));
  }

  stats(): SchedulerStats {
    const deepest = this.#ring
      .map((lane) => ({ session: lane.session, queued: lane.queued }))
      .sort((a, b) => b.queued - a.queued)
      .slice(0, 5);
    return {
      queued: this.#queued,
      running: this.#running,
      bytesAdmitted: this.#bytes,
      lanes: this.#ring.length,
      deepestLanes: deepest,
      batchesInFlight: this.#batchesInFlight,
      batches: this.#batches,
      meanBatchSize: this.#batches === 0 ? 0 : this.#batchedJobs / this.#batches,
      latencyMs: summarise(this.#latency),
      waitMs: summarise(this.#wait),
      runMs: summarise(this.#run),
    };
  }

  /**
   * Answers every queued read with `closed` and waits for the batches already in workers, for
   * at most `graceMs`: a worker stuck in a system call (a hung network mount) must not hang the
   * host's shutdown. Reads still running then are answered with `closed` and told to stop.
   */
  async close(graceMs: number): Promise<void> {
    this.#closed = true;
    for (const lane of this.#ring) {
      for (let i = lane.head; i < lane.tickets.length; i++) {
        const ticket = lane.tickets[i];
        if (ticket !== undefined) this.#settle(ticket, failure('closed', {}), CANCEL.aborted);
      }
    }
    for (const ticket of this.#retries) this.#settle(ticket, failure('closed', {}), CANCEL.aborted);
    this.#retries = [];
    this.#ring = [];
    this.#lanes.clear();
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
    this.#bytes -= ticket.cost;
    if (ticket.state === 'queued') {
      this.#queued--;
      const lane = this.#lanes.get(ticket.lane);
      if (lane !== undefined && !ticket.retried && --lane.queued === 0) this.#dropLane(lane);
      // Its session has room again: reads waiting for it must not wait for some batch to end.
      this.#roomSoon();
    } else {
      if (flag === CANCEL.none) this.#run.record(nanos(performance.now() - ticket.sentAt));
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
    this.#latency.record(nanos(performance.now() - ticket.submittedAt));
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
      // With several sessions waiting, smaller batches: a session's next read then waits behind
      // less of another's work (the fairness scenario: others' p99 2.5x instead of 3x).
      const cap = this.#ring.length > 1 ? Math.max(4, batchSize >> 2) : batchSize;
      const size = Math.min(cap, Math.ceil(this.#queued / free));
      const tickets = this.#take(size);
      if (tickets.length === 0) break;
      this.#send(tickets);
    }
    this.#options.onRoom?.();
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

  #enqueue(ticket: Ticket): void {
    let lane = this.#lanes.get(ticket.lane);
    if (lane === undefined) {
      lane = { session: ticket.lane, tickets: [], head: 0, queued: 0 };
      this.#lanes.set(ticket.lane, lane);
      this.#ring.push(lane);
    }
    lane.tickets.push(ticket);
    lane.queued++;
  }

  /**
   * Takes up to `size` waiting reads, one per lane per turn, so one session's ten thousand
   * reads cannot starve another's one. A batch holds at most `BATCH_BYTES` of files (or one
   * larger read), and a read of `SOLO_READ_BYTES` or more goes alone.
   */
  #take(size: number): Ticket[] {
    const tickets: Ticket[] = [];
    let bytes = 0;
    while (tickets.length < size && this.#ring.length > 0) {
      if (this.#turn >= this.#ring.length) this.#turn = 0;
      const lane = this.#ring[this.#turn];
      if (lane === undefined) break;
      let ticket = lane.tickets[lane.head];
      while (ticket !== undefined && ticket.state !== 'queued') ticket = lane.tickets[++lane.head];
      if (ticket === undefined) {
        this.#dropLane(lane);
        continue;
      }
      const solo = ticket.cost >= SOLO_READ_BYTES;
      if (tickets.length > 0 && (solo || bytes + ticket.cost > BATCH_BYTES)) break;
      lane.head++;
      lane.queued--;
      tickets.push(ticket);
      bytes += ticket.cost;
      if (lane.head >= lane.tickets.length) this.#dropLane(lane);
      else {
        if (lane.head > 1024 && lane.head * 2 > lane.tickets.length) {
          lane.tickets = lane.tickets.slice(lane.head);
          lane.head = 0;
        }
        this.#turn++;
      }
      if (solo) break;
    }
    return tickets;
  }

  /** Removes a lane with nothing left from the ring; the next lane takes its turn. */
  #dropLane(lane: Lane): void {
    if (this.#lanes.get(lane.session) === lane) this.#lanes.delete(lane.session);
    const at = this.#ring.indexOf(lane);
    if (at < 0) return;
    this.#ring.splice(at, 1);
    if (at < this.#turn) this.#turn--;
  }

  #roomPending = false;

  /** Tells the gate, once this turn's settling is done, that sessions may have room again. */
  #roomSoon(): void {
    if (this.#roomPending || this.#options.onRoom === undefined) return;
    this.#roomPending = true;
    queueMicrotask(() => {
      this.#roomPending = false;
      this.#options.onRoom?.();
    });
  }

  #send(tickets: Ticket[], { retry }: { retry: boolean } = { retry: false }): void {
    const { cancel } = this.#options;
    const batch: Batch = { retry, unanswered: tickets.length, stuckTimer: undefined };
    const slots = tickets.map((ticket) => {
      this.#inFlight.add(ticket);
      ticket.batch = batch;
      const slot = this.#freeSlots.pop() ?? -1;
      if (slot >= 0) Atomics.store(cancel, slot, CANCEL.none);
      ticket.sentAt = performance.now();
      this.#wait.record(nanos(ticket.sentAt - ticket.submittedAt));
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

function nanos(ms: number): number {
  return Math.max(1, Math.round(ms * 1e6));
}

function summarise(h: RecordableHistogram): LatencySummary {
  if (h.count === 0) return { p50: 0, p99: 0, max: 0 };
  const ms = (ns: number) => Math.round(ns / 1e3) / 1e3;
  return { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max) };
}

function failure(code: Extract<JobOutcome, { ok: false }>['code'], details: Readonly<Record<string, unknown>>): JobOutcome {
  return { ok: false, code, details };
}
