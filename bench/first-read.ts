/**
 * One measured start in a process of its own: from `createEngine` to the first answered read of
 * `FILE` under `ROOT`, and how long the import took. Prints one JSON line.
 *
 *   node dist/bench/first-read.js ROOT FILE
 */
const importStarted = performance.now();
const { createEngine } = await import('../src/index.js');
const importMs = performance.now() - importStarted;
const [root = '.', file = 'README.md'] = process.argv.slice(2);
const started = performance.now();
const engine = await createEngine({ root });
const createdMs = performance.now() - started;
const result = await engine.read({ path: file });
const firstReadMs = performance.now() - started;
await engine.close();
process.stdout.write(`${JSON.stringify({ importMs, createdMs, firstReadMs, kind: result.kind })}\n`);
