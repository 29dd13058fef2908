/** Small statistics shared by the scenarios. */

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** The nearest-rank percentile of `values` (NaN when empty). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? NaN;
}

/** A full collection when the bench runs with --expose-gc (as `npm run bench` does). */
export function collectGarbage(): void {
  const { gc } = globalThis as { gc?: () => void };
  gc?.();
}

/** A seeded shuffle (mulberry32), so every run reads in the same orders. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const a = out[i] as T;
    out[i] = out[j] as T;
    out[j] = a;
  }
  return out;
}

/** Samples the process's resident set every few milliseconds; `stop()` returns the peak in MiB. */
export function trackPeakRss(everyMs = 5): { stop: () => number } {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage.rss());
      return peak / 2 ** 20;
    },
  };
}
