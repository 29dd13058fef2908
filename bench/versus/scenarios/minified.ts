/** 7. the 5 MB single-line minified file, read with each tool's defaults: what comes back, and how fast. */
import { measure, type Row } from '../measure.js';
import { withSystem, type Context } from './context.js';

export async function minified(context: Context): Promise<Row[]> {
  const { value, extraRssMiB } = await withSystem(context, false, async (system) =>
    measure({
      scenario: '7 minified line',
      case: '5 MB on one line, default read',
      system: context.name,
      unit: 'reads',
      items: [context.corpus.minified],
      concurrency: 1,
      passes: context.quick ? 2 : 5,
      warmup: true,
      op: (file) => system.read(file, {}),
    }),
  );
  return [{ ...value, serverRssMiB: extraRssMiB }];
}
