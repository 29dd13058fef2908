import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { ScenarioReport } from '../report.js';
import { median } from '../stats.js';

const RUNS = 9;

interface Walls {
  /** Wall milliseconds of each run, in round order. */
  readonly times: number[];
  readonly stdout: string[];
}

/**
 * Wall milliseconds of each `node ARGS` in `cwd`, `RUNS` rounds of one run each, in an order
 * that rotates every round: a shared machine's drift then slows every command alike, and
 * differences can be taken within a round.
 */
function walls<K extends string>(commands: Record<K, readonly string[]>, cwd: string): Record<K, Walls> {
  const names = Object.keys(commands) as K[];
  const out = Object.fromEntries(names.map((name) => [name, { times: [], stdout: [] }])) as unknown as Record<K, Walls>;
  for (let round = 0; round < RUNS; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length] as K;
      const args = commands[name];
      const started = performance.now();
      const child = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
      out[name].times.push(performance.now() - started);
      if (child.status !== 0) throw new Error(`node ${args.join(' ')} failed (${child.status}): ${child.stderr.slice(0, 2000)}`);
      out[name].stdout.push(child.stdout);
    }
  }
  return out;
}

/** The median, over rounds, of how much longer `a` took than `b` in the same round. */
function medianOver(a: Walls, b: Walls): number {
  return median(a.times.map((ms, round) => ms - (b.times[round] ?? 0)));
}

/**
 * What a first-time user waits for: `import('readpool')` over bare node, `readpool read
 * README.md` against `node -e 0`, and `createEngine` to the first answered read, each in fresh
 * processes (medians of nine), on this repository's own README.
 */
export async function startUp(projectRoot: string): Promise<ScenarioReport> {
  const runs = walls(
    {
      bare: ['-e', '0'],
      // By the package's name, as a user writes it: from inside the package it resolves to the build.
      imported: ['--input-type=module', '-e', "await import('readpool')"],
      cli: [path.join(projectRoot, 'dist/src/cli.cjs'), 'read', 'README.md'],
      first: [path.join(projectRoot, 'dist/bench/first-read.js'), projectRoot, 'README.md'],
    },
    projectRoot,
  );
  const bare = { ms: median(runs.bare.times) };
  const imported = { ms: median(runs.imported.times) };
  const cli = { ms: median(runs.cli.times) };
  const starts = runs.first.stdout.map((line) => JSON.parse(line.trim()) as { importMs: number; createdMs: number; firstReadMs: number });
  await Promise.resolve();
  const importOver = medianOver(runs.imported, runs.bare);
  const firstRead = median(starts.map((start) => start.firstReadMs));
  return {
    scenario: 'start-up',
    description: `fresh processes, medians of ${RUNS}: import('readpool'), readpool read README.md, createEngine to first read`,
    measurements: [
      { label: 'node -e 0', metrics: { wallMs: bare.ms } },
      { label: "import('readpool')", metrics: { wallMs: imported.ms, overBareNodeMs: importOver } },
      { label: 'readpool read README.md', metrics: { wallMs: cli.ms, overBareNodeMs: medianOver(runs.cli, runs.bare) } },
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
