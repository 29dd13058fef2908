/**
 * Host-thread CPU per read, layer by layer, in one process over the source-tree corpus (run
 * `npm run bench -- --only source-tree` once to prepare it):
 *
 *   node dist/bench/layers.js [PASSES] [CONCURRENCY] [THREADS]
 *
 * - `pool`: the text pool and its wire alone: tasks of the engine's mean size (measured in the
 *   warm-up), two a worker in flight, as the engine keeps them on a small machine;
 * - `scheduler`: `Scheduler.submit` a read, at CONCURRENCY (64) reads in flight: its lanes,
 *   tickets, task sizing and answers, over the same pool;
 * - `engine`: `engine.read` a read at CONCURRENCY, result cache off (every read a miss): the
 *   whole pipeline, from the request to the frozen result.
 *
 * Each figure holds the layers under it, so the differences are what a layer adds. Passes
 * alternate the layers, in an order that turns every round; each prints the median and lowest
 * µs a read, and the reads a task went with (a task costs the host as much as several reads, so
 * layers compare only at like task sizes). THREADS (2) worker threads for each layer's pool.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RENDER } from '../src/dialects/readpool.js';
import { createEngine } from '../src/index.js';
import { resolveOptions } from '../src/options.js';
import { jobOf } from '../src/read-work.js';
import { withDefaults } from '../src/request.js';
import { Sandbox } from '../src/sandbox.js';
import { Scheduler, UNSIZED } from '../src/scheduler.js';
import { createTextPool, TASKS_PER_WORKER } from '../src/text-pool.js';
import { encodeBatch, type JobOutcome, type JobSpec } from '../src/wire.js';
import { forEachConcurrent } from './event-loop.js';
import { median } from './stats.js';
import { mainThreadCpuMs, THREAD_CPU_SOURCE } from './thread-cpu.js';

const [passesArg = '12', concurrencyArg = '64', threadsArg = '2'] = process.argv.slice(2);
const [passes, concurrency, threads] = [passesArg, concurrencyArg, threadsArg].map(Number) as [number, number, number];
if (![passes, concurrency, threads].every((n) => Number.isSafeInteger(n) && n > 0)) {
  throw new Error('usage: node dist/bench/layers.js [PASSES] [CONCURRENCY] [THREADS]');
}
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const root = fs.realpathSync(path.join(projectRoot, 'bench/.corpus/source-tree'));
const listing = path.join(root, '.complete');
if (!fs.existsSync(listing)) throw new Error('no source-tree corpus: run `npm run bench -- --only source-tree` once');
const files = fs.readFileSync(listing, 'utf8').split('\n').filter(Boolean);
const absolute = files.map((file) => path.join(root, file));

const options = resolveOptions({ root, threads, cacheBytes: 0 });
const sandbox = await Sandbox.create(options);
const inFlight = threads * TASKS_PER_WORKER;
const cancel = new Int32Array(new SharedArrayBuffer(4 * inFlight * options.batchSize));
const workerConfig = {
  roots: sandbox.roots,
  deny: sandbox.denyRules,
  maxFileBytes: options.maxFileBytes,
  maxBinaryBytes: options.maxBinaryBytes,
  maxLineChars: options.maxLineChars,
  settleMs: options.settleMs,
  render: RENDER,
  cancel,
};
const newPool = async () => {
  const pool = createTextPool(workerConfig, { threads, nice: options.workerNice, heapMb: options.workerHeapMb });
  await pool.ready();
  return pool;
};

/** The job the engine sends for a plain read of `file`. */
const plain = withDefaults({ path: '' }, options);
const jobFor = (file: string): JobSpec => jobOf(plain, file, null, Date.now() + options.timeoutMs);

