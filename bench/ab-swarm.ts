/**
 * An A/B of two builds' swarm pass (256 sessions, 500 files, a fresh process a pass, as the
 * swarm scenario runs it), for changes smaller than the swarm's run-to-run noise here (620 to 840
 * ms a pass for one build within minutes):
 *
 *   node dist/bench/ab-swarm.js DIST_A DIST_B [PAIRS]
 *
 * DIST_A and DIST_B are two `dist/` folders (say this tree's and a `git worktree` of the commit
 * before, each built). Each pair runs both builds' `bench/swarm-pass.js` once, in an order that
 * flips every pair, over the source-tree corpus (run `npm run bench -- --only source-tree` once
 * to prepare it). Prints each side's median pass and host CPU per read, and how many pairs B won.
 * The swarm cannot share a process between builds: it measures a cold one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runMeasured } from './child.js';
import { median } from './stats.js';

const [distA = '', distB = '', pairsArg = '10'] = process.argv.slice(2);
if (distA === '' || distB === '') throw new Error('usage: node dist/bench/ab-swarm.js DIST_A DIST_B [PAIRS]');
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const root = path.join(projectRoot, 'bench/.corpus/source-tree');
if (!fs.existsSync(path.join(root, '.complete'))) throw new Error('no source-tree corpus: run `npm run bench -- --only source-tree` once');

interface Pass {
  readonly ms: number;
  readonly hostUsPerRead: number;
}

/** One swarm pass of a build, in a process of its own (the scenario's own child runner). */
function swarmPass(dist: string): Pass {
  const script = path.resolve(dist, 'bench/swarm-pass.js');
  const child = runMeasured([script, 'engine', root, '500', '256'], projectRoot, path.join(projectRoot, 'dist/bench/rss-preload.js'));
  const { ms, hostUsPerRead, errors } = JSON.parse(child.stdout.trim().split('\n').pop() ?? '{}') as { ms: number; hostUsPerRead: number; errors: number };
  if (errors !== 0) throw new Error(`swarm pass of ${dist} answered ${errors} reads with errors`);
  return { ms, hostUsPerRead };
}

const passes = { A: [] as Pass[], B: [] as Pass[] };
const pairs = Number(pairsArg);
let bWins = 0;
for (let i = 0; i < pairs; i++) {
  for (const side of i % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) passes[side].push(swarmPass(side === 'A' ? distA : distB));
  if ((passes.B[i]?.ms ?? Infinity) < (passes.A[i]?.ms ?? Infinity)) bWins++;
}
process.stdout.write(`swarm: 256 sessions x 500 files, ${pairs} pairs of fresh processes\n`);
for (const side of ['A', 'B'] as const) {
  const all = passes[side];
  const row = `median ${median(all.map((pass) => pass.ms)).toFixed(0)} ms, host ${median(all.map((pass) => pass.hostUsPerRead)).toFixed(2)} µs/read`;
  process.stdout.write(`${side} ${side === 'A' ? distA : distB}: ${row} (${all.map((pass) => Math.round(pass.ms)).join(' ')})\n`);
}
process.stdout.write(`B faster in ${bWins} of ${pairs} pairs\n`);
