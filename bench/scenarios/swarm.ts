import path from 'node:path';
import { createEngine } from '../../src/index.js';
import { prepareSourceTree, warmPageCache } from '../corpus.js';
import { LoopDelayProbe } from '../event-loop.js';
import { naiveRead } from '../naive-reader.js';
import type { Measurement, ScenarioReport } from '../report.js';
import { collectGarbage, median, shuffled, trackPeakRss } from '../stats.js';

const SESSIONS = 256;
const FILES = 500;

/**
 * A swarm: 256 agents, each reading the same 500-file source tree once, in its own shuffled
 * order, one read at a time (so 256 reads are in flight). The engine starts cold each round:
 * the first reader of a file pays for it (once, shared by whoever asks meanwhile), the others
 * are served from the result cache. The naive reader reads every file every time.
 */
export async function swarm(projectRoot: string, rounds: number): Promise<ScenarioReport> {
  const tree = prepareSourceTree(projectRoot, path.join(projectRoot, 'bench/.corpus/source-tree'), 2500);
  const files = tree.files.slice(0, FILES);
  warmPageCache(tree.root, tree.files);
  const orders = Array.from({ length: SESSIONS }, (_, session) => shuffled(files, session + 1));
  const reads = SESSIONS * FILES;
  const probe = new LoopDelayProbe();
  const engineMs: number[] = [];
  const naiveMs: number[] = [];
  const engineLoop: number[] = [];
  const naiveLoop: number[] = [];
  let peakRssMb = 0;
  let errors = 0;
  let detail: Record<string, number> = {};

  // The naive pass takes seconds: two rounds of each, interleaved, are enough to see the ratio.
  for (let round = 0; round < Math.min(rounds, 2); round++) {
    collectGarbage();
    const engine = await createEngine({ root: tree.root });
    const rss = trackPeakRss();
    probe.start();
    let started = performance.now();
    await Promise.all(
      orders.map(async (order, session) => {
        for (const file of order) {
          await engine.read({ path: file, session: `agent-${session}` }).catch(() => errors++);
        }
      }),
    );
    engineMs.push(performance.now() - started);
    engineLoop.push(probe.stop().p99);
    peakRssMb = Math.max(peakRssMb, rss.stop());
    const stats = engine.stats();
    detail = {
      resultHits: stats.cache.result.hits,
      resultMisses: stats.cache.result.misses,
      singleFlightJoins: stats.cache.singleFlight.joins,
      cachedMb: stats.cache.result.bytes / 2 ** 20,
      sessions: stats.cache.sessions.sessions,
    };
    await engine.close();

    collectGarbage();
    probe.start();
    started = performance.now();
    await Promise.all(
      orders.map(async (order) => {
        for (const file of order) await naiveRead(path.join(tree.root, file));
      }),
    );
    naiveMs.push(performance.now() - started);
    naiveLoop.push(probe.stop().p99);
  }

  const engineRate = reads / (median(engineMs) / 1000);
  const naiveRate = reads / (median(naiveMs) / 1000);
  const ratio = engineRate / naiveRate;
  const measurements: Measurement[] = [
    { label: 'readpool engine (cold each round)', metrics: { readsPerSecond: engineRate, medianPassMs: median(engineMs), loopDelayP99Ms: median(engineLoop), peakRssMb } },
    { label: 'naive fs.promises reader', metrics: { readsPerSecond: naiveRate, medianPassMs: median(naiveMs), loopDelayP99Ms: median(naiveLoop) } },
    { label: 'engine detail (last round)', metrics: { reads, errors, ...detail } },
  ];
  return {
    scenario: 'swarm',
    description: `${SESSIONS} sessions each reading the same ${FILES} files in shuffled order (${reads} reads), engine vs naive reader`,
    measurements,
    targets: [
      { name: 'engine/naive reads per second', value: ratio, goal: '>= 20', met: ratio >= 20 },
      { name: 'engine peak RSS (MiB)', value: peakRssMb, goal: '< 300', met: peakRssMb < 300 },
      { name: 'engine read errors', value: errors, goal: '= 0', met: errors === 0 },
    ],
  };
}
