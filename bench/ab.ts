/**
 * An A/B of two builds' host-thread cost, in one process, for changes too small to see across
 * runs on a shared machine (run-to-run noise here is about ±1.5 µs a read):
 *
 *   node dist/bench/ab.js miss|hit DIST_A DIST_B [PASSES] [CONCURRENCY] [THREADS]
 *
 * DIST_A and DIST_B are two `dist/` folders (say this tree's and a `git worktree` of the commit
 * before, each built). Both engines run in this process over the source-tree corpus (run
 * `npm run bench -- --only source-tree` once to prepare it), on 2 threads and at concurrency 64
 * unless THREADS and CONCURRENCY say otherwise; `miss` turns the result cache off. Passes alternate A and B, in an order that flips every
 * round, and each prints the main thread's CPU per read (min, p25, median) and files/s.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Readpool from '../src/index.js';
import type { Engine } from '../src/index.js';
import { forEachConcurrent } from './event-loop.js';
import { mainThreadCpuMs, THREAD_CPU_SOURCE } from './thread-cpu.js';

const [mode = '', distA = '', distB = '', passesArg = '30', concurrencyArg = '64', threadsArg = '2'] = process.argv.slice(2);
const concurrency = Number(concurrencyArg);
const threads = Number(threadsArg);
if ((mode !== 'miss' && mode !== 'hit') || distA === '' || distB === '' || ![concurrency, threads].every((n) => Number.isSafeInteger(n) && n > 0)) {
  throw new Error('usage: node dist/bench/ab.js miss|hit DIST_A DIST_B [PASSES] [CONCURRENCY] [THREADS]');
}
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const root = path.join(projectRoot, 'bench/.corpus/source-tree');
const listing = path.join(root, '.complete');
if (!fs.existsSync(listing)) throw new Error('no source-tree corpus: run `npm run bench -- --only source-tree` once');
const files = fs.readFileSync(listing, 'utf8').split('\n').filter(Boolean);

async function engineOf(dist: string): Promise<Engine> {
  const entry = path.resolve(dist, 'src/index.js');
  const { createEngine } = (await import(entry)) as typeof Readpool;
  return createEngine({ root, threads, ...(mode === 'miss' ? { cacheBytes: 0 } : {}) });
}

const engines = { A: await engineOf(distA), B: await engineOf(distB) };
const pass = (engine: Engine) => forEachConcurrent(files, concurrency, (file) => engine.read({ path: file }).catch(() => undefined));
for (let i = 0; i < 4; i++) for (const engine of Object.values(engines)) await pass(engine);

const us = { A: [] as number[], B: [] as number[] };
const ms = { A: [] as number[], B: [] as number[] };
const passes = Number(passesArg);
for (let i = 0; i < passes; i++) {
  for (const side of i % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
    const cpuStarted = mainThreadCpuMs();
    const started = performance.now();
    await pass(engines[side]);
    ms[side].push(performance.now() - started);
    us[side].push(((mainThreadCpuMs() - cpuStarted) * 1000) / files.length);
  }
}
const at = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))] ?? NaN;
process.stdout.write(`${mode}: ${files.length} files a pass at concurrency ${concurrency} on ${threads} threads, ${passes} passes each, host CPU from ${THREAD_CPU_SOURCE}\n`);
for (const side of ['A', 'B'] as const) {
  const row = [`min ${at(us[side], 0).toFixed(2)}`, `p25 ${at(us[side], 0.25).toFixed(2)}`, `median ${at(us[side], 0.5).toFixed(2)} µs/read`];
  process.stdout.write(`${side} ${side === 'A' ? distA : distB}: ${row.join(', ')}; ${Math.round(files.length / (at(ms[side], 0.5) / 1000))} files/s\n`);
}
await Promise.all(Object.values(engines).map((engine) => engine.close()));
