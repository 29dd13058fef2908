/**
 * The text pool's own threads (src/text-pool.ts): real worker threads running a stand-in entry
 * (test/support/thread-echo.mjs) that names the thread answering each job, so that where each
 * batch ran can be seen. The faults a real entry can meet (a thread that exits, throws, runs out
 * of heap or never starts) are in test/hostile/faults.test.ts.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTextPool, type TextPool } from '../src/text-pool.js';
import { substituteWorkerEntry } from '../src/worker-files.js';
import { encodeBatch, type JobSpec, type PoolAnswers, type WorkerConfig } from '../src/wire.js';
import { makeTempDir, removeTempDir, writeFile } from './support/temp-dir.js';

const echo = fileURLToPath(new URL('./support/thread-echo.mjs', import.meta.url));

function spec(file: string): JobSpec {
  return { path: file, offset: 1, limit: 10, column: 0, maxBytes: 1000, maxTokens: 1000, allowBinary: false, sha256: false, deadline: Date.now() + 10_000, render: null, hint: null };
}
const batchOf = (...paths: string[]) => encodeBatch(paths.map((file, slot) => ({ spec: spec(file), slot, defer: false })));
/** The thread each job of an answer ran on. */
const threadsOf = (answers: PoolAnswers) => answers.map((answer) => ('ok' in answer && !answer.ok ? Number(answer.details.thread) : NaN));

let pool: TextPool | null = null;
afterEach(async () => {
  await pool?.destroy();
  pool = null;
  substituteWorkerEntry('text-worker', null);
});

function echoPool(threads: number): TextPool {
  substituteWorkerEntry('text-worker', echo);
  // The stand-in reads nothing: it needs no sandbox settings.
  pool = createTextPool({} as WorkerConfig, { threads, nice: 0, heapMb: null });
  return pool;
}

describe('the text pool', () => {
  it('runs each batch on one thread, in order for its jobs, queueing batches while every thread is busy', async () => {
    const p = echoPool(2);
    // Slow batches (300 ms each): while one thread holds one, the other takes the next.
    const answers = await Promise.all(Array.from({ length: 4 }, (_, i) => p.run(batchOf(`/a/slow-${i}-1`, `/a/slow-${i}-2`))));
    for (const [i, answer] of answers.entries()) {
      expect(answer.map((job) => ('ok' in job && !job.ok ? job.details.path : null))).toEqual([`/a/slow-${i}-1`, `/a/slow-${i}-2`]);
      expect(answer.workerMs).toBe(0);
      const [first, second] = threadsOf(answer);
      expect(first).toBe(second);
    }
    expect(new Set(answers.flatMap(threadsOf)).size).toBe(2);
  });

  it('gives an idle thread a batch first, then a second to a busy one, begun when the first returns', async () => {
    const p = echoPool(2);
    const began: string[] = [];
    const done: string[] = [];
    const run = (name: string) =>
      p.run(batchOf(`/a/slow-${name}`), () => began.push(name)).then((answer) => {
        done.push(name);
        return threadsOf(answer)[0];
      });
    // Until both threads have loaded, a loaded one takes the second batch of a pair too.
    const seen = new Set<number>();
    while (seen.size < 2) for (const answer of await Promise.all([p.run(batchOf('/a/warm-1')), p.run(batchOf('/a/warm-2'))])) seen.add(threadsOf(answer)[0] ?? NaN);
    const runs = ['a', 'b', 'c', 'd'].map(run);
    // Two threads idle: a and b begin at once; c and d wait in their ports.
    expect(began).toEqual(['a', 'b']);
    const [a, b, c, d] = await Promise.all(runs);
    expect(new Set([a, b]).size).toBe(2);
    expect(new Set([c, d])).toEqual(new Set([a, b]));
    // A waiting batch begins only once the batch ahead of it on its thread has returned.
    for (const name of ['c', 'd']) expect(began.indexOf(name)).toBeGreaterThanOrEqual(2);
    expect(done.slice(0, 2).sort()).toEqual(['a', 'b']);
  });

  it('after a recycle, sends batches to fresh threads at once, and lets a batch still running on an old thread answer within its grace', async () => {
    const p = echoPool(1);
    const [before] = threadsOf(await p.run(batchOf('/a/1')));
    p.recycle();
    const [after] = threadsOf(await p.run(batchOf('/a/2')));
    expect(after).not.toBe(before);
    const q = echoPool(1);
    const slow = q.run(batchOf('/a/slow'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    q.recycle();
    expect(threadsOf(await slow)).toHaveLength(1);
    await p.destroy();
  }, 15_000);

  it('once destroyed, fails the batches still waiting and refuses new ones', async () => {
    const p = echoPool(1);
    const settled = Promise.allSettled([p.run(batchOf('/a/slow')), p.run(batchOf('/a/next'))]);
    await p.destroy();
    expect((await settled).map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    await expect(p.run(batchOf('/a/late'))).rejects.toThrow(/stopped/);
  });
});

describe('a host process', () => {
  let root = '';
  beforeAll(() => {
    root = makeTempDir();
    writeFile(root, 'a.txt', 'one\ntwo\n');
  });
  afterAll(() => removeTempDir(root));

  const run = (script: string) => {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000, cwd: path.dirname(root) });
    expect(child.error).toBeUndefined();
    expect(child.stderr).toBe('');
    // 13: Node found the process's last promise unsettled with nothing left to settle it.
    expect(child.status).toBe(0);
    return child.stdout;
  };
  it('that never closes its engine gets the answer to a read made while the threads still boot, then exits on its own', () => {
    expect(run(`
      const { createEngine } = await import(${JSON.stringify(new URL('../dist/src/index.js', import.meta.url).href)});
      const engine = await createEngine({ root: ${JSON.stringify(root)}, threads: 2 });
      const result = await engine.read({ path: 'a.txt' });
      process.stdout.write(result.content);`)).toBe('1\tone\n2\ttwo');
  }, 30_000);

  it('that destroys a pool while some threads still boot and others become ready sees the destroy settle, and exits 0', () => {
    // Threads ready at once, after 200 ms and after 400 ms: the one ready at once answers, the
    // pool is destroyed, and a thread becoming ready meanwhile must not let go of the one still
    // booting (which alone kept the process alive).
    const module = (file: string) => JSON.stringify(new URL(file, import.meta.url).href);
    const out = run(`
      const { createTextPool } = await import(${module('../dist/src/text-pool.js')});
      const { substituteWorkerEntry } = await import(${module('../dist/src/worker-files.js')});
      const { encodeBatch } = await import(${module('../dist/src/wire.js')});
      substituteWorkerEntry('text-worker', ${JSON.stringify(fileURLToPath(new URL('./support/slow-boot-echo.mjs', import.meta.url)))});
      const pool = createTextPool({}, { threads: 3, nice: 0, heapMb: null });
      const spec = { path: '/a', offset: 1, limit: 1, column: 0, maxBytes: 1, maxTokens: 1, allowBinary: false, sha256: false, deadline: Date.now() + 10000, render: null, hint: null };
      await pool.run(encodeBatch([{ spec, slot: 0, defer: false }]));
      await pool.destroy();
      process.stdout.write('destroyed');`);
    expect(out).toBe('destroyed');
  }, 30_000);
});
