import fs from 'node:fs';
import path from 'node:path';
import { createEngine } from '../../src/index.js';
import { prepareSourceTree, warmPageCache } from '../corpus.js';
import { naiveRead } from '../naive-reader.js';
import type { ScenarioReport } from '../report.js';
import { median, percentile } from '../stats.js';

const FILES = 500;
const SESSION = 'agent-reread';

/** Per-read latencies, in milliseconds, of reading `files` one after another. */
async function timeEach(files: readonly string[], read: (file: string) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (const file of files) {
    const started = performance.now();
    await read(file);
    times.push(performance.now() - started);
  }
  return times;
}

/**
 * One session reads 500 source files, then reads them all again: unchanged, each re-read is
 * answered with the `unchanged` stub (one stat, no content). Then every file is touched (new
 * mtime and ctime, same bytes) and re-read: the version moved, so a worker reads and hashes
 * the file, finds the content the session holds, and answers the stub again. The naive reader
 * reads the full content every time.
 */
export async function reread(projectRoot: string): Promise<ScenarioReport> {
  const tree = prepareSourceTree(projectRoot, path.join(projectRoot, 'bench/.corpus/source-tree'), 2500);
  const files = tree.files.slice(0, FILES);
  warmPageCache(tree.root, tree.files);
  const engine = await createEngine({ root: tree.root });
  let notStub = 0;
  // Only reads that showed every line asked for, uncut, earn stubs: minified files with lines
  // over the 2000-character cap do not, by design. Those are counted, not expected to stub.
  const incomplete = new Set<string>();
  const read = (file: string) => engine.read({ path: file, session: SESSION });
  const firstMs = await timeEach(files, async (file) => {
    const result = await read(file);
    const complete = result.kind !== 'text' || (result.cutLines === 0 && (result.truncated === false || result.truncated.reason === 'lines'));
    if (!complete) incomplete.add(file);
  });
  const expectStub = async (file: string) => {
    const stub = (await read(file)).kind === 'unchanged';
    if (stub === incomplete.has(file)) notStub++;
  };
  const stubMs = await timeEach(files, expectStub);
  const now = new Date();
  for (const file of files) fs.utimesSync(path.join(tree.root, file), now, now);
  const touchedMs = await timeEach(files, expectStub);
  const stats = engine.stats();
  await engine.close();
  const naiveMs = await timeEach(files, (file) => naiveRead(path.join(tree.root, file)));
  // Leave the touched files settled for whatever scenario runs next.
  await new Promise((resolve) => setTimeout(resolve, 1100));

  const stubMedian = median(stubMs);
  const naiveMedian = median(naiveMs);
  return {
    scenario: 're-read',
    description: `one session re-reading ${FILES} unchanged files (stub path), then again after touching them, vs the naive reader`,
    measurements: [
      { label: 'engine first read', metrics: { medianMs: median(firstMs), p99Ms: percentile(firstMs, 99) } },
      { label: 'engine re-read, unchanged (stub)', metrics: { medianMs: stubMedian, p99Ms: percentile(stubMs, 99) } },
      { label: 'engine re-read after touch (stub by hash)', metrics: { medianMs: median(touchedMs), p99Ms: percentile(touchedMs, 99) } },
      { label: 'naive fs.promises reader', metrics: { medianMs: naiveMedian, p99Ms: percentile(naiveMs, 99) } },
      { label: 'engine detail', metrics: { stubHits: stats.cache.stub.hits, filesReadIncomplete: incomplete.size } },
    ],
    targets: [
      { name: 'stub re-read median (ms)', value: stubMedian, goal: '< 0.2', met: stubMedian < 0.2 },
      { name: 'naive/stub median latency', value: naiveMedian / stubMedian, goal: 'reported', met: true },
      { name: 're-reads answered wrongly (stub for an incomplete read, or none for a complete one)', value: notStub, goal: '= 0', met: notStub === 0 },
    ],
  };
}
