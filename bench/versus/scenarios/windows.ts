/**
 * 2. head, tail and a middle window (2000 lines each) of the 200 MB log, cold: each read is
 * the first of that file by a fresh instance (started and warmed on a small file first, so the
 * figure is the read, not the start). Tools without a tail parameter read from the line count
 * a model learns from its first read's notice.
 */
import { measure, type Row } from '../measure.js';
import { LARGE_LOG_LINES } from '../corpus.js';
import type { Window } from '../system.js';
import { withSystem, type Context } from './context.js';

const WINDOWS: Record<string, Window> = {
  head: { limit: 2000 },
  tail: { tail: 2000, totalLines: LARGE_LOG_LINES },
  middle: { offset: LARGE_LOG_LINES / 2 + 1, limit: 2000 },
};

export async function windows(context: Context): Promise<Row[]> {
  const reps = context.quick ? 1 : 3;
  const rows: Row[] = [];
  for (const [label, window] of Object.entries(WINDOWS)) {
    const samples: Row[] = [];
    let serverRssMiB = 0;
    for (let rep = 0; rep < reps; rep++) {
      const { value, extraRssMiB } = await withSystem(context, true, async (system) => {
        await system.read(context.corpus.tree[0] ?? '', { limit: 2000 });
        return measure({
          scenario: '2 large-log windows',
          case: `${label} of the 200 MB log, cold`,
          system: context.name,
          unit: 'reads',
          items: [context.corpus.largeLog],
          concurrency: 1,
          passes: 1,
          warmup: false,
          op: (file) => system.read(file, window),
        });
      });
      samples.push(value);
      serverRssMiB = Math.max(serverRssMiB, extraRssMiB);
      if (value.status === 'unsupported' || value.status === 'failed') break;
    }
    rows.push(combine(samples, serverRssMiB));
  }
  return rows;
}

/** One row from single-read samples: their median and worst as median and p99. */
function combine(samples: readonly Row[], serverRssMiB: number): Row {
  const first = samples[0];
  if (first === undefined) throw new Error('no samples');
  if (first.status !== 'ok') return { ...first, serverRssMiB };
  const ms = samples.map((s) => s.medianMs ?? NaN).sort((a, b) => a - b);
  const medianMs = ms[Math.floor(ms.length / 2)] ?? NaN;
  return {
    ...first,
    ops: samples.length,
    medianMs,
    p99Ms: ms[ms.length - 1] ?? NaN,
    perSecond: 1000 / medianMs,
    loopP99Ms: Math.max(...samples.map((s) => s.loopP99Ms ?? 0)),
    serverRssMiB,
  };
}
