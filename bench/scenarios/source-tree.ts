import os from 'node:os';
import path from 'node:path';
import { Bench } from 'tinybench';
import { createEngine, type Engine } from '../../src/index.js';
import { defaultThreads } from '../../src/options.js';
import { BareWorkers, FILES_PER_MESSAGE } from '../bare-workers.js';
import { prepareSourceTree, warmPageCache } from '../corpus.js';
import { forEachConcurrent, LoopDelayProbe, type LoopDelay } from '../event-loop.js';
import { naiveRead, syncRead } from '../naive-reader.js';
import type { Measurement, ScenarioReport, Target } from '../report.js';
import { collectGarbage, median } from '../stats.js';
import { HostCpuMeter, THREAD_CPU_SOURCE } from '../thread-cpu.js';

const FILES = 2500;
/** Reads in flight at once, unless the run names another (`--concurrency`). */
export const DEFAULT_CONCURRENCY = 64;
/**
 * Unmeasured passes of each task before its first measured round; every task gets the same. A
 * new engine's passes speed up until about the fifth while V8 compiles the host's and each
 * worker's code (measured, result cache off: about 6 500, 12 500, 19 000, 19 000 files/s, then
 * 20 000 to 25 000; host CPU 40, 22, 16, 17, then 13 to 15 µs a read). With two, the first
 * measured passes were the third and fourth, and the host's figure (a mean over every measured
 * pass) counted them.
 */
const WARMUP_PASSES = 6;

interface Task {
  readonly name: string;
  /** Stated, not detected: a plain arrow returning a promise would be timed as synchronous. */
  readonly async: boolean;
  readonly run: () => Promise<unknown> | void;
  /** Main-thread CPU per read, for the engine's tasks and the bare reference, over the passes without the loop probe. */
  readonly meter?: HostCpuMeter;
  /** The same over the passes with the loop probe on, whose 1 ms timer the host thread runs. */
  readonly probedMeter?: HostCpuMeter;
}

/** The engine's figures at one thread count. */
interface ThreadSet {
  readonly threads: number;
  readonly misses: Engine;
  readonly hits: Engine;
  readonly bare: BareWorkers;
  readonly missMeter: HostCpuMeter;
  readonly hitMeter: HostCpuMeter;
  readonly probedMissMeter: HostCpuMeter;
  readonly probedHitMeter: HostCpuMeter;
  /**
   * The bare-worker reference's host CPU a file: what the host thread pays on this machine just
   * to receive rendered text from plain workers, which the engine's figures sit beside.
   */
  readonly bareMeter: HostCpuMeter;
  errors: number;
}

const engineName = (threads: number) => `readpool engine, ${threads} threads`;
const hitsName = (threads: number) => `engine cache hits, ${threads} threads`;
const bareName = (threads: number) => `bare workers, ${threads} threads`;
const NAIVE = 'naive fs.promises reader';
const SYNC = 'sync loop on the host thread';

/**
 * Macro scenario: read every file of a real source tree at concurrency 64 (or `concurrency`) through the engine
 * (result cache off: every read a miss; and a second engine answering from its cache), the
 * bare-worker reference at the same thread count, a naive in-process reader, and a sync loop,
 * in the same run; then freshly created engines' first passes. Tasks run in interleaved rounds
 * (a tinybench run of each per round) so a noisy shared machine slows all alike; figures are
 * medians over every measured pass. `threadCounts` sweeps the engine and the reference; `cores`
 * is what the engines are told the machine has (default: what Node sees).
 */
