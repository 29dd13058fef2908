// A text worker whose start-up fails while the file named by READPOOL_FAULT_STARTS holds a
// number above 0 (each failed start counts it down); then it runs the built worker.
import fs from 'node:fs';

const counter = process.env.READPOOL_FAULT_STARTS;
if (counter !== undefined) {
  const left = Number(fs.readFileSync(counter, 'utf8'));
  fs.appendFileSync(`${counter}.log`, 'start\n');
  if (left > 0) {
    fs.writeFileSync(counter, String(left - 1));
    throw new Error('start-up failure injected by the hostile suite');
  }
}
const { default: runBatch } = await import('../../../dist/workers/text-worker.js');
export default runBatch;
