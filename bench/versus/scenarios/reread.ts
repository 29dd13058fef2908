/**
 * 4. re-read of unchanged files: one agent (one session) reads files, then reads them again
 * with nothing changed in between, at concurrency 16. Only the re-reads are measured.
 */
import { measure, pass, type Row } from '../measure.js';
import { spread, withSystem, type Context } from './context.js';

export async function reread(context: Context): Promise<Row[]> {
  const files = spread(context.corpus.tree, context.quick ? 100 : 500);
  const session = 'agent-1';
  const { value, extraRssMiB } = await withSystem(context, async (system) => {
    await pass(files, 16, (file) => system.read(file, {}, session));
    return measure({
      scenario: '4 re-read',
      case: `${files.length} unchanged files read again, concurrency 16`,
      system: context.name,
      unit: 'files',
      items: files,
      concurrency: 16,
      passes: context.quick ? 1 : 5,
      warmup: false,
      op: (file) => system.read(file, {}, session),
    });
  });
  return [{ ...value, serverRssMiB: extraRssMiB }];
}
