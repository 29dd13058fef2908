import path from 'node:path';
import { Bench } from 'tinybench';
import { createEngine } from '../../src/index.js';
import { prepareSourceTree, warmPageCache } from '../corpus.js';
import { forEachConcurrent, LoopDelayProbe, type LoopDelay } from '../event-loop.js';
import { naiveRead, syncRead } from '../naive-reader.js';
import type { Measurement, ScenarioReport } from '../report.js';
import { collectGarbage, median } from '../stats.js';

const FILES = 2500;
const CONCURRENCY = 64;

/**
 * Macro scenario: read every file of a real source tree at concurrency 64, through the engine
 * and through a naive in-process reader, in the same run; files/s and event-loop delay p99.
 * The tasks run in interleaved rounds (a tinybench run of each per round) so that a noisy,
 * shared machine slows all of them alike; figures are medians over every measured pass.
 */
export async function sourceTree(projectRoot: string, rounds: number): Promise<ScenarioReport> {
  const { root, files } = prepareSourceTree(projectRoot, path.join(projectRoot, 'bench/.corpus/source-tree'), FILES);
  const absolute = files.map((file) => path.join(root, file));
  warmPageCache(root, files);
  // No result cache: every pass reads every file, so this measures the read path itself (the
  // swarm scenario measures the caches).
  const engine = await createEngine({ root, cacheBytes: 0 });
  let engineErrors = 0;

  // `async` is stated, not detected: a plain arrow returning a promise would be timed as
  // synchronous by tinybench, and its passes would overlap.
  const tasks: readonly { name: string; async: boolean; run: () => Promise<void> | void }[] = [
    {
      name: 'readpool engine',
      async: true,
      run: () =>
        forEachConcurrent(files, CONCURRENCY, async (file) => {
          await engine.read({ path: file }).catch(() => engineErrors++);
        }),
    },
    { name: 'naive fs.promises reader', async: true, run: () => forEachConcurrent(absolute, CONCURRENCY, naiveRead) },
    {
      name: 'sync loop on the host thread',
      async: false,
      run: () => {
        for (const file of absolute) syncRead(file);
      },
    },
  ];
  const probe = new LoopDelayProbe();
  const delays = new Map<string, LoopDelay[]>(tasks.map((task) => [task.name, []]));
  const samples = new Map<string, number[]>(tasks.map((task) => [task.name, []]));

  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ iterations: 2, time: 0, warmup: round === 0, warmupIterations: 2, retainSamples: true });
    // Rotate the order each round, so that no task always runs right after the same other one.
    const order = tasks.map((_, i) => tasks[(i + round) % tasks.length]).filter((task) => task !== undefined);
    for (const task of order) {
      bench.add(task.name, task.run, {
        async: task.async,
        beforeAll: (mode?: string) => {
          // Start every task on a collected heap, so none pays for another's garbage.
          collectGarbage();
          if (mode === 'run') probe.start();
        },
        afterAll: (mode?: string) => {
          if (mode === 'run') delays.get(task.name)?.push(probe.stop());
        },
      });
    }
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result;
      if (!('latency' in result)) throw new Error(`bench task ${task.name} did not complete (${result.state})`);
      samples.get(task.name)?.push(...(result.latency.samples ?? []));
    }
  }
  const stats = engine.stats();
  await engine.close();

  const measurements: Measurement[] = [];
  const rate = new Map<string, number>();
  for (const task of tasks) {
    const passMs = median(samples.get(task.name) ?? []);
    const filesPerSecond = files.length / (passMs / 1000);
    rate.set(task.name, filesPerSecond);
    const loop = delays.get(task.name) ?? [];
    measurements.push({
      label: task.name,
      metrics: {
        filesPerSecond,
        medianPassMs: passMs,
        passes: samples.get(task.name)?.length ?? 0,
        // p99 of each round's event-loop delay: the median round, and the worst round.
        loopDelayP99Ms: median(loop.map((delay) => delay.p99)),
        worstRoundP99Ms: Math.max(...loop.map((delay) => delay.p99)),
        loopDelayMaxMs: Math.max(...loop.map((delay) => delay.max)),
      },
    });
  }
  const engineRate = rate.get('readpool engine') ?? 0;
  const naiveRate = rate.get('naive fs.promises reader') ?? 1;
  const ratio = engineRate / naiveRate;
  const engineLoop = measurements[0]?.metrics.loopDelayP99Ms ?? Infinity;
  measurements.push({
    label: 'engine detail',
    metrics: { files: files.length, errors: engineErrors, meanBatchSize: stats.meanBatchSize, threads: stats.threads },
  });
  return {
    scenario: 'source-tree',
    description: `${files.length} source files at concurrency ${CONCURRENCY}, engine vs naive reader (same run, ${rounds} interleaved rounds)`,
    measurements,
    targets: [
      { name: 'engine/naive files per second', value: ratio, goal: '>= 2', met: ratio >= 2 },
      { name: 'engine event-loop delay p99 (ms)', value: engineLoop, goal: '< 10', met: engineLoop < 10 },
      { name: 'engine read errors', value: engineErrors, goal: '= 0', met: engineErrors === 0 },
    ],
  };
}
