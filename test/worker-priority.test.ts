/**
 * `workerNice`: the pool's threads run at a lower priority than the host, and the host keeps its
 * own. Read from /proc, where Linux keeps a nice value per thread (the workers set their own;
 * see src/io/thread-priority.ts).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { makeTempDir, removeTempDir, writeFile } from './support/temp-dir.js';

/** The nice value of each of this process's threads, by thread id. */
function threadNices(): Map<number, number> {
  const nices = new Map<number, number>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    // Fields after the command name, which may hold spaces: state is field 3, nice field 19.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    nices.set(Number(tid), Number(fields[19 - 3]));
  }
  return nices;
}

describe.runIf(process.platform === 'linux')('worker priority', () => {
  let root = '';
  beforeAll(() => {
    root = makeTempDir();
    writeFile(root, 'a.txt', 'one\n');
  });
  afterAll(() => removeTempDir(root));

  it('runs each text worker thread workerNice below the host, and leaves the host thread as it was', async () => {
    const before = threadNices();
    const hostNice = before.get(process.pid);
    expect(hostNice).toBeTypeOf('number');
    const engine = await createEngine({ root, threads: 2, workerNice: 7 });
    try {
      await engine.read({ path: 'a.txt' });
      const wanted = Math.min(19, (hostNice ?? 0) + 7);
      const lowered = () => [...threadNices()].filter(([tid, nice]) => !before.has(tid) && nice === wanted);
      // Both workers were started by createEngine; the second may still be booting after one read.
      const deadline = Date.now() + 5000;
      while (lowered().length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(lowered()).toHaveLength(2);
      const after = threadNices();
      expect(after.get(process.pid)).toBe(hostNice);
      // No thread that was here before the engine (the host's own, V8's, libuv's) was lowered.
      for (const [tid, nice] of before) if (after.has(tid)) expect(after.get(tid), `thread ${tid}`).toBe(nice);
    } finally {
      await engine.close();
    }
  });
});
