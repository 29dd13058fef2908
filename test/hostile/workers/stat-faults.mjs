// Stand-ins for the stat thread (src/stat-lane.ts), chosen by READPOOL_FAULT_STAT: "silent" takes
// batches and never answers (a thread stuck in a system call on a hung mount); "crash" throws on
// its first batch, which ends the thread; "boot" fails as it starts; "slow" answers as the built
// thread does, but takes READPOOL_FAULT_STAT_MS for each stat (a slow, healthy file system);
// "hang" answers as the built thread does until it stats a path ending in "hang.txt", where it
// stays (a file on a mount that just hung).
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { statFile } from '../../../dist/src/io/probe.js';
import { SENT, serveStats } from '../../../dist/src/io/stat-wire.js';

const mode = process.env.READPOOL_FAULT_STAT;
const statMs = Number(process.env.READPOOL_FAULT_STAT_MS ?? 0);
if (mode === 'boot') throw new Error('the stat thread failed to start');
const never = new Int32Array(new SharedArrayBuffer(4));
if (mode === 'slow' || mode === 'hang') {
  serveStats(workerData, parentPort, receiveMessageOnPort, (path) => {
    if (mode === 'hang' && path.endsWith('hang.txt')) Atomics.wait(never, 0, 0);
    Atomics.wait(never, 0, 0, statMs);
    return statFile(path);
  });
}
// Wait for the first batch.
Atomics.wait(workerData.control, SENT, 0);
if (mode === 'crash') throw new Error('the stat thread failed');
// silent: the batch is never answered.
Atomics.wait(never, 0, 0);
