import fs from 'node:fs';
import path from 'node:path';
import { createEngine, type Engine, type ReadRequest } from '../../src/index.js';
import { logLine, prepareLargeLog, prepareSingleLine } from '../corpus.js';
import type { ScenarioReport } from '../report.js';
import { collectGarbage, median } from '../stats.js';

const LINES = 2_000_000;
const TAIL_OFFSET = 1_999_000;
const SINGLE_LINE_BYTES = 5 * 1024 * 1024;
const WARM_UP = 'warm-up.txt';

/**
 * The `wc -l` of this run: the log's newlines counted in-process with `Buffer.indexOf` over
 * 1 MiB reads. No read of the whole file can do less, so the cold tail is reported against it.
 */
function countNewlines(file: string): number {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafeSlow(1 << 20);
    let count = 0;
    for (let position = 0; ; ) {
      const read = fs.readSync(fd, buffer, 0, buffer.length, position);
      if (read === 0) return count;
      const chunk = buffer.subarray(0, read);
      for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) count++;
      position += read;
    }
  } finally {
    fs.closeSync(fd);
  }
}

function timed<T>(action: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = action();
  return { value, ms: performance.now() - started };
}

async function timedAsync<T>(action: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await action();
  return { value, ms: performance.now() - started };
}

/**
 * A fresh engine whose workers have started (`ready()`; a small read alone would not wait for
 * them, the host's thread answering it), and have read a tiny file, so the figures that follow
 * are reads, not thread start-up (reported apart as `poolStartMs`).
 */
async function startedEngine(root: string): Promise<{ engine: Engine; poolStartMs: number }> {
  const engine = await createEngine({ root });
  const { ms } = await timedAsync(async () => {
    await engine.ready();
    return engine.read({ path: WARM_UP });
  });
  return { engine, poolStartMs: ms };
}

/** A read on an engine created just before it, so its time includes the workers' start-up. */
async function firstReadMs(root: string, request: ReadRequest): Promise<{ ms: number }> {
  const engine = await createEngine({ root });
  try {
    return await timedAsync(() => engine.read(request));
  } finally {
    await engine.close();
  }
}

/**
 * Reads far into a large file with nothing cached: the 200 MB log at line 1 999 000 (the whole
 * file must be scanned for the exact total, the hash and the line index), then the page after
 * it (a seek from that index); and a 5 MB file of one line, read with the default limits (one
 * line cut at 2000 characters). Each round has a fresh engine; the page cache is warm. The
 * targets time the reads; the same first reads on engines created just before them, start-up
 * included, are reported beside (`...WithStartUpMs`).
 */
export async function largeReads(projectRoot: string, rounds: number): Promise<ScenarioReport> {
  const dataDir = path.join(projectRoot, 'bench/.data');
  const log = prepareLargeLog(path.join(dataDir, 'large.log'), LINES);
  const single = prepareSingleLine(path.join(dataDir, 'single-line.min.js'), SINGLE_LINE_BYTES);
  fs.writeFileSync(path.join(dataDir, WARM_UP), 'warm\n');
  const singleLine = fs.readFileSync(single, 'utf8');
  const expectedFirst = `${TAIL_OFFSET}\t${logLine(TAIL_OFFSET)}`;

  const tailMs: number[] = [];
  const nextMs: number[] = [];
  const singleMs: number[] = [];
  const startMs: number[] = [];
  const countMs: number[] = [];
  const singleReadMs: number[] = [];
  const tailWithStartMs: number[] = [];
  const singleWithStartMs: number[] = [];
  const hashes = new Set<string>();
  let wrong = 0;
  for (let round = 0; round < Math.max(rounds, 10); round++) {
    collectGarbage();
    // The baselines of this round, which also keep both files in the page cache.
    const counted = timed(() => countNewlines(log));
    countMs.push(counted.ms);
    if (counted.value !== LINES) wrong++;
    singleReadMs.push(timed(() => fs.readFileSync(single)).ms);

    const { engine, poolStartMs } = await startedEngine(dataDir);
    startMs.push(poolStartMs);
    const tail = await timedAsync(() => engine.read({ path: 'large.log', offset: TAIL_OFFSET }));
    tailMs.push(tail.ms);
    const page = tail.value;
    if (page.kind !== 'text' || page.truncated === false || page.totalLines !== LINES || !page.content.startsWith(`${expectedFirst}\n`)) {
      wrong++;
      await engine.close();
      continue;
    }
    hashes.add(page.xxh64 ?? 'none');
    const nextOffset = page.truncated.nextOffset;
    const next = await timedAsync(() => engine.read({ path: 'large.log', offset: nextOffset }));
    nextMs.push(next.ms);
    const after = next.value;
    const lastLine = `${LINES}\t${logLine(LINES)}`;
    if (after.kind !== 'text' || after.startLine !== nextOffset || after.totalLines !== LINES || !after.content.endsWith(lastLine)) wrong++;

    const cut = await timedAsync(() => engine.read({ path: path.basename(single) }));
    singleMs.push(cut.ms);
    const shown = cut.value;
    // The shown piece is the line's first 2000 characters, then the cut marker.
    if (shown.kind !== 'text' || shown.cutLines !== 1 || !shown.content.startsWith(`1\t${singleLine.slice(0, 2000)} … [`)) wrong++;
    await engine.close();

    // The same first reads on engines just created: what a caller waits who reads at once.
    tailWithStartMs.push((await firstReadMs(dataDir, { path: 'large.log', offset: TAIL_OFFSET })).ms);
    singleWithStartMs.push((await firstReadMs(dataDir, { path: path.basename(single) })).ms);
  }
  // A fresh full read from line 1 hashes the same bytes: the tail's xxh64 must equal it.
  const { engine } = await startedEngine(dataDir);
  const whole = await engine.read({ path: 'large.log', offset: 1 });
  await engine.close();
  if (whole.kind !== 'text' || hashes.size !== 1 || !hashes.has(whole.xxh64 ?? 'none')) wrong++;

  const tail = median(tailMs);
  const next = median(nextMs);
  const oneLine = median(singleMs);
  const count = median(countMs);
  return {
    scenario: 'large-reads',
    description: `fresh engines (workers started) reading a ${LINES}-line, 200 MB log at line ${TAIL_OFFSET} and the page after, and a 5 MB one-line file; baselines from the same run`,
    measurements: [
      { label: 'tail at line 1 999 000', metrics: { coldMs: tail, nextPageMs: next, rounds: tailMs.length, coldWithStartUpMs: median(tailWithStartMs) } },
      { label: '5 MB single line, default read', metrics: { ms: oneLine, withStartUpMs: median(singleWithStartMs) } },
      { label: 'engine start (first tiny read)', metrics: { poolStartMs: median(startMs) } },
      { label: 'in-process newline count (wc -l)', metrics: { ms: count, coldTailRatio: tail / count } },
      { label: 'readFileSync of the 5 MB file', metrics: { ms: median(singleReadMs) } },
    ],
    targets: [
      { name: 'tail at line 1 999 000, cold (ms)', value: tail, goal: '<= 150', met: tail <= 150 },
      { name: 'tail next page (ms)', value: next, goal: '<= 3', met: next <= 3 },
      { name: '5 MB single-line file, default read (ms)', value: oneLine, goal: '<= 30', met: oneLine <= 30 },
      { name: 'reads with wrong lines, totals or hashes', value: wrong, goal: '= 0', met: wrong === 0 },
    ],
  };
}
