/**
 * 6. images and PDFs: the 4000x3000 PNG (about 18 MB) and JPEG, and pages 1-3 of the 50-page
 * PDF (a tool without pages returns what it returns for the file). Each read is the first of
 * that file by a fresh instance, warmed on a small image. Latency, bytes returned, whether they
 * fit the 5 MB budget, and the tokens they would cost.
 */
import type { Row } from '../measure.js';
import type { Payload } from '../system.js';
import { measureCold, warmOnTree, type Context } from './context.js';
import { fitsBudget, tokensOf } from './tokens.js';

export async function media(context: Context): Promise<Row[]> {
  const { png, jpeg, pdf, warmImage } = context.corpus;
  const cases: readonly [string, string, string | undefined][] = [
    ['PNG photo 4000x3000 (18 MB)', png, undefined],
    ['JPEG photo 4000x3000', jpeg, undefined],
    ['PDF pages 1-3 of 50', pdf, '1-3'],
  ];
  const rows: Row[] = [];
  for (const [label, file, pages] of cases) {
    let last: Payload | null = null;
    const row = await measureCold(context, {
      scenario: '6 images and PDFs',
      case: label,
      unit: 'reads',
      items: [file],
      concurrency: 1,
      reps: context.quick ? 1 : 6,
      passes: 1,
      warm: async (system) => {
        await warmOnTree(context, system);
        await system.media(warmImage);
      },
      op: async (system, item) => (last = await system.media(item, pages)),
    });
    const payload = last as Payload | null;
    rows.push(payload === null || row.status !== 'ok' ? row : { ...row, fits5MB: fitsBudget(payload), tokens: await tokensOf(payload) });
  }
  return rows;
}
