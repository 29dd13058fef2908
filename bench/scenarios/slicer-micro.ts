import fs from 'node:fs';
import path from 'node:path';
import { Bench } from 'tinybench';
import { LineSlicer } from '../../src/core/line-slicer.js';
import { RENDER } from '../../src/dialects/readpool.js';
import { prepareSourceTree } from '../corpus.js';
import type { ScenarioReport } from '../report.js';

const FILES = 2500;
const LIMITS = { offset: 1, limit: 2000, maxBytes: 256 * 1024, maxTokens: 25_000, maxLineChars: 2000 };

/**
 * Micro scenario: the pure line slicer alone (no I/O, no threads) over the source tree's bytes
 * in memory, against the naive `toString` + `split` + number + `join` in the same run. The
 * slicer does more (exact totals, budgets, long-line cuts, line-ending census) and must still
 * not cost more than the naive formatting.
 */
export async function slicerMicro(projectRoot: string): Promise<ScenarioReport> {
  const { root, files } = prepareSourceTree(projectRoot, path.join(projectRoot, 'bench/.corpus/source-tree'), FILES);
  const contents = files.map((file) => fs.readFileSync(path.join(root, file)));
  let sink = 0;
  const bench = new Bench({ time: 1500, warmupTime: 300 });
  bench.add('LineSlicer (window, totals, budgets)', () => {
    for (const bytes of contents) {
      const slicer = new LineSlicer(LIMITS, RENDER);
      slicer.push(bytes);
      sink += slicer.end().content.length;
    }
  });
  bench.add('naive split/number/join', () => {
    for (const bytes of contents) {
      const lines = bytes.toString('utf8').split(/\r?\n/).slice(0, LIMITS.limit);
      sink += lines.map((line, index) => `${index + 1}\t${line}`).join('\n').length;
    }
  });
  await bench.run();
  const perFile = new Map<string, number>();
  for (const task of bench.tasks) {
    const result = task.result;
    if (!('latency' in result)) throw new Error(`bench task ${task.name} did not complete (${result.state})`);
    perFile.set(task.name, (result.latency.p50 * 1000) / contents.length);
  }
  const slicer = perFile.get('LineSlicer (window, totals, budgets)') ?? NaN;
  const naive = perFile.get('naive split/number/join') ?? NaN;
  return {
    scenario: 'slicer-micro',
    description: `the pure line slicer over ${contents.length} in-memory source files vs naive formatting (checksum ${sink % 997})`,
    measurements: [
      { label: 'LineSlicer', metrics: { microsecondsPerFile: slicer } },
      { label: 'naive split/number/join', metrics: { microsecondsPerFile: naive } },
    ],
    targets: [{ name: 'naive/slicer time per file', value: naive / slicer, goal: '>= 1', met: naive / slicer >= 1 }],
  };
}
