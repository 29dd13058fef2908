// A text pool entry for the split scan's pool tests (test/split-scan.test.ts): a real worker
// cannot be made to lose its thread at a chosen moment, so this one answers a split's halves by
// their flags and exits on cue. A read half (flag 16) answers text of version "v1" without a
// hash; a hash-only job (flag 32) answers the hash of "v1", or, for a path holding "hash-dies",
// exits its thread after 300 ms; any other job answers text with its own hash. A path holding
// "busy" takes 1 s. Each text names the thread that read it.
import { threadId } from 'node:worker_threads';

const HASH_ELSEWHERE = 16;
const HASH_ONLY = 32;

function spin(ms) {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

function text(xxh64, what) {
  return [0, null, 'big.log', 9 << 20, 1, 'v1', xxh64, `${what} on ${threadId}`, 1, 1, 10, 0, 0, 0, false, 0, null, null, null, null, true];
}

export default function splitHalves(batch) {
  const [path = ''] = batch.paths;
  const flags = batch.params[4] ?? 0;
  if (path.includes('busy')) spin(1000);
  if (flags & HASH_ONLY) {
    if (path.includes('hash-dies')) {
      spin(300);
      process.exit(7);
    }
    return [[4, 'v1', 'feedface00000001'], 1];
  }
  if (flags & HASH_ELSEWHERE) return [text(null, 'read half'), 1];
  return [text('00000000000000aa', path.includes('busy') ? 'busy' : 'whole'), 1];
}
