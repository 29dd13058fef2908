/**
 * 3. pagination in 2000-line pages: the 20 MB log to its end (every page, in order), and the
 * 200 MB log for the tools that take it, over pages spread evenly across it (the time to its
 * end is then estimated as pages x mean page time; readpool and the shell are measured on the
 * same sample so the figures compare).
 */
import { LARGE_LOG_LINES, MEDIUM_LOG_LINES } from '../corpus.js';
import { measure, type Row } from '../measure.js';
import { spread, withSystem, type Context } from './context.js';

const PAGE = 2000;

function pagesOf(lines: number): number[] {
  return Array.from({ length: Math.ceil(lines / PAGE) }, (_, i) => i * PAGE + 1);
}

export async function pagination(context: Context): Promise<Row[]> {
  const medium = pagesOf(MEDIUM_LOG_LINES);
  const large = pagesOf(LARGE_LOG_LINES);
  const mediumSample = context.quick ? spread(medium, 20) : medium;
  const largeSample = spread(large, context.quick ? 5 : 30);
  const { value, extraRssMiB } = await withSystem(context, async (system) => {
    const rows: Row[] = [];
    for (const [file, pages, total, label] of [
      [context.corpus.mediumLog, mediumSample, medium.length, '20 MB log'],
      [context.corpus.largeLog, largeSample, large.length, '200 MB log'],
    ] as const) {
      const row = await measure({
        scenario: '3 pagination',
        case: pages.length === total ? `${label}, all ${total} pages in order` : `${label}, ${pages.length} of ${total} pages spread evenly`,
        system: context.name,
        unit: 'pages',
        items: pages,
        concurrency: 1,
        passes: 1,
        warmup: false,
        op: (offset) => system.read(file, { offset, limit: PAGE }),
      });
      const estimated = pages.length === total ? {} : { note: `to the end: about ${Math.round((total / (row.perSecond ?? NaN)) * 10) / 10} s (${total} pages at the measured rate)` };
      rows.push({ ...row, ...estimated });
    }
    return rows;
  });
  return value.map((row) => ({ ...row, serverRssMiB: extraRssMiB }));
}
