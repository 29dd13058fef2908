/**
 * Run with --expose-gc: slices a long window (so its content is kept as pieces) 60 times,
 * drops each result, runs two young collections, and prints how much the old generation grew
 * (the least of three tries) and how many bytes the windows' content held, as JSON. A young collection should find every
 * dropped window dead; pieces kept alive by it are copied to the old generation instead.
 */
import v8 from 'node:v8';

const [sliceModule, renderModule] = process.argv.slice(2);
const { LineSlicer } = await import(sliceModule);
const { RENDER } = await import(renderModule);

const gc = globalThis.gc;
if (typeof gc !== 'function') throw new Error('run with --expose-gc');
const oldSpace = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')?.space_used_size ?? 0;
const text = Buffer.from(Array.from({ length: 3000 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n'));
const limits = { offset: 1, limit: 3000, maxBytes: 1024 * 1024, maxTokens: 1024 * 1024, maxLineChars: 2000 };

const sliceAll = () => {
  let bytes = 0;
  for (let i = 0; i < 60; i++) {
    const slicer = new LineSlicer(limits, RENDER);
    slicer.push(text);
    bytes += slicer.end().content.length;
  }
  return bytes;
};
// As in a worker that has read for a while: whatever the slicer keeps module-wide is old by now.
sliceAll();
// Three tries, the least growth kept: a young collection in the middle of a try may also find
// the window being made alive (as it is), and copy it.
let grown = Infinity;
let contentBytes = 0;
for (let round = 0; round < 3; round++) {
  gc();
  gc();
  const before = oldSpace();
  contentBytes = sliceAll();
  gc({ type: 'minor' });
  gc({ type: 'minor' });
  grown = Math.min(grown, oldSpace() - before);
}
process.stdout.write(JSON.stringify({ grown, contentBytes }));