const poolAlone = await newPool();
let taskSize = options.batchSize;
const pool = {
  tasks: 0,
  async pass(): Promise<void> {
    let next = 0;
    const lane = async () => {
      while (next < absolute.length) {
        const chunk = absolute.slice(next, next + taskSize);
        next += chunk.length;
        const slotBase = (pool.tasks++ % inFlight) * options.batchSize;
        const answers = await poolAlone.run(encodeBatch(chunk.map((file, i) => ({ spec: jobFor(file), slot: slotBase + i, defer: false, size: UNSIZED }))));
        for (const answer of answers) if (!('ok' in answer) || !answer.ok) throw new Error(`pool layer: ${JSON.stringify(answer)}`);
      }
    };
    await Promise.all(Array.from({ length: inFlight }, lane));
  },
  reads: () => files.length,
  taskCount: () => pool.tasks,
};

const schedulerPool = await newPool();
const scheduler = new Scheduler({
  maxQueued: options.maxQueued,
  maxQueuedBytes: options.maxQueuedBytes,
  batchSize: options.batchSize,
  maxInFlight: threads,
  aloneInFlight: inFlight,
  cores: options.cores,
  run: (batch, started) => schedulerPool.run(batch, started),
  recycle: () => schedulerPool.recycle(),
  stuckGraceMs: 2000,
  cancel,
});
const tasksOf = (stats: { batches: number }) => stats.batches;

// One reaction a read in each of the two layers above the pool, as a caller's would be.
const checkOutcome = (outcome: JobOutcome) => {
  if (!outcome.ok) throw new Error(`scheduler layer: ${JSON.stringify(outcome)}`);
};
const failed = (error: unknown) => {
  throw new Error(`engine layer: ${String(error)}`);
};
const engine = await createEngine({ root, threads, cacheBytes: 0 });

interface Layer {
  readonly pass: () => Promise<void>;
  /** Tasks sent so far. */
  readonly tasks: () => number;
}
const layers: Record<'pool' | 'scheduler' | 'engine', Layer> = {
  pool: { pass: () => pool.pass(), tasks: () => pool.taskCount() },
  scheduler: {
    pass: () =>
      forEachConcurrent(absolute, concurrency, (file) => scheduler.submit(jobFor(file), Infinity, undefined, '', UNSIZED).then(checkOutcome)),
    tasks: () => tasksOf(scheduler.stats()),
  },
  engine: {
    pass: () => forEachConcurrent(files, concurrency, (file) => engine.read({ path: file }).catch(failed)),
    tasks: () => engine.stats().batches,
  },
};
const names = Object.keys(layers) as (keyof typeof layers)[];

// Warm-up: every layer's code compiled and its heap grown; the pool layer then takes the
// engine's mean task size, so that the two compare at like sizes.
for (let i = 0; i < 4; i++) for (const name of names) await layers[name].pass();
const engineTasks = engine.stats().batches;
await layers.engine.pass();
taskSize = Math.max(1, Math.round(files.length / (engine.stats().batches - engineTasks)));

const us: Record<string, number[]> = { pool: [], scheduler: [], engine: [] };
const tasks: Record<string, number> = { pool: 0, scheduler: 0, engine: 0 };
for (let round = 0; round < passes; round++) {
  const order = names.slice(round % names.length).concat(names.slice(0, round % names.length));
  for (const name of order) {
    const layer = layers[name];
    const tasksBefore = layer.tasks();
    const cpuStarted = mainThreadCpuMs();
    await layer.pass();
    us[name]?.push(((mainThreadCpuMs() - cpuStarted) * 1000) / files.length);
    tasks[name] = (tasks[name] ?? 0) + layer.tasks() - tasksBefore;
  }
}

process.stdout.write(`${files.length} files a pass at concurrency ${concurrency} on ${threads} threads, ${passes} passes a layer, host CPU from ${THREAD_CPU_SOURCE}\n`);
for (const name of names) {
  const values = us[name] ?? [];
  const readsPerTask = (files.length * passes) / (tasks[name] ?? NaN);
  process.stdout.write(`${name.padEnd(9)} median ${median(values).toFixed(2)} µs/read, lowest ${Math.min(...values).toFixed(2)}; ${readsPerTask.toFixed(1)} reads a task\n`);
}
await Promise.all([engine.close(), poolAlone.destroy(), scheduler.close(1000).then(() => schedulerPool.destroy())]);
