import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';

/** A percentile summary of a histogram, in milliseconds. */
export interface LatencySummary {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** The scheduler's three clocks: submit to answer, submit to sent, sent to answered. */
export class Latencies {
  readonly total: RecordableHistogram = createHistogram();
  readonly wait: RecordableHistogram = createHistogram();
  readonly run: RecordableHistogram = createHistogram();
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
