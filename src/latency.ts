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
  readonly total = new LatencyHistogram();
  readonly wait = new LatencyHistogram();
  readonly run = new LatencyHistogram();
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

export function summarise(h: LatencyHistogram): LatencySummary {
  if (h.count === 0) return { p50: 0, p99: 0, max: 0 };
  const ms = (value: number) => Math.round(value * 1e3) / 1e3;
  return { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max) };
}

/** Buckets an octave: a percentile is within 2^(1/64), about 1.1 %, of the value recorded. */
const PER_OCTAVE = 64;
/** The smallest span told apart from zero, in milliseconds (a microsecond). */
const FLOOR_MS = 1e-3;
/** Octaves above the floor: up to about 12.7 days, far past any read's deadline. */
const OCTAVES = 40;

/**
 * Spans in milliseconds, counted in buckets a 64th of an octave wide, for percentiles. Three are
 * recorded a read on the host thread: counting in a typed array costs less than a call into
 * Node's native histogram (and loading `node:perf_hooks` for it, about 3 ms of a one-read
 * command's start).
 */
export class LatencyHistogram {
  readonly #counts = new Uint32Array(OCTAVES * PER_OCTAVE + 1);
  #count = 0;
  #max = 0;

  get count(): number {
    return this.#count;
  }

  get max(): number {
    return this.#max;
  }

  record(ms: number): void {
    const at = ms <= FLOOR_MS ? 0 : Math.min(this.#counts.length - 1, Math.ceil(Math.log2(ms / FLOOR_MS) * PER_OCTAVE));
    this.#counts[at] = (this.#counts[at] ?? 0) + 1;
    this.#count++;
    if (ms > this.#max) this.#max = ms;
  }

  /** The least bucket bound that `p` percent of the spans recorded are at or under (never above the max). */
  percentile(p: number): number {
    const wanted = Math.max(1, Math.ceil((p / 100) * this.#count));
    let seen = 0;
    for (let at = 0; at < this.#counts.length; at++) {
      seen += this.#counts[at] ?? 0;
      if (seen >= wanted) return Math.min(this.#max, at === 0 ? FLOOR_MS : FLOOR_MS * 2 ** (at / PER_OCTAVE));
    }
    return this.#max;
  }
}
