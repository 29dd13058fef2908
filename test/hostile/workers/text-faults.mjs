// The built text worker, with faults on cue by file name: a batch holding a path with
// "exit-mid-task" ends the worker thread; "throws" makes the handler throw; "heap-bomb" allocates until the worker's heap limit
// stops it; "overrun" spins past every deadline. Other batches run as the built worker runs them.
import handler from '../../../dist/workers/text-worker.js';

// The built worker's default export is its handler, promised (it waits for xxhash's WebAssembly).
const runBatch = await handler;

export default function faulty(batch) {
  const paths = batch.paths.join('\n');
  if (paths.includes('exit-mid-task')) process.exit(3);
  if (paths.includes('throws')) throw new Error('handler failure injected by the hostile suite');
  if (paths.includes('heap-bomb')) {
    const hoard = [];
    for (;;) hoard.push(new Array(1_000_000).fill(hoard.length));
  }
  if (paths.includes('overrun')) {
    const until = Date.now() + 4000;
    while (Date.now() < until);
  }
  return runBatch(batch);
}
