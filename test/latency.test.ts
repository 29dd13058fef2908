import { describe, expect, it } from 'vitest';
import { LatencyHistogram, summarise } from '../src/latency.js';

/** Nearest-rank percentile of `values`, sorted ascending. */
function exact(sorted: readonly number[], p: number): number {
  return sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1] ?? NaN;
}

describe('LatencyHistogram', () => {
  it('gives each percentile within 1.1 % above the exact one, and the exact max', () => {
    // A fixed generator, so a failure can be replayed: spans from 10 µs to 5 s, log-uniform.
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const values = Array.from({ length: 20_000 }, () => 0.01 * 500_000 ** random());
    const histogram = new LatencyHistogram();
    for (const value of values) histogram.record(value);
    const sorted = [...values].sort((a, b) => a - b);
    expect(histogram.count).toBe(values.length);
    expect(histogram.max).toBe(sorted.at(-1));
    for (const p of [1, 25, 50, 90, 99, 99.9, 100]) {
      const want = exact(sorted, p);
      const got = histogram.percentile(p);
      expect(got, `p${p}`).toBeGreaterThanOrEqual(want);
      expect(got, `p${p}`).toBeLessThanOrEqual(want * 2 ** (1 / 64) * (1 + 1e-12));
    }
  });

  it('reports spans under a microsecond as a microsecond, and never above the max', () => {
    const histogram = new LatencyHistogram();
    for (let i = 0; i < 98; i++) histogram.record(0.0002);
    expect(new LatencyHistogram().percentile(50)).toBe(0);
    histogram.record(3);
    histogram.record(3);
    expect(histogram.percentile(50)).toBe(0.001);
    expect(histogram.percentile(98)).toBe(0.001);
    expect(histogram.percentile(99)).toBe(3);
    expect(histogram.percentile(100)).toBe(3);
  });

  it('summarises an empty histogram as zeros and rounds to the microsecond', () => {
    const histogram = new LatencyHistogram();
    expect(summarise(histogram)).toEqual({ p50: 0, p99: 0, max: 0 });
    histogram.record(12.34567);
    expect(summarise(histogram)).toEqual({ p50: 12.346, p99: 12.346, max: 12.346 });
  });
});
