import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** Measures the host's event-loop delay while work runs, as a model host would feel it. */
export class LoopDelayProbe {
  #histogram: IntervalHistogram | null = null;

  start(): void {
    this.#histogram = monitorEventLoopDelay({ resolution: 1 });
    this.#histogram.enable();
  }

  /** Stops and returns p50/p99/max in milliseconds. */
  stop(): { p50: number; p99: number; max: number } {
    const histogram = this.#histogram;
    if (histogram === null) throw new Error('LoopDelayProbe.stop() before start()');
    histogram.disable();
    this.#histogram = null;
    const ms = (ns: number) => ns / 1e6;
    return { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) };
  }
}

/** Runs `work` over `items` with at most `concurrency` in flight, like a swarm of agents. */
export async function forEachConcurrent<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++];
      if (item !== undefined) await work(item);
    }
  });
  await Promise.all(lanes);
}
