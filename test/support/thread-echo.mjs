// A text pool entry for the pool's own tests: answers every job of a batch with an outcome that
// names the thread that ran it (kind 2, code 'internal', details { thread }), then the batch's
// milliseconds, as the text worker answers. A path holding "slow" makes the batch take 300 ms.
import { threadId } from 'node:worker_threads';

export default function echo(batch) {
  if (batch.paths.some((path) => path.includes('slow'))) {
    const until = Date.now() + 300;
    while (Date.now() < until);
  }
  const answer = batch.paths.map((path) => [2, 'internal', { thread: threadId, path }]);
  answer.push(0);
  return answer;
}
