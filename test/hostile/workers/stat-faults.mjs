// Stand-ins for the stat thread (src/stat-lane.ts), chosen by READPOOL_FAULT_STAT: "silent" takes
// batches and never answers (a thread stuck in a system call on a hung mount); "crash" throws on
// its first batch, which ends the thread; "boot" fails as it starts; "slow" answers as the built
// thread does, but takes READPOOL_FAULT_STAT_MS for each stat (a slow, healthy file system).
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';

const mode = process.env.READPOOL_FAULT_STAT;
const statMs = Number(process.env.READPOOL_FAULT_STAT_MS ?? 0);
if (mode === 'boot') throw new Error('the stat thread failed to start');
const paths = [];
const pause = new Int32Array(new SharedArrayBuffer(4));
parentPort.on('message', ({ id, reset, added, numbers }) => {
  if (mode === 'crash') throw new Error('the stat thread failed');
  if (mode !== 'slow') return; // silent: the batch is never answered.
  if (reset) paths.length = 0;
  paths.push(...added);
  const stats = new Float64Array(numbers.length * 6);
  numbers.forEach((number, i) => {
    Atomics.wait(pause, 0, 0, statMs);
    const stat = fs.statSync(paths[number], { throwIfNoEntry: false });
    if (stat?.isFile() !== true) return;
    stats.set([1, stat.dev, stat.ino, stat.size, stat.mtimeMs, stat.ctimeMs], i * 6);
  });
  parentPort.postMessage({ id, stats }, [stats.buffer]);
});
