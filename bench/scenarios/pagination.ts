import fs from 'node:fs';
import path from 'node:path';
import { createEngine } from '../../src/index.js';
import { logLine, prepareLargeLog } from '../corpus.js';
import type { ScenarioReport } from '../report.js';
import { collectGarbage, median } from '../stats.js';

const LINES = 2_000_000;
const PAGE = 2000;
/** Pages the naive reader is timed on: each costs a whole-file read and split, seconds apiece. */
const NAIVE_SAMPLES = 4;
const WARM_UP = 'warm-up.txt';

/** The naive pager: read the whole file, split it, number the page. What a host does without an index. */
async function naivePage(file: string, offset: number): Promise<string> {
  const lines = (await fs.promises.readFile(file, 'utf8')).split(/\r?\n/);
  return lines
    .slice(offset - 1, offset - 1 + PAGE)
    .map((line, index) => `${offset + index}\t${line}`)
    .join('\n');
}

/**
 * Paginate the 200 MB, 2-million-line log in 2000-line pages from the first to the last, as an
 * agent following `nextOffset` would. The engine pays one full scan (for the exact total, the
 * hash and the line index) and then seeks; the naive reader reads and splits the whole file
 * for every page. All 1000 naive pages would take over twenty minutes, so the naive reader is
 * timed on a few pages spread over the file and its total is that median times the pages.
 */
export async function pagination(projectRoot: string, rounds: number): Promise<ScenarioReport> {
  const file = prepareLargeLog(path.join(projectRoot, 'bench/.data/large.log'), LINES);
  const root = path.dirname(file);
  const name = path.basename(file);
  fs.writeFileSync(path.join(root, WARM_UP), 'warm\n');
  const engineMs: number[] = [];
  const firstPageMs: number[] = [];
  const poolStartMs: number[] = [];
  const laterPageMs: number[] = [];
  let pages = 0;
  let wrongPages = 0;
  let indexHits = 0;

  for (let round = 0; round < Math.min(rounds, 5); round++) {
    collectGarbage();
    // A fresh engine each round: the first page must scan, as for an agent that never read it.
    const engine = await createEngine({ root, maxTokens: 100_000, maxBytes: 1024 * 1024 });
    // A tiny read waits for the workers to start, so the first page times the read, not the
    // threads' start-up (reported apart as poolStartMs).
    const starting = performance.now();
    // Started workers: the host's thread would answer this small read itself while they boot.
    await engine.ready();
    await engine.read({ path: WARM_UP });
    poolStartMs.push(performance.now() - starting);
    const started = performance.now();
    let offset = 1;
    pages = 0;
    for (;;) {
      const page = await engine.read({ path: name, offset, limit: PAGE });
      if (pages === 0) firstPageMs.push(performance.now() - started);
      if (page.kind !== 'text') throw new Error(`page at ${offset} was ${page.kind}`);
      pages++;
      const firstLine = page.content.slice(0, page.content.indexOf('\n'));
      if (firstLine !== `${offset}\t${logLine(offset)}` || page.totalLines !== LINES) wrongPages++;
      if (page.truncated === false) break;
      offset = page.truncated.nextOffset;
    }
    const totalMs = performance.now() - started;
    engineMs.push(totalMs);
    laterPageMs.push((totalMs - (firstPageMs.at(-1) ?? 0)) / (pages - 1));
    indexHits = engine.stats().cache.lineIndex.hits;
    await engine.close();
  }

  const naiveMs: number[] = [];
  for (let i = 0; i < NAIVE_SAMPLES; i++) {
    collectGarbage();
    const offset = 1 + Math.floor((i / NAIVE_SAMPLES) * (LINES / PAGE)) * PAGE;
    const started = performance.now();
    const page = await naivePage(file, offset);
    naiveMs.push(performance.now() - started);
    if (!page.startsWith(`${offset}\t${logLine(offset)}`)) wrongPages++;
  }
  const naivePageMs = median(naiveMs);
  const naiveTotalMs = naivePageMs * pages;
  const engineTotalMs = median(engineMs);
  const ratio = naiveTotalMs / engineTotalMs;
  const firstPage = median(firstPageMs);
  const perLaterPage = median(laterPageMs);
  return {
    scenario: 'pagination',
    description: `a ${LINES}-line log read in ${PAGE}-line pages to the end, engine vs naive reader (same run)`,
    measurements: [
      {
        label: 'readpool engine (cold each round)',
        metrics: { totalMs: engineTotalMs, firstPageMs: firstPage, perLaterPageMs: perLaterPage, pages, lineIndexHits: indexHits, poolStartMs: median(poolStartMs) },
      },
      { label: 'naive readFile + split per page', metrics: { perPageMs: naivePageMs, pagesTimed: naiveMs.length, totalMsExtrapolated: naiveTotalMs } },
    ],
    targets: [
      { name: 'first 2000 lines with exact total (ms)', value: firstPage, goal: '<= 100', met: firstPage <= 100 },
      { name: 'pagination per page after the scan (ms)', value: perLaterPage, goal: '<= 2', met: perLaterPage <= 2 },
      { name: 'naive/engine time for the whole pagination', value: ratio, goal: '>= 100', met: ratio >= 100 },
      { name: 'pages with a wrong first line or total', value: wrongPages, goal: '= 0', met: wrongPages === 0 },
    ],
  };
}
