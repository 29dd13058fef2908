/**
 * 6. images and PDFs: the 4000x3000 PNG (about 18 MB) and JPEG, and pages 1-3 of the 50-page
 * PDF (a tool without pages returns what it returns for the file). Latency, bytes returned,
 * whether they fit the 5 MB budget, and the tokens they would cost.
 */
import { measure, type Row } from '../measure.js';
import { fitsBudget, tokensOf } from './tokens.js';
import { withSystem, type Context } from './context.js';

export async function media(context: Context): Promise<Row[]> {
  const { png, jpeg, pdf } = context.corpus;
  const cases: readonly [string, string, string | undefined][] = [
    ['PNG photo 4000x3000 (18 MB)', png, undefined],
    ['JPEG photo 4000x3000', jpeg, undefined],
    ['PDF pages 1-3 of 50', pdf, '1-3'],
  ];
  const { value, extraRssMiB } = await withSystem(context, false, async (system) => {
    const rows: Row[] = [];
    for (const [label, file, pages] of cases) {
      let last = null as Awaited<ReturnType<typeof system.media>> | null;
      const row = await measure({
        scenario: '6 images and PDFs',
        case: label,
        system: context.name,
        unit: 'reads',
        items: [file],
        concurrency: 1,
        passes: context.quick ? 2 : 5,
        warmup: true,
        op: async (item) => (last = await system.media(item, pages)),
      });
      rows.push(last === null || row.status !== 'ok' ? row : { ...row, fits5MB: fitsBudget(last), tokens: await tokensOf(last) });
    }
    return rows;
  });
  return value.map((row) => ({ ...row, serverRssMiB: extraRssMiB }));
}
