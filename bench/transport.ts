/**
 * What a pool task costs the host thread, by transport: a Piscina pool (as the text pool was
 * until 2026-11-25, and the media pool still is) against readpool's own text pool, both
 * running the same stand-in handler (`bench/transport-entry.ts`: answers shaped as the text
 * worker's, 7 KB of content a job, nothing read) on 2 threads, one task in flight a thread, and
 * both decoding the answers the same way:
 *
 *   node dist/bench/transport.js [TASKS]
 *
 * Prints the main thread's CPU per task and per job for tasks of 1, 4 and 16 jobs.
 */
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { createTextPool } from '../src/text-pool.js';
import { substituteWorkerEntry } from '../src/worker-files.js';
import { decodeOutcome, encodeBatch, type JobBatch, type JobSpec, type WireOutcome, type WorkerConfig } from '../src/wire.js';
import { mainThreadCpuMs, THREAD_CPU_SOURCE } from './thread-cpu.js';

const THREADS = 2;
const TASKS = Number(process.argv[2] ?? 4000);
const entry = fileURLToPath(new URL('./transport-entry.js', import.meta.url));

function spec(i: number): JobSpec {
  return { path: `/srv/workspace/src/deep/inside/the/tree/file-${i}.ts`, offset: 1, limit: 2000, column: 0, maxBytes: 256_000, maxTokens: 25_000, allowBinary: false, sha256: false, deadline: Date.now() + 60_000, render: null, hint: null };
}
const batchOf = (jobs: number): JobBatch => encodeBatch(Array.from({ length: jobs }, (_, i) => ({ spec: spec(i), slot: i, defer: false })));

/** Runs `tasks` tasks of `jobs` jobs, one in flight a thread; the host CPU per task in µs. */
async function hostUsPerTask(run: (batch: JobBatch) => Promise<unknown>, jobs: number, tasks: number): Promise<number> {
  const drive = async (count: number) => {
    let left = count;
    await Promise.all(
      Array.from({ length: THREADS }, async () => {
        while (left-- > 0) await run(batchOf(jobs));
      }),
    );
  };
  await drive(Math.min(500, tasks));
  const started = mainThreadCpuMs();
  await drive(tasks);
  return ((mainThreadCpuMs() - started) * 1000) / tasks;
}

const piscina = new Piscina<JobBatch, (WireOutcome | number)[]>({ filename: entry, minThreads: THREADS, maxThreads: THREADS, concurrentTasksPerWorker: 1, recordTiming: false });
const viaPiscina = async (batch: JobBatch) => {
  const wires = await piscina.run(batch);
  return batch.paths.map((path, i) => decodeOutcome(wires[i] as WireOutcome, path));
};
substituteWorkerEntry('text-worker', entry);
// The stand-in reads nothing: it needs no sandbox settings.
const own = createTextPool({} as WorkerConfig, { threads: THREADS, nice: 0, heapMb: null });

process.stdout.write(`host CPU a task (${THREAD_CPU_SOURCE}), ${THREADS} threads, ${TASKS} tasks each:\n`);
for (const jobs of [1, 4, 16]) {
  const a = await hostUsPerTask(viaPiscina, jobs, TASKS);
  const b = await hostUsPerTask((batch) => own.run(batch), jobs, TASKS);
  process.stdout.write(`  ${String(jobs).padStart(2)} jobs a task: Piscina ${a.toFixed(1)} µs (${(a / jobs).toFixed(2)} a job), readpool's pool ${b.toFixed(1)} µs (${(b / jobs).toFixed(2)} a job)\n`);
}
await Promise.all([piscina.destroy(), own.destroy()]);
