/**
 * Hostile symbolic and hard links: a leaf link out, a middle directory link out, to the prefix
 * sibling, loops, long chains, chains that end outside, links inside the root (allowed), a
 * dangling link, links to devices and kernel files, a link swapped between check and open by a
 * racing thread, a link swapped under a cached result, and a hard link out of the root (read:
 * the documented limit of any path-based sandbox).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/index.js';
import { removeTempDir, writeFile } from '../support/temp-dir.js';
import { answerOf, check, expectNoLeak, expectServing, hostileWorkspace, OK_LINE, textIs, type Expected, type HostileWorkspace } from './harness.js';

let ws: HostileWorkspace;
let engine: Engine;
/** Outside the root, linked to by a hard link inside it; never holds the secret marker. */
const HARD_LINKED = 'hard-linked content from outside the root';

function link(target: string, at: string): void {
  fs.symlinkSync(target, path.join(ws.root, at));
}

beforeAll(async () => {
  ws = hostileWorkspace();
  writeFile(ws.root, 'sub/inner.txt', 'inner\n');
  writeFile(ws.root, '.env', 'TOKEN=1\n');
  link(ws.secret, 'leaf-abs.txt');
  link('../secret.txt', 'leaf-rel.txt');
  link(ws.base, 'up');
  link(path.join(ws.base, 'root-evil'), 'evil');
  link('sub/inner.txt', 'inner-link.txt');
  link(path.join(ws.root, 'sub', 'inner.txt'), 'inner-abs.txt');
  link('sub', 'sub-link');
  link('.', 'self-dir');
  link('loop-a', 'loop-b');
  link('loop-b', 'loop-a');
  link('self-loop', 'self-loop');
  link('nowhere.txt', 'dangling.txt');
  link('/dev/zero', 'zero.txt');
  link('/proc/self/environ', 'environ.txt');
  link('/etc/passwd', 'passwd.txt');
  link('.env', 'env.txt');
  link('ok.txt', 'chain-0');
  for (let i = 1; i <= 60; i++) link(`chain-${i - 1}`, `chain-${i}`);
  link(ws.secret, 'out-chain-0');
  for (let i = 1; i <= 5; i++) link(`out-chain-${i - 1}`, `out-chain-${i}`);
  fs.writeFileSync(path.join(ws.base, 'hard-target.txt'), `${HARD_LINKED}\n`);
  fs.linkSync(path.join(ws.base, 'hard-target.txt'), path.join(ws.root, 'hard.txt'));
  engine = await createEngine({ root: ws.root, threads: 1 });
});

afterAll(async () => {
  await engine.close();
  removeTempDir(ws.base);
});

const INNER = textIs('1\tinner');

const rows: readonly [name: string, path: string, expected: Expected][] = [
  ['leaf link to the secret, absolute target', 'leaf-abs.txt', 'outside_root'],
  ['leaf link to the secret, relative target ../secret.txt', 'leaf-rel.txt', 'outside_root'],
  ['middle directory link out: up/secret.txt', 'up/secret.txt', 'outside_root'],
  ['middle directory link out and back in: up/root/ok.txt', 'up/root/ok.txt', textIs(`1\t${OK_LINE}`)],
  ['middle directory link to the prefix sibling: evil/secret.txt', 'evil/secret.txt', 'outside_root'],
  ['a directory link out, itself', 'up', 'outside_root'],
  ['leaf link inside the root (allowed)', 'inner-link.txt', INNER],
  ['leaf link inside the root by absolute target (allowed)', 'inner-abs.txt', INNER],
  ['middle link inside the root (allowed): sub-link/inner.txt', 'sub-link/inner.txt', INNER],
  ['a link to the root itself: self-dir/self-dir/ok.txt', 'self-dir/self-dir/ok.txt', textIs(`1\t${OK_LINE}`)],
  ['a two-link loop', 'loop-a', 'unreadable'],
  ['a link to itself', 'self-loop', 'unreadable'],
  ['a loop in the middle: loop-a/x.txt', 'loop-a/x.txt', 'unreadable'],
  ['a chain of 30 links inside the root (allowed)', 'chain-30', textIs(`1\t${OK_LINE}`)],
  ['a chain of 60 links (past the kernel limit of 40)', 'chain-60', 'unreadable'],
  ['a chain of 5 links ending outside', 'out-chain-5', 'outside_root'],
  ['a dangling link', 'dangling.txt', 'not_found'],
  ['a link to /dev/zero', 'zero.txt', 'outside_root'],
  ['a link to /proc/self/environ', 'environ.txt', 'outside_root'],
  ['a link to /etc/passwd', 'passwd.txt', 'outside_root'],
  ['a link named env.txt to .env (deny rules on the resolved path)', 'env.txt', 'denied'],
];

