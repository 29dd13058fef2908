import type { RenderSpec } from './line-format.js';
import type { LineFeedFinder } from './line-feeds.js';
import { LineSlicer } from './line-slicer.js';

/**
 * Texts that take the slicer down each of its ways once: an ASCII region, a UTF-8 one with 2, 3
 * and 4-byte characters, CR LF and lone CR breaks, lines skipped before the window, a line too
 * long to show whole, a budget met, no final break.
 */
function samplesOf(maxLineChars: number): string[] {
  const long = 'x'.repeat(Math.min(maxLineChars, 4096) + 1);
  return ['ascii lines\nof text\n', 'utf-8: é ‰ 😀\nand more\n', 'crlf\r\nlines\r\nand a lone\rcr', `${long}\nshort\n`, 'no final break'];
}

const PRIMING_ROUNDS = 4;

/**
 * Slices a few small texts in a fresh worker, before its first read: the slicing code then has
 * type feedback for every kind of region and break. Without it, the first UTF-8 region, CR LF
 * or cut line to come after V8 optimized that code for plain ASCII threw the optimized code
 * away, and each thread compiled its slicing functions again and again during a fresh engine's
 * first pass (measured on 2 threads: `emitRegion` compiled 8 times, 180 ms of compiler time in
 * all; regions are now rendered in WebAssembly, and the priming also instantiates the thread's
 * renderer). Takes about 8 ms in a cold isolate, most of it compiling code that the first read would
 * compile anyway, and 2 ms run again. `scratch` is the thread's read buffer, which `feeds`
 * counts fastest; what it held is overwritten.
 */
export function primeSlicing(render: RenderSpec, maxLineChars: number, scratch: Buffer, feeds: LineFeedFinder): void {
  // Several rounds: V8 keeps no feedback for a function until it has run a few times.
  for (let round = 0; round < PRIMING_ROUNDS; round++) for (const sample of samplesOf(maxLineChars)) {
    const length = scratch.write(sample, 0, 'utf8');
    const chunk = scratch.subarray(0, length);
    for (const [offset, maxBytes] of [
      [1, 1 << 20],
      [2, 1 << 20],
      [1, 24],
    ] as const) {
      const slicer = new LineSlicer({ offset, limit: 2000, maxBytes, maxTokens: maxBytes, maxLineChars }, render, { feeds, indexEvery: 1 });
      slicer.push(chunk, 0);
      slicer.end();
    }
  }
}
