// Stand-ins for the stat thread (src/stat-lane.ts), chosen by READPOOL_FAULT_STAT: "silent" takes
// batches and never answers (a thread stuck in a system call on a hung mount); "crash" throws on
// its first batch, which ends the thread; "boot" fails as it starts.
import { parentPort } from 'node:worker_threads';

const mode = process.env.READPOOL_FAULT_STAT;
if (mode === 'boot') throw new Error('the stat thread failed to start');
parentPort.on('message', () => {
  if (mode === 'crash') throw new Error('the stat thread failed');
  // silent: the batch is never answered.
});
