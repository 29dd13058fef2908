import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { ScenarioReport } from '../report.js';
import { median } from '../stats.js';

const RUNS = 9;

/** Wall milliseconds of `node ARGS` in `cwd`, median of `RUNS`, with the last run's stdout. */
function wall(args: readonly string[], cwd: string): { ms: number; stdout: string[] } {
  const times: number[] = [];
  const stdout: string[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const child = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
    times.push(performance.now() - started);
    if (child.status !== 0) throw new Error(`node ${args.join(' ')} failed (${child.status}): ${child.stderr.slice(0, 2000)}`);
    stdout.push(child.stdout);
  }
  return { ms: median(times), stdout };
}

/**
 * What a first-time user waits for: `import('readpool')` over bare node, `readpool read
 * README.md` against `node -e 0`, and `createEngine` to the first answered read, each in fresh
 * processes (medians of nine), on this repository's own README.
 */
export async function startUp(projectRoot: string): Promise<ScenarioReport> {
  const entry = path.join(projectRoot, 'dist/src/index.js');
  const bare = wall(['-e', '0'], projectRoot);
  const imported = wall(['--input-type=module', '-e', `await import(${JSON.stringify(entry)})`], projectRoot);
  const cli = wall([path.join(projectRoot, 'dist/src/cli.js'), 'read', 'README.md'], projectRoot);
  const first = wall([path.join(projectRoot, 'dist/bench/first-read.js'), projectRoot, 'README.md'], projectRoot);
  const starts = first.stdout.map((line) => JSON.parse(line.trim()) as { importMs: number; createdMs: number; firstReadMs: number });
  await Promise.resolve();
  const importOver = imported.ms - bare.ms;
  const firstRead = median(starts.map((start) => start.firstReadMs));
  return {
    scenario: 'start-up',
    description: `fresh processes, medians of ${RUNS}: import('readpool'), readpool read README.md, createEngine to first read`,
    measurements: [
      { label: 'node -e 0', metrics: { wallMs: bare.ms } },
      { label: "import('readpool')", metrics: { wallMs: imported.ms, overBareNodeMs: importOver } },
      { label: 'readpool read README.md', metrics: { wallMs: cli.ms, overBareNodeMs: cli.ms - bare.ms } },
      {
        label: 'createEngine to first read',
        metrics: {
          importMs: median(starts.map((start) => start.importMs)),
          createEngineMs: median(starts.map((start) => start.createdMs)),
          firstReadMs: firstRead,
        },
      },
    ],
    targets: [
      { name: "import('readpool') over bare node (ms)", value: importOver, goal: '<= 40', met: importOver <= 40 },
      { name: 'readpool read README.md wall (ms)', value: cli.ms, goal: '<= 200', met: cli.ms <= 200 },
      { name: 'createEngine to first answered read (ms)', value: firstRead, goal: '<= 60', met: firstRead <= 60 },
    ],
  };
}
