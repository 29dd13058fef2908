// A text worker whose start-up fails while the file named by READPOOL_FAULT_STARTS holds a
// number above 0 (each failed start counts it down); then it runs the built worker.
// The count is replaced by a rename, never rewritten in place: workers of a pool and of its
// replacement start at once, and one reading the file while another truncated it would see no
// count and start cleanly.
import fs from 'node:fs';
import { threadId } from 'node:worker_threads';

const counter = process.env.READPOOL_FAULT_STARTS;
if (counter !== undefined) {
  const left = Number(fs.readFileSync(counter, 'utf8'));
  fs.appendFileSync(`${counter}.log`, 'start\n');
  if (left > 0) {
    const next = `${counter}.${process.pid}.${threadId}`;
    fs.writeFileSync(next, String(left - 1));
    fs.renameSync(next, counter);
    throw new Error('start-up failure injected by the hostile suite');
  }
}
// The built worker's promised handler, which the pool's thread awaits.
const { default: handler } = await import('../../../dist/workers/text-worker.js');
export default handler;
