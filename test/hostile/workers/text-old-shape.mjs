// The built text worker, answering as builds before the batch's worker time did: each job's
// outcome and nothing after it (a stale dist/ beside newer sources would answer so).
import handler from '../../../dist/workers/text-worker.js';

const runBatch = await handler;

export default function oldShape(batch) {
  const answer = runBatch(batch);
  answer.pop();
  return answer;
}
