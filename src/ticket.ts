import type { JobOutcome, JobSpec } from './wire.js';

/** The `cost` of a read whose file was not statted: counted as small until a worker says otherwise. */
export const UNSIZED = -1;

/** One read in the scheduler, from submit to its one answer. */
export interface Ticket {
  readonly job: JobSpec;
  readonly lane: string;
  /** Bytes this read may scan, counted against `maxQueuedBytes`; -1 when unknown (not statted). */
  cost: number;
  /** When it was sent to a worker. */
  sentAt: number;
  /** The caller's answer; `answered` once called, so that a settled ticket holds no outcome. */
  resolve: (outcome: JobOutcome) => void;
  readonly submittedAt: number;
  /** The caller's signal, listened to with `onAbort` until the read is answered. */
  readonly signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
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

export interface Batch {
  /** A lone retry after a worker died: nothing else is sent while it runs. */
  readonly retry: boolean;
  /** The reads sent in it; a read sent again since (`Ticket.batch` no longer this one) belongs to its new batch. */
  readonly tickets: readonly Ticket[];
  /** Reads of the batch not answered yet. */
  unanswered: number;
  /** Its worker has begun it: until then it may wait in the worker's port behind another batch. */
  started: boolean;
  /** Set once every read was answered by abort or timeout while the batch has begun and not returned. */
  stuckTimer: NodeJS.Timeout | undefined;
}

/** What a settled ticket's `resolve` becomes (see `Scheduler.#settle`). */
export function answered(): void {}

/** A read just queued: not sent, no cancel slot, no batch, no deadline timer yet. */
export function newTicket(job: JobSpec, lane: string, cost: number, signal: AbortSignal | undefined, resolve: (outcome: JobOutcome) => void): Ticket {
  return {
    job,
    lane,
    cost,
    sentAt: 0,
    resolve,
    submittedAt: performance.now(),
    signal,
    onAbort: undefined,
    state: 'queued',
    slot: -1,
    batch: null,
    timer: undefined,
    retried: false,
  };
}

/** Marks a ticket sent to a worker in `batch`, with its cancel slot; returns the slot. */
export function markSent(ticket: Ticket, batch: Batch, slot: number, sentAt: number): number {
  ticket.batch = batch;
  ticket.sentAt = sentAt;
  ticket.state = 'running';
  ticket.slot = slot;
  return slot;
}

export function failure(code: Extract<JobOutcome, { ok: false }>['code'], details: Readonly<Record<string, unknown>>): JobOutcome {
  return { ok: false, code, details };
}
