import path from 'node:path';
import { Bench } from 'tinybench';
import { createEngine } from '../../src/index.js';
import { prepareSourceTree } from '../corpus.js';
import { forEachConcurrent, LoopDelayProbe } from '../event-loop.js';
import { naiveRead, syncRead } from '../naive-reader.js';
import type { Measurement, ScenarioReport } from '../report.js';

const FILES = 2500;
const CONCURRENCY = 64;

/**
 * Macro scenario: read every file of a real source tree at concurrency 64, through the engine
 * and through a naive in-process reader, in the same run; files/s and event-loop delay p99.
 */
export async function sourceTree(projectRoot: string, iterations: number): Promise<ScenarioReport> {
  const { root, files } = prepareSourceTree(projectRoot, path.join(projectRoot, 'bench/.corpus/source-tree'), FILES);
  const absolute = files.map((file) => path.join(root, file));
  const engine = await createEngine({ root });
  const probes = new Map<string, { p50: number; p99: number; max: number }>();
  let engineErrors = 0;

  const bench = new Bench({ iterations, time: 0, warmupIterations: 1 });
  const probe = new LoopDelayProbe();
  const hooks = (name: string) => ({
    beforeAll: (mode?: string) => {
      if (mode === 'run') probe.start();
    },
    afterAll: (mode?: string) => {
      if (mode === 'run') probes.set(name, probe.stop());
    },
  });
  bench.add(
    'readpool engine',
    async () => {
      await forEachConcurrent(files, CONCURRENCY, async (file) => {
        await engine.read({ path: file }).catch(() => engineErrors++);
      });
    },
    hooks('readpool engine'),
  );
  bench.add(
    'naive fs.promises reader',
    async () => {
      await forEachConcurrent(absolute, CONCURRENCY, naiveRead);
    },
    hooks('naive fs.promises reader'),
  );
  bench.add(
    'sync loop on the host thread',
    () => {
      for (const file of absolute) syncRead(file);
    },
    hooks('sync loop on the host thread'),
  );
  await bench.run();
  const stats = engine.stats();
  await engine.close();

  const measurements: Measurement[] = [];
  const rate = new Map<string, number>();
  for (const task of bench.tasks) {
    const result = task.result;
    if (!('period' in result)) throw new Error(`bench task ${task.name} did not complete (${result.state})`);
    const filesPerSecond = files.length / (result.period / 1000);
    rate.set(task.name, filesPerSecond);
    const loop = probes.get(task.name);
    measurements.push({
      label: task.name,
      metrics: {
        filesPerSecond,
        msPerPass: result.period,
        loopDelayP99Ms: loop?.p99 ?? NaN,
        loopDelayMaxMs: loop?.max ?? NaN,
      },
    });
  }
  const engineRate = rate.get('readpool engine') ?? 0;
  const naiveRate = rate.get('naive fs.promises reader') ?? 1;
  const ratio = engineRate / naiveRate;
  const engineLoop = probes.get('readpool engine')?.p99 ?? Infinity;
  measurements.push({
    label: 'engine detail',
    metrics: { files: files.length, errors: engineErrors, meanBatchSize: stats.meanBatchSize, threads: stats.threads },
  });
  return {
    scenario: 'source-tree',
    description: `${files.length} source files at concurrency ${CONCURRENCY}, engine vs naive reader (same run)`,
    measurements,
    targets: [
      { name: 'engine/naive files per second', value: ratio, goal: '>= 2', met: ratio >= 2 },
      { name: 'engine event-loop delay p99 (ms)', value: engineLoop, goal: '< 10', met: engineLoop < 10 },
      { name: 'engine read errors', value: engineErrors, goal: '= 0', met: engineErrors === 0 },
    ],
  };
}
