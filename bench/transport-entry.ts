/**
 * The stand-in batch handler of `bench/transport.ts`: answers every job of a batch as the text
 * worker answers a whole-file read of a typical source file (a 7 KB rendering and the file's
 * facts), then the batch's milliseconds, without reading anything. What is left is what a pool
 * task costs to send, answer and decode.
 */
import type { JobBatch, WireOutcome } from '../src/wire.js';

const CONTENT_CHARS = 7000;
const body = 'x'.repeat(CONTENT_CHARS - 64);

function outcome(path: string, i: number): WireOutcome {
  // A fresh string per job, as a rendering is, so that nothing is shared between answers.
  const content = `${body}${path}:${i}`;
  return [0, null, `src/file-${i}.ts`, CONTENT_CHARS, 1_700_000_000_000, `2049:${i}:${CONTENT_CHARS}:1700000000000:1700000000000`, '0123456789abcdef', content, 1, 141, 141, 0, 0, 0, false, 0, null, null, null, null, true, false];
}

export default function answer(batch: JobBatch): (WireOutcome | number)[] {
  const answers: (WireOutcome | number)[] = batch.paths.map(outcome);
  answers.push(0);
  return answers;
}
