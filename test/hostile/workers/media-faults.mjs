// The built media worker, with faults on cue by file name: a name holding "kill-during-render"
// ends the worker thread in the middle of its render; "heap-bomb" allocates until the worker's
// heap limit stops it. Every other job runs as the built worker runs it.
import { default as runMedia } from '../../../dist/workers/media-worker.js';

export default async function faulty(job) {
  if (job.path.includes('kill-during-render')) {
    // Start the real render, then end the thread while it runs.
    const render = runMedia(job);
    await new Promise((resolve) => setTimeout(resolve, 20));
    process.exit(3);
    return render;
  }
  if (job.path.includes('heap-bomb')) {
    const hoard = [];
    for (;;) hoard.push(new Array(1_000_000).fill(hoard.length));
  }
  return runMedia(job);
}
