/** What the scheduler is built with, and what it reports. */
import type { LatencySummary } from './latency.js';
import type { JobBatch, PoolAnswers } from './wire.js';

export interface SchedulerOptions {
  readonly maxQueued: number;
  /**
   * Bytes of files queued or running (from their sizes) before new reads are refused with
   * `overloaded`. A read alone is always admitted, however large.
   */
  readonly maxQueuedBytes: number;
  readonly batchSize: number;
  /** Pool tasks in flight at once (the engine sends one a worker thread). */
  readonly maxInFlight: number;
  /**
   * Pool tasks in flight while at most one session has reads waiting: more than `maxInFlight`
   * lets a worker hold its next batch while it runs one (the engine does so on small machines).
   * Default `maxInFlight`.
   */
  readonly aloneInFlight?: number;
  /**
   * The share floor's ceiling: the fewest reads a task goes with while reads are quick and the
   * backlog is deep, lowered for a thin one (see `src/task-sizing.ts`); default
   * `shareFloor(maxInFlight)`.
   */
  readonly shareFloor?: number;
  /**
   * Cores the workers run on: the share floor keeps at most this many busy (see
   * `src/task-sizing.ts`); default `os.availableParallelism()`.
   */
  readonly cores?: number;
  /** The longest a few reads wait for tasks to come back rather than go as a task of their own; default 2 ms. */
  readonly holdMs?: number;
  /**
   * Runs a batch in a worker, calling `started` when the worker begins it (at once for an idle
   * worker; for a batch waiting behind another in a worker's port, when that one returns).
   */
  readonly run: (batch: JobBatch, started: () => void) => Promise<PoolAnswers>;
  /** Replaces the workers; called when a batch is stuck (see `stuckGraceMs`). */
  readonly recycle: () => void;
  /**
   * How long a batch may go on after all its reads were answered by abort or timeout. Workers
   * poll cancel flags between chunks, so a healthy one returns soon after; one that has not is
   * stuck in a system call (a hung network mount) and the workers are recycled.
   */
  readonly stuckGraceMs: number;
  /** Cancel flags shared with the workers; a slot for every read that can be in flight (`batchSize` a task). */
  readonly cancel: Int32Array;
  /** Called whenever reads may have left the queue (a batch sent or finished). */
  readonly onRoom?: () => void;
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
  /** A read's time in its worker lately, in milliseconds (a moving average; 0 before any batch came back). */
  readonly paceMs: number;
}
