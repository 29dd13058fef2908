import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/**
 * Measures the host's event-loop delay while work runs, as a model host would feel it. Each
 * start() begins a fresh monitor (re-enabling one would count the paused gap as one huge
 * delay); stop() returns that window's p50/p99/max in milliseconds.
 */
export class LoopDelayProbe {
  #histogram: IntervalHistogram | null = null;

  start(): void {
    this.#histogram = monitorEventLoopDelay({ resolution: 1 });
    this.#histogram.enable();
  }

  stop(): LoopDelay {
    const histogram = this.#histogram;
    if (histogram === null) throw new Error('LoopDelayProbe.stop() before start()');
    histogram.disable();
    this.#histogram = null;
    const ms = (ns: number) => ns / 1e6;
    return { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) };
  }
}

export interface LoopDelay {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
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
