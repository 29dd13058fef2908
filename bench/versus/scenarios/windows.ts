/**
 * 2. head, tail and a middle window (2000 lines each) of the 200 MB log, cold: each read is
 * the first of that file by a fresh instance (started and warmed on a small file first, so the
 * figure is the read, not the start). Tools without a tail parameter read from the line count
 * a model learns from its first read's notice.
 */
import { LARGE_LOG_LINES } from '../corpus.js';
import type { Row } from '../measure.js';
import type { Window } from '../system.js';
import { measureCold, warmOnTree, type Context } from './context.js';

const WINDOWS: Record<string, Window> = {
  head: { limit: 2000 },
  tail: { tail: 2000, totalLines: LARGE_LOG_LINES },
  middle: { offset: LARGE_LOG_LINES / 2 + 1, limit: 2000 },
};

export async function windows(context: Context): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [label, window] of Object.entries(WINDOWS)) {
    rows.push(
      await measureCold(context, {
        scenario: '2 large-log windows',
        case: `${label} of the 200 MB log, cold`,
        unit: 'reads',
        items: [context.corpus.largeLog],
        concurrency: 1,
        reps: context.quick ? 1 : 5,
        passes: 1,
        warm: (system) => warmOnTree(context, system),
        op: (system, file) => system.read(file, window),
      }),
    );
  }
  return rows;
}
