import path from 'node:path';
import { createEngine, type Engine } from '../../src/index.js';
import { prepareSourceTree, warmPageCache } from '../corpus.js';
import type { ScenarioReport } from '../report.js';
import { collectGarbage, median, percentile } from '../stats.js';

const OTHERS = 50;
const ROUNDS = 20;
/** Reads the greedy session keeps queued until the others are done. */
const GREEDY_READS = 10_000;

/** Starts an engine and wakes its workers, so that no measured read waits for a thread to boot. */
async function warmEngine(root: string, warmFiles: readonly string[]): Promise<Engine> {
  const engine = await createEngine({ root, maxQueued: 20_000 });
  await engine.ready();
  await Promise.all(warmFiles.map((file) => engine.read({ path: file, limit: 1 })));
  return engine;
}

/** 50 sessions read one file each, at once, `ROUNDS` times; each read's latency in ms. */
async function othersRead(engine: Engine, files: readonly string[]): Promise<number[]> {
  const latencies: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await Promise.all(
      Array.from({ length: OTHERS }, async (_, session) => {
        const file = files[round * OTHERS + session] ?? '';
        const started = performance.now();
        await engine.read({ path: file, session: `agent-${session}` });
        latencies.push(performance.now() - started);
      }),
    );
  }
  return latencies;
}

/**
 * Fairness: one greedy session keeps 10 000 reads queued (distinct requests, so all of them go
 * to the workers; each answered read is replaced by a new one until the others are done), and
 * meanwhile 50 other sessions each read one file, twenty times over. The others' p99 latency is
 * compared with their p99 on an idle engine, in the same run. Every condition gets a fresh
 * engine, so no read is served from a cache. (A fixed 10 000 reads ran out before the others
 * were done on 16 cores: the load was off for the rest of their reads.)
 */
export async function fairness(projectRoot: string, rounds: number): Promise<ScenarioReport> {
  const tree = prepareSourceTree(projectRoot, path.join(projectRoot, 'bench/.corpus/source-tree'), 2500);
  const othersFiles = tree.files.slice(0, OTHERS * ROUNDS);
  const greedyFiles = tree.files.slice(OTHERS * ROUNDS);
  warmPageCache(tree.root, tree.files);
  const idleP99: number[] = [];
  const loadedP99: number[] = [];
  const idleP50: number[] = [];
  const loadedP50: number[] = [];
  let greedyLeft = 0;
  let greedyErrors = 0;

  for (let round = 0; round < Math.max(2, Math.min(rounds, 3)); round++) {
    collectGarbage();
    const warmFiles = greedyFiles.slice(0, 64);
    const idle = await warmEngine(tree.root, warmFiles);
    const alone = await othersRead(idle, othersFiles);
    idleP99.push(percentile(alone, 99));
    idleP50.push(median(alone));
    await idle.close();

    collectGarbage();
    const loaded = await warmEngine(tree.root, warmFiles);
    let othersDone = false;
    let issued = 0;
    // Each read differs from every other by its file or its limit, so none is a cache hit (until
    // about 3 million reads, when the limit stays at 1: far beyond the others' 1 000 reads).
    const greedyRead = async (): Promise<void> => {
      while (!othersDone) {
        const i = issued++;
        // Results are dropped as they come, as an agent's tool loop would: holding ten
        // thousand of them would measure this script's garbage collector, not the engine.
        await loaded
          .read({ path: greedyFiles[i % greedyFiles.length] ?? '', session: 'greedy', limit: Math.max(1, 2000 - Math.floor(i / greedyFiles.length)) })
          .then(
            () => undefined,
            () => greedyErrors++,
          );
      }
    };
    const greedy = Promise.all(Array.from({ length: GREEDY_READS }, greedyRead));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const beside = await othersRead(loaded, othersFiles);
    greedyLeft = loaded.stats().queued;
    othersDone = true;
    loadedP99.push(percentile(beside, 99));
    loadedP50.push(median(beside));
    await greedy;
    await loaded.close();
  }
  const ratio = median(loadedP99) / median(idleP99);
  return {
    scenario: 'fairness',
    description: `${OTHERS} sessions reading one file each (x${ROUNDS}), alone and beside a session that keeps ${GREEDY_READS} reads queued`,
    measurements: [
      { label: 'others, idle engine', metrics: { p50Ms: median(idleP50), p99Ms: median(idleP99) } },
      { label: 'others, beside the greedy session', metrics: { p50Ms: median(loadedP50), p99Ms: median(loadedP99), greedyStillQueued: greedyLeft, greedyErrors } },
    ],
    targets: [
      { name: "others' p99 beside greedy / alone", value: ratio, goal: '< 3', met: ratio < 3 },
      { name: 'greedy reads still queued when the others were done (load was on)', value: greedyLeft, goal: '> 0', met: greedyLeft > 0 },
    ],
  };
}
