import path from 'node:path';
import { runMeasured } from '../child.js';
import { logLine, prepareLargeLog } from '../corpus.js';
import type { ScenarioReport } from '../report.js';

const LINES = 2_000_000;
const OFFSET = 1_000_000;
const LIMIT = 2000;

/** The naive baseline: read the whole log into memory and split it, in a child of its own. */
const NAIVE_SCRIPT = `
const fs = require('node:fs');
const lines = fs.readFileSync(process.argv[1], 'utf8').split(/\\r?\\n/);
const total = lines.length - (lines[lines.length - 1] === '' ? 1 : 0);
const page = lines.slice(${OFFSET - 1}, ${OFFSET - 1 + LIMIT}).map((l, i) => (${OFFSET} + i) + '\\t' + l).join('\\n');
process.stdout.write(JSON.stringify({ total, first: page.slice(0, 200) }));
`;

interface CliResult {
  readonly startLine: number;
  readonly endLine: number;
  readonly totalLines: number;
  readonly content: string;
  readonly truncated: false | { reason: string; nextOffset: number };
}

/** Every shown line is the generated line of that number, and the total is exact. */
function linesAreRight(result: CliResult): boolean {
  const lines = result.content.split('\n');
  return (
    result.startLine === OFFSET &&
    result.totalLines === LINES &&
    lines.length === result.endLine - result.startLine + 1 &&
    lines.every((line, index) => line === `${OFFSET + index}\t${logLine(OFFSET + index)}`)
  );
}

/**
 * `readpool read` on a 200 MB, 2-million-line log at offset 1 000 000: right lines, exact total,
 * wall time and the CLI process's peak RSS, beside a naive whole-file reader in the same run.
 * Run once with the default output budget (25 000 tokens: about 1 000 of these lines, with a
 * notice giving the next offset) and once with a budget that holds all 2 000 lines.
 */
export async function largeFile(projectRoot: string): Promise<ScenarioReport> {
  const dataDir = path.join(projectRoot, 'bench/.data');
  const log = prepareLargeLog(path.join(dataDir, 'large.log'), LINES);
  const preload = path.join(projectRoot, 'dist/bench/rss-preload.js');
  const cli = path.join(projectRoot, 'dist/src/cli.cjs');
  const read = [cli, 'read', path.basename(log), '--offset', String(OFFSET), '--limit', String(LIMIT), '--json'];

  const defaultRun = runMeasured(read, dataDir, preload);
  const defaultResult = JSON.parse(defaultRun.stdout) as CliResult;
  const fullRun = runMeasured([...read, '--max-tokens', '100000'], dataDir, preload);
  const fullResult = JSON.parse(fullRun.stdout) as CliResult;
  const naiveRun = runMeasured(['-e', NAIVE_SCRIPT, log], dataDir, preload);
  const naive = JSON.parse(naiveRun.stdout) as { total: number };
  await Promise.resolve();

  const defaultRight = linesAreRight(defaultResult) && defaultResult.truncated !== false;
  const fullRight = linesAreRight(fullResult) && fullResult.endLine === OFFSET + LIMIT - 1;
  const peak = Math.max(defaultRun.maxRssMiB, fullRun.maxRssMiB);
  const shown = (result: CliResult) => result.endLine - result.startLine + 1;
  return {
    scenario: 'large-file',
    description: `readpool read on a ${LINES}-line, 200 MB log at offset ${OFFSET} (limit ${LIMIT}) vs whole-file readFile+split`,
    measurements: [
      {
        label: 'readpool CLI, default budget',
        metrics: { wallMs: defaultRun.ms, peakRssMiB: defaultRun.maxRssMiB, linesShown: shown(defaultResult), totalLines: defaultResult.totalLines },
      },
      {
        label: 'readpool CLI, --max-tokens 100000',
        metrics: { wallMs: fullRun.ms, peakRssMiB: fullRun.maxRssMiB, linesShown: shown(fullResult), totalLines: fullResult.totalLines },
      },
      { label: 'naive readFile + split', metrics: { wallMs: naiveRun.ms, peakRssMiB: naiveRun.maxRssMiB, totalLines: naive.total } },
    ],
    targets: [
      { name: 'right lines and exact total (default budget, notice given)', value: defaultRight ? 1 : 0, goal: '= 1', met: defaultRight },
      { name: 'all 2000 right lines and exact total (raised budget)', value: fullRight ? 1 : 0, goal: '= 1', met: fullRight },
      { name: 'CLI peak RSS (MiB)', value: peak, goal: '< 200', met: peak < 200 },
      { name: 'naive/readpool wall time', value: naiveRun.ms / fullRun.ms, goal: 'reported', met: true },
    ],
  };
}
