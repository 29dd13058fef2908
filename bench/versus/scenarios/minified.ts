/**
 * 7. the 5 MB single-line minified file, read with each tool's defaults: what comes back, and
 * how fast, each read the first of that file by a fresh instance.
 */
import type { Row } from '../measure.js';
import { measureCold, warmOnTree, type Context } from './context.js';

export async function minified(context: Context): Promise<Row[]> {
  return [
    await measureCold(context, {
      scenario: '7 minified line',
      case: '5 MB on one line, default read',
      unit: 'reads',
      items: [context.corpus.minified],
      concurrency: 1,
      reps: context.quick ? 2 : 7,
      passes: 1,
      warm: (system) => warmOnTree(context, system),
      op: (system, file) => system.read(file, {}),
    }),
  ];
}