export async function sourceTree(
  projectRoot: string,
  rounds: number,
  threadCounts: readonly number[] | undefined = undefined,
  concurrency = DEFAULT_CONCURRENCY,
  cores = os.availableParallelism(),
): Promise<ScenarioReport> {
  const counts = threadCounts ?? [defaultThreads(cores)];
  const { root, files } = prepareSourceTree(projectRoot, path.join(projectRoot, 'bench/.corpus/source-tree'), FILES);
  const absolute = files.map((file) => path.join(root, file));
  warmPageCache(root, files);
  const sets: ThreadSet[] = [];
  for (const threads of counts) {
    const hits = await createEngine({ root, threads, cores });
    await forEachConcurrent(files, concurrency, (file) => hits.read({ path: file }).catch(() => undefined));
    sets.push({
      threads,
      misses: await createEngine({ root, cacheBytes: 0, threads, cores }),
      hits,
      bare: await BareWorkers.start(threads),
      missMeter: new HostCpuMeter(),
      hitMeter: new HostCpuMeter(),
      probedMissMeter: new HostCpuMeter(),
      probedHitMeter: new HostCpuMeter(),
      bareMeter: new HostCpuMeter(),
      errors: 0,
    });
  }
  // A measured pass runs with the event-loop probe on (even passes of a round) or with the host's
  // CPU metered (odd passes), not both: the probe's 1 ms timer runs on the host thread, and cost
  // it 0.7 to 0.85 µs a miss and about 0.35 a hit (`bench/ab.js`, in one process). Both kinds
  // of pass count for the rate. The CPU of the probed passes is reported too (`...Probed`),
  // which is how the figure was measured before.
  let phase: 'unmeasured' | 'probe' | 'meter' = 'unmeasured';
  let passOfRound = 0;
  const engineTask = (name: string, set: ThreadSet, engine: Engine, meter: HostCpuMeter, probedMeter: HostCpuMeter): Task => ({
    name,
    async: true,
    meter,
    probedMeter,
    run: () => {
      // The read's own promise, as the naive reader's: no async wrapper a read, whose frame and
      // promise the host would pay for inside the engine's figure.
      const failed = () => {
        set.errors++;
      };
      const pass = () => forEachConcurrent(files, concurrency, (file) => engine.read({ path: file }).catch(failed));
      if (phase === 'unmeasured') return pass();
      return (phase === 'meter' ? meter : probedMeter).measure(files.length, pass);
    },
  });
  const tasks: Task[] = [
    { name: NAIVE, async: true, run: () => forEachConcurrent(absolute, concurrency, naiveRead) },
    {
      name: SYNC,
      async: false,
      run: () => {
        for (const file of absolute) syncRead(file);
      },
    },
    ...sets.flatMap((set) => [
      engineTask(engineName(set.threads), set, set.misses, set.missMeter, set.probedMissMeter),
      engineTask(hitsName(set.threads), set, set.hits, set.hitMeter, set.probedHitMeter),
      {
        name: bareName(set.threads),
        async: true,
        meter: set.bareMeter,
        // Metered on the same passes as the engine's (no loop probe), so the figures compare.
        run: () => {
          const pass = () => set.bare.readAll(absolute);
          return phase === 'meter' ? set.bareMeter.measure(files.length, pass) : pass();
        },
      },
    ]),
  ];
  const probe = new LoopDelayProbe();
  const delays = new Map<string, LoopDelay[]>(tasks.map((task) => [task.name, []]));
  const samples = new Map<string, number[]>(tasks.map((task) => [task.name, []]));

  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ iterations: 2, time: 0, warmup: round === 0, warmupIterations: WARMUP_PASSES, retainSamples: true });
    // Rotate the order each round, so that no task always runs right after the same other one.
    const order = tasks.map((_, i) => tasks[(i + round) % tasks.length]).filter((task) => task !== undefined);
    for (const task of order) {
      bench.add(task.name, task.run, {
        async: task.async,
        beforeAll: () => {
          // Start every task on a collected heap, so none pays for another's garbage.
          collectGarbage();
          passOfRound = 0;
        },
        beforeEach: (mode?: string) => {
          if (mode !== 'run') return;
          phase = passOfRound % 2 === 0 ? 'probe' : 'meter';
          if (phase === 'probe') probe.start();
        },
        afterEach: (mode?: string) => {
          if (mode !== 'run') return;
          if (phase === 'probe') delays.get(task.name)?.push(probe.stop());
          phase = 'unmeasured';
          passOfRound++;
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
  const batchSizes = new Map(sets.map((set) => [set.threads, set.misses.stats().meanBatchSize]));
  await Promise.all(sets.flatMap((set) => [set.misses.close(), set.hits.close(), set.bare.close()]));

  const measurements: Measurement[] = [];
  const rate = new Map<string, number>();
  const loopP99 = new Map<string, number>();
  for (const task of tasks) {
    const passMs = median(samples.get(task.name) ?? []);
    const filesPerSecond = files.length / (passMs / 1000);
    rate.set(task.name, filesPerSecond);
    const loop = delays.get(task.name) ?? [];
    loopP99.set(task.name, median(loop.map((delay) => delay.p99)));
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
        ...(task.meter === undefined
          ? {}
          : {
              hostUsPerRead: task.meter.usPerRead,
              ...(task.probedMeter === undefined ? {} : { hostUsPerReadProbed: task.probedMeter.usPerRead }),
              hostFaultsPerRead: task.meter.faultsPerRead,
            }),
      },
    });
  }
  const naiveRate = rate.get(NAIVE) ?? NaN;
  const fresh = await freshPasses(root, files, counts, rounds, concurrency, cores);
  for (const pass of fresh) {
    measurements.push({
      label: `fresh engine first pass, ${pass.threads} threads`,
      metrics: { filesPerSecond: pass.filesPerSecond, vsNaive: pass.filesPerSecond / naiveRate, createMs: pass.createMs, withCreateFilesPerSecond: pass.withCreate },
    });
  }
  for (const set of sets) {
    const engineRate = rate.get(engineName(set.threads)) ?? 0;
    measurements.push({
      label: `engine detail, ${set.threads} threads`,
      metrics: {
        vsNaive: engineRate / naiveRate,
        vsBareWorkers: engineRate / (rate.get(bareName(set.threads)) ?? NaN),
        hostUsPerMiss: set.missMeter.usPerRead,
        hostUsPerHit: set.hitMeter.usPerRead,
        hostUsPerMissProbed: set.probedMissMeter.usPerRead,
        hostUsPerHitProbed: set.probedHitMeter.usPerRead,
        bareHostUsPerFile: set.bareMeter.usPerRead,
        ceilingReadsPerSecond: 1e6 / set.missMeter.usPerRead,
        meanBatchSize: batchSizes.get(set.threads) ?? 0,
        errors: set.errors,
      },
    });
  }
  // Targets are judged at the engine's default thread count when it was run, else the first.
  const main = sets.find((set) => set.threads === defaultThreads(cores)) ?? sets[0];
  const targets: Target[] = [];
  if (main !== undefined) {
    const t = main.threads;
    const engineRate = rate.get(engineName(t)) ?? 0;
    const vsNaive = engineRate / naiveRate;
    const vsBare = engineRate / (rate.get(bareName(t)) ?? NaN);
    const firstPass = (fresh.find((pass) => pass.threads === t)?.filesPerSecond ?? 0) / naiveRate;
    const loop = loopP99.get(engineName(t)) ?? Infinity;
    targets.push(
      { name: `engine/naive files per second (${t} threads)`, value: vsNaive, goal: '>= 2.5', met: vsNaive >= 2.5 },
      { name: `engine/bare-worker reference (${t} threads)`, value: vsBare, goal: '>= 0.6', met: vsBare >= 0.6 },
      { name: 'fresh engine first pass/naive', value: firstPass, goal: '>= 1.5', met: firstPass >= 1.5 },
      { name: 'engine event-loop delay p99 (ms)', value: loop, goal: '<= 10', met: loop <= 10 },
      { name: `host-thread CPU per miss (µs, ${THREAD_CPU_SOURCE})`, value: main.missMeter.usPerRead, goal: '<= 8', met: main.missMeter.usPerRead <= 8 },
      { name: `host-thread CPU per cache hit (µs, ${THREAD_CPU_SOURCE})`, value: main.hitMeter.usPerRead, goal: '<= 4', met: main.hitMeter.usPerRead <= 4 },
      { name: 'engine read errors', value: main.errors, goal: '= 0', met: main.errors === 0 },
    );
  }
  return {
    scenario: 'source-tree',
    description: `${files.length} source files at concurrency ${concurrency}: engine (misses, hits), bare workers (${FILES_PER_MESSAGE} files a message), naive reader; threads ${counts.join(',')}${cores === os.availableParallelism() ? '' : `, the engines told of ${cores} cores`}; ${rounds} interleaved rounds`,
    measurements,
    targets,
  };
}

interface FreshPass {
  readonly threads: number;
  readonly filesPerSecond: number;
  readonly createMs: number;
  readonly withCreate: number;
}

/** A first-time user's harness: create an engine, read the tree once, close; medians of `rounds`. */
async function freshPasses(root: string, files: readonly string[], threadCounts: readonly number[], rounds: number, concurrency: number, cores: number): Promise<FreshPass[]> {
  const out: FreshPass[] = [];
  for (const threads of threadCounts) {
    const passMs: number[] = [];
    const createMs: number[] = [];
    for (let round = 0; round < rounds; round++) {
      collectGarbage();
      const created = performance.now();
      const engine = await createEngine({ root, threads, cores });
      const started = performance.now();
      await forEachConcurrent(files, concurrency, (file) => engine.read({ path: file }).catch(() => undefined));
      passMs.push(performance.now() - started);
      createMs.push(started - created);
      await engine.close();
    }
    const pass = median(passMs);
    const create = median(createMs);
    out.push({ threads, filesPerSecond: files.length / (pass / 1000), createMs: create, withCreate: files.length / ((pass + create) / 1000) });
  }
  return out;
}