describe('links', () => {
  for (const [name, at, expected] of rows) {
    it(`${name}: ${at} -> ${typeof expected === 'string' ? expected : 'safe result'}`, async () => {
      await check(engine, { path: at }, expected);
    });
  }

  it('a hard link out of the root is read (documented policy: inside by every name the kernel reports)', async () => {
    await check(engine, { path: 'hard.txt' }, textIs(`1\t${HARD_LINKED}`));
  });

  it('a leaf swapped between a file and a link out by a racing thread, 300 reads: never the secret', async () => {
    const inside = writeFile(ws.root, 'swap.txt', 'inside\n');
    const stopBuffer = new SharedArrayBuffer(4);
    const swapper = new Worker(
      `const fs = require('node:fs');
       const { workerData: w } = require('node:worker_threads');
       const flag = new Int32Array(w.stop);
       let i = 0;
       while (Atomics.load(flag, 0) === 0) {
         const tmp = w.file + '.' + (i++ % 2 ? 'l' : 'f');
         try { fs.rmSync(tmp, { force: true }); } catch {}
         try {
           if (i % 2) fs.symlinkSync(w.secret, tmp); else fs.writeFileSync(tmp, 'inside\\n');
           fs.renameSync(tmp, w.file);
         } catch {}
       }`,
      { eval: true, workerData: { file: inside, secret: ws.secret, stop: stopBuffer } },
    );
    const stop = new Int32Array(stopBuffer);
    const seen = new Map<string, number>();
    try {
      for (let i = 0; i < 300; i++) {
        const answer = await answerOf(engine, { path: 'swap.txt', limit: 1 + (i % 7) }, 5000);
        expectNoLeak(answer.ok ? answer.result : answer.error);
        const what = answer.ok ? (answer.result.kind === 'text' ? answer.result.content : answer.result.kind) : answer.error.code;
        seen.set(what, (seen.get(what) ?? 0) + 1);
      }
    } finally {
      Atomics.store(stop, 0, 1);
      await swapper.terminate();
    }
    // Every answer is the inside content or a refusal that names the race or the link.
    for (const what of seen.keys()) expect(['1\tinside', 'outside_root', 'changed_during_read', 'not_found']).toContain(what);
    // Both sides of the race were met: the swapper really ran while the engine read.
    expect(seen.get('outside_root') ?? 0).toBeGreaterThan(0);
    expect(seen.get('1\tinside') ?? 0).toBeGreaterThan(0);
    await expectServing(engine);
  });

  it('a cached file replaced by a link out is refused, never served from the cache: cached.txt -> outside_root', async () => {
    writeFile(ws.root, 'cached.txt', 'cached\n');
    const cachedEngine = await createEngine({ root: ws.root, threads: 1, settleMs: 0 });
    try {
      await check(cachedEngine, { path: 'cached.txt' }, textIs('1\tcached'));
      fs.rmSync(path.join(ws.root, 'cached.txt'));
      link(ws.secret, 'cached.txt');
      await check(cachedEngine, { path: 'cached.txt' }, 'outside_root');
    } finally {
      await cachedEngine.close();
    }
  });

  it('a cached directory moved out of the root and linked back is refused: moved/inner.txt -> outside_root', async () => {
    writeFile(ws.root, 'moved/inner.txt', 'moved\n');
    const cachedEngine = await createEngine({ root: ws.root, threads: 1, settleMs: 0 });
    try {
      await check(cachedEngine, { path: 'moved/inner.txt' }, textIs('1\tmoved'));
      fs.renameSync(path.join(ws.root, 'moved'), path.join(ws.base, 'moved-out'));
      link(path.join(ws.base, 'moved-out'), 'moved');
      await check(cachedEngine, { path: 'moved/inner.txt' }, 'outside_root');
    } finally {
      await cachedEngine.close();
    }
  });
});
