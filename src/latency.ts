import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';

/** The least an `overloaded` read is told to wait: about a busy turn's round trip. */
const RETRY_FLOOR_MS = 50;

/** A percentile summary of a histogram, in milliseconds. */
export interface LatencySummary {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/**
 * What the scheduler measures: three clocks (submit to answer, submit to sent, sent to
 * answered), batch sizes, and a moving average of a job's time in a worker, behind the
 * `overloaded` retry hint.
 */
export class SchedulerClock {
  readonly total: RecordableHistogram = createHistogram();
  readonly wait: RecordableHistogram = createHistogram();
  readonly run: RecordableHistogram = createHistogram();
  #batches = 0;
  #batchedJobs = 0;
  #jobMs = 1;
  #paceMs: number | null = null;
  /** Reads answered `overloaded` since the hints given out last all came due, and when they do. */
  #owed = 0;
  #owedUntil = 0;

  /** A batch of `jobs` reads was sent. */
  sent(jobs: number): void {
    this.#batches++;
    this.#batchedJobs += jobs;
  }

  /**
   * A read's time in its worker lately, in milliseconds: a moving average over batches that
   * starts at the first one (0 before any came back).
   */
  get paceMs(): number {
    return this.#paceMs ?? 0;
  }

  /**
   * A batch of `jobs` reads came back after `ms`, having taken `workerMs` in its worker (where
   * the pool said; the round trip where not), or having failed (`null`: the pace is left as it is).
   */
  returned(jobs: number, ms: number, workerMs: number | null = ms): void {
    this.#jobMs = 0.9 * this.#jobMs + 0.1 * (ms / jobs);
    if (workerMs === null || !Number.isFinite(workerMs)) return;
    this.#paceMs = this.#paceMs === null ? workerMs / jobs : 0.9 * this.#paceMs + 0.1 * (workerMs / jobs);
  }

  /**
   * A retry hint for `overloaded`: a floor for the round trip, plus about how long the reads ahead
   * take, `inFlight` batches at a time. The reads ahead include those already turned away whose
   * hint has not yet come: each will be back. So a burst turned away in one turn is told to come
   * back spread over the time the engine needs to take it, not all at the same moment, where the
   * queue it overflowed would still hold the reads that came in meanwhile.
   */
  retryAfterMs(ahead: number, inFlight: number, now = performance.now()): number {
    if (now >= this.#owedUntil) this.#owed = 0;
    const ms = Math.min(5000, Math.round(RETRY_FLOOR_MS + ((ahead + this.#owed) * this.#jobMs) / inFlight));
    this.#owed++;
    this.#owedUntil = Math.max(this.#owedUntil, now + ms);
    return ms;
  }

  summary(): { batches: number; meanBatchSize: number; latencyMs: LatencySummary; waitMs: LatencySummary; runMs: LatencySummary; paceMs: number } {
    return {
      batches: this.#batches,
      meanBatchSize: this.#batches === 0 ? 0 : this.#batchedJobs / this.#batches,
      latencyMs: summarise(this.total),
      waitMs: summarise(this.wait),
      runMs: summarise(this.run),
      paceMs: this.paceMs,
    };
  }
}

/** Records a span given in milliseconds (histograms take whole nanoseconds, at least 1). */
export function recordMs(histogram: RecordableHistogram, ms: number): void {
  histogram.record(Math.max(1, Math.round(ms * 1e6)));
}

export function summarise(h: RecordableHistogram): LatencySummary {
  if (h.count === 0) return { p50: 0, p99: 0, max: 0 };
  const ms = (ns: number) => Math.round(ns / 1e3) / 1e3;
  return { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max) };
}
