/**
 * A whole scan of a large file split over two idle threads (src/scan-split.ts, `splitScan` in
 * src/wire.ts): the read on one thread, without the xxh64, and a hash-only job on the other. End
 * to end on real engines, threads and files; the worker's two halves on real files; then the
 * join's rules for halves that do not agree, on the tasks themselves.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import xxhash, { type XXHashAPI } from 'xxhash-wasm';
import { compileDenyRules } from '../src/core/deny-rules.js';
import { createEngine, type Engine } from '../src/index.js';
import { createReadTools, hashFile, readFile } from '../src/io/read-file.js';
import { createReaderContext } from '../src/io/reader-context.js';
import { probeTask, splitTask } from '../src/scan-split.js';
import { createTextPool } from '../src/text-pool.js';
import type { Task } from '../src/text-thread.js';
import { substituteWorkerEntry } from '../src/worker-files.js';
import { decodeJob, encodeBatch, SOLO_READ_BYTES, SPLIT_SCAN_BYTES, type JobOutcome, type JobSpec, type PoolAnswers, type SeekHint, type TextPayload, type WorkerConfig } from '../src/wire.js';
import { writeGeneratedLines } from './support/generated-file.js';
import { makeTempDir, removeTempDir } from './support/temp-dir.js';
import { textJob } from './support/text-job.js';

/** 100 bytes a line with its break: 100 000 lines make a 10 MB file, past `SPLIT_SCAN_BYTES`. */
const LINES = 100_000;
const logLine = (n: number) => `${String(n).padStart(7, '0')} INFO served /api/items/${n % 613}`.padEnd(99, '.');

let root = '';
let hasher: XXHashAPI;
const xxh64Of = (file: string) => hasher.h64Raw(fs.readFileSync(path.join(root, file))).toString(16).padStart(16, '0');

beforeAll(async () => {
  root = fs.realpathSync(makeTempDir());
  writeGeneratedLines(path.join(root, 'big.log'), LINES, logLine);
  writeGeneratedLines(path.join(root, 'other.log'), LINES, (n) => logLine(LINES - n));
  hasher = await xxhash();
  expect(fs.statSync(path.join(root, 'big.log')).size).toBeGreaterThanOrEqual(SPLIT_SCAN_BYTES);
});
afterAll(() => removeTempDir(root));

describe('a whole scan of a large file', () => {
  it('is split over two threads while a third is idle, and answers what one thread answers', async () => {
    const engines: Engine[] = [];
    try {
      const three = await createEngine({ root, threads: 3, settleMs: 0 });
      const two = await createEngine({ root, threads: 2, settleMs: 0 });
      const one = await createEngine({ root, threads: 1, settleMs: 0 });
      engines.push(three, two, one);
      await one.ready();
      await vi.waitFor(() => expect([three.stats().text.ready, two.stats().text.ready]).toEqual([3, 2]), { timeout: 10_000 });

      // A first read: the host has not statted the file, so the scan comes back sized first.
      const request = { path: 'big.log', offset: 40_000, limit: 50 };
      const split = await three.read(request);
      const whole = await one.read(request);
      expect(three.stats().text.splitScans).toBe(1);
      expect(one.stats().text.splitScans).toBe(0);
      // Two threads are never both taken by a split: a read arriving meanwhile finds one idle.
      expect(await two.read(request)).toEqual(whole);
      expect(two.stats().text.splitScans).toBe(0);
      expect(split).toEqual(whole);
      expect(split).toMatchObject({ kind: 'text', startLine: 40_000, endLine: 40_049, totalLines: LINES, xxh64: xxh64Of('big.log') });

      // The page after is a seek on the line index the scan left (read ahead as the first page was
      // answered): nothing is scanned whole, nothing split.
      expect(await three.read({ path: 'big.log', offset: 40_050, limit: 50 })).toMatchObject({ startLine: 40_050, xxh64: split.xxh64 });
      expect(three.stats().cache.readAhead.pages).toBeGreaterThan(0);
      // Nor is a tail read (it reads back from the end), or a scan that computes a SHA-256 too.
      const tail = await three.read({ path: 'other.log', offset: -3 });
      expect(tail).toMatchObject({ kind: 'text', content: `-3\t${logLine(2)}\n-2\t${logLine(1)}\n-1\t${logLine(0)}` });
      const sha = await three.read({ path: 'other.log', limit: 1, hash: 'sha256' });
      expect(sha).toMatchObject({ kind: 'text', totalLines: LINES, xxh64: xxh64Of('other.log') });
      expect(three.stats().text.splitScans).toBe(1);
    } finally {
      await Promise.all(engines.map((engine) => engine.close()));
    }
  });
});

describe('a split scan on a real engine', () => {
  it('never changes what a first read answers: not refused for its size when another read is queued, not closed while it runs', async () => {
    // Before the read comes back sized to be split, the scheduler has counted it as unsized
    // (no bytes): the size never reaches its admission, whose bound here is under two files.
    const queued = await createEngine({ root, threads: 3, settleMs: 0, maxQueuedBytes: 16 * 1024 * 1024 });
    try {
      await vi.waitFor(() => expect(queued.stats().text.ready).toBe(3), { timeout: 10_000 });
      const first = queued.read({ path: 'big.log', limit: 2 });
      await new Promise((resolve) => setTimeout(resolve, 3));
      const second = queued.read({ path: 'other.log', limit: 2 });
      expect(await first).toMatchObject({ kind: 'text', totalLines: LINES, xxh64: xxh64Of('big.log') });
      expect(await second).toMatchObject({ kind: 'text', totalLines: LINES, xxh64: xxh64Of('other.log') });
    } finally {
      await queued.close();
    }
    // An engine closed while a first read runs lets it finish, as it did before there were splits.
    const closing = await createEngine({ root, threads: 3, settleMs: 0 });
    await vi.waitFor(() => expect(closing.stats().text.ready).toBe(3), { timeout: 10_000 });
    const read = closing.read({ path: 'big.log', limit: 2 });
    await new Promise((resolve) => setTimeout(resolve, 2));
    await closing.close();
    expect(await read).toMatchObject({ kind: 'text', totalLines: LINES });
  });

  it('lets the read hash a version changed less than settleMs ago itself, with the same answer', async () => {
    const engines: Engine[] = [];
    try {
      // The files were written moments ago: with a minute to settle, no version here has.
      const wary = await createEngine({ root, threads: 3, settleMs: 60_000 });
      const one = await createEngine({ root, threads: 1, settleMs: 60_000 });
      engines.push(wary, one);
      await one.ready();
      await vi.waitFor(() => expect(wary.stats().text.ready).toBe(3), { timeout: 10_000 });
      const request = { path: 'other.log', offset: 70_000, limit: 5 };
      const split = await wary.read(request);
      expect(wary.stats().text.splitScans).toBe(1);
      expect(split).toEqual(await one.read(request));
      expect(split).toMatchObject({ totalLines: LINES, xxh64: xxh64Of('other.log') });
    } finally {
      await Promise.all(engines.map((engine) => engine.close()));
    }
  });
});

describe('a split scan in the text pool', () => {
  it("answers on a live thread when its hash thread exits while the read's thread is busy", async () => {
    substituteWorkerEntry('text-worker', fileURLToPath(new URL('./support/split-halves.mjs', import.meta.url)));
    const pool = createTextPool({} as WorkerConfig, { threads: 3, nice: 0, heapMb: null });
    try {
      await vi.waitFor(() => expect(pool.readyThreads).toBe(3), { timeout: 10_000 });
      const job = (file: string): JobSpec => ({
        path: file, offset: 1, limit: 10, column: 0, maxBytes: 1000, maxTokens: 1000, allowBinary: false, sha256: false,
        deadline: Date.now() + 60_000, render: null, hint: null,
      });
      const split = pool.run(encodeBatch([{ spec: job('/r/hash-dies.log'), slot: 0, defer: false, size: 9 << 20 }]));
      expect(pool.splitScans).toBe(1);
      // The read half has answered; its thread takes a long batch before the hash thread exits.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const busy = pool.run(encodeBatch([{ spec: job('/r/busy.log'), slot: 1, defer: false, size: 100 }]));
      // Run again whole, on the idle third thread (or the busy one once free, or the dead one's
      // replacement), never on the thread that exited, which is listed before the third.
      const [answer] = await split;
      expect(answer).toMatchObject({ ok: true, value: { xxh64: '00000000000000aa' } });
      expect(answer !== undefined && 'ok' in answer && answer.ok && answer.value.kind === 'text' && answer.value.content).toMatch(/^whole on \d+$/);
      await busy;
    } finally {
      await pool.destroy();
      substituteWorkerEntry('text-worker', null);
    }
  });
});

describe("a split scan's two halves in the worker", () => {
  it('read without the xxh64, and hash the same version to the xxh64 a whole read gives', async () => {
    const context = createReaderContext({ roots: [root], deny: compileDenyRules({ denySecrets: true, deny: [] }), maxFileBytes: 1 << 30, maxBinaryBytes: 1 << 20 });
    const tools = createReadTools(await xxhash());
    const file = path.join(root, 'big.log');
    const inline = readFile(context, tools, textJob(file), () => null);
    const read = readFile(context, tools, { ...textJob(file), hash: 'elsewhere' }, () => null);
    const hashed = hashFile(context, tools, { ...textJob(file), hash: 'only' }, () => null);
    expect(inline.xxh64).toBe(xxh64Of('big.log'));
    expect(read).toEqual({ ...inline, xxh64: null });
    expect(hashed).toEqual({ version: inline.version, xxh64: inline.xxh64 });
    // The hash job polls cancellation between its reads, as a read does.
    expect(() => hashFile(context, tools, { ...textJob(file), hash: 'only' }, () => 'aborted')).toThrow(expect.objectContaining({ code: 'aborted' }));
    // A version changed less than `settleMs` before the read opened it is hashed by the read.
    expect(readFile(context, tools, { ...textJob(file), hash: 'elsewhere', settleMs: 60_000 }, () => null)).toEqual(inline);
    // It stops at a binary file's first chunk: the read answers that file without a hash of its own.
    const binary = path.join(root, 'image.raw');
    fs.writeFileSync(binary, Buffer.concat([Buffer.from('RAW\0'), Buffer.alloc(SPLIT_SCAN_BYTES, 7)]));
    expect(() => hashFile(context, tools, { ...textJob(binary), hash: 'only' }, () => null)).toThrow(expect.objectContaining({ code: 'binary_file' }));
  });
});

/** A large read's task as the text pool holds it, recording how it settled. */
function largeTask(spec: Partial<JobSpec> = {}, size = SPLIT_SCAN_BYTES): { task: Task; settled: unknown[] } {
  const settled: unknown[] = [];
  const job: JobSpec = {
    path: '/r/big.log', offset: 1, limit: 10, column: 0, maxBytes: 1000, maxTokens: 1000, allowBinary: false, sha256: false,
    deadline: Date.now() + 10_000, render: null, hint: null, ...spec,
  };
  const batch = encodeBatch([{ spec: job, slot: 3, defer: false, size }]);
  const task: Task = {
    batch,
    started: undefined,
    resolve: (answers) => settled.push(answers),
    reject: (error) => settled.push(error),
  };
  return { task, settled };
}

/** A read's answer for the split task: text of `version`, its xxh64 left to the other half. */
function readAnswer(version: string, xxh64: string | null = null): PoolAnswers {
  const value = { kind: 'text', path: '/r/big.log', relativePath: 'big.log', size: SPLIT_SCAN_BYTES, mtimeMs: 1, version, xxh64, content: '1\tx' } as unknown as TextPayload;
  const answers: PoolAnswers = [{ ok: true, value }];
  answers.workerMs = 5;
  return answers;
}
const hashWire = (version: string, xxh64: string) => [[4, version, xxh64], 4];

describe('a split scan', () => {
  it('settles with the read and the hash joined, whichever half answers first', () => {
    for (const hashFirst of [false, true]) {
      const { task, settled } = largeTask();
      const again: Task[] = [];
      const split = splitTask(task, (whole) => again.push(whole));
      if (split === null) throw new Error('expected a split');
      // The halves carry the flags the worker reads them by, the rest of the job unchanged.
      const config = { render: { format: { numbered: false }, cutMarker: '' }, maxLineChars: 2000 } as unknown as WorkerConfig;
      expect(decodeJob(split.read.batch, 0, config)).toEqual({ ...decodeJob(task.batch, 0, config), hash: 'elsewhere' });
      expect(decodeJob(split.hash.batch, 0, config)).toEqual({ ...decodeJob(task.batch, 0, config), hash: 'only' });
      if (hashFirst) split.hash.answered?.(hashWire('1:2:3', 'feedface00000001'));
      else split.read.resolve(readAnswer('1:2:3'));
      expect(settled).toEqual([]);
      if (hashFirst) split.read.resolve(readAnswer('1:2:3'));
      else split.hash.answered?.(hashWire('1:2:3', 'feedface00000001'));
      expect(settled).toEqual([readAnswer('1:2:3', 'feedface00000001')]);
      expect(again).toEqual([]);
    }
  });

  it('runs again whole when the hash is of another version, or its job failed or lost its thread', () => {
    const endings: ((split: { read: Task; hash: Task }) => void)[] = [
      (split) => split.hash.answered?.(hashWire('1:2:4', 'feedface00000001')),
      (split) => split.hash.answered?.([[2, 'changed_during_read', {}], 4]),
      (split) => split.hash.reject(new Error('the thread exited')),
    ];
    for (const end of endings) {
      const { task, settled } = largeTask();
      const again: Task[] = [];
      const split = splitTask(task, (whole) => again.push(whole));
      if (split === null) throw new Error('expected a split');
      split.read.resolve(readAnswer('1:2:3'));
      end(split);
      expect(settled).toEqual([]);
      expect(again).toHaveLength(1);
      const [whole] = again as [Task];
      expect(whole).toMatchObject({ batch: task.batch, unsplit: true });
      // Run again whole, it is not split a second time.
      expect(splitTask(whole, () => undefined)).toBeNull();
      // Its answer reaches the caller.
      whole.resolve(readAnswer('1:2:4', 'feedface00000002'));
      expect(settled).toEqual([readAnswer('1:2:4', 'feedface00000002')]);
    }
  });

  it('settles with a read that needs no hash as it came, and fails with a read that lost its thread, once the hash job has answered too', () => {
    // The hash job polls the read's cancel slot: the task, which holds the slot, settles only
    // once both halves are done.
    const failed: JobOutcome = { ok: false, code: 'timeout', details: { bytesRead: 1 } };
    const hashedItself = readAnswer('1:2:3', 'feedface00000009');
    for (const answer of [Object.assign([failed], { workerMs: 1 }), hashedItself]) {
      const { task, settled } = largeTask();
      const split = splitTask(task, () => undefined);
      split?.read.resolve(answer);
      expect(settled).toEqual([]);
      split?.hash.answered?.(hashWire('1:2:3', 'feedface00000001'));
      expect(settled).toEqual([answer]);
    }

    const lost = largeTask();
    const lostSplit = splitTask(lost.task, () => undefined);
    const error = new Error('the thread exited');
    lostSplit?.read.reject(error);
    expect(lost.settled).toEqual([]);
    lostSplit?.hash.answered?.(hashWire('1:2:3', 'feedface00000001'));
    lostSplit?.hash.reject(error);
    expect(lost.settled).toEqual([error]);
  });

  it('is made only of one whole scan of a file known large; one the host did not stat is sent to come back sized', () => {
    const hint: SeekHint = { version: '1:2:3', offset: 500, line: 1, byte: 0, totalLines: 9, xxh64: '0', bom: false, finalBreak: true };
    const none = () => undefined;
    expect(splitTask(largeTask({}, SPLIT_SCAN_BYTES - 1).task, none)).toBeNull();
    expect(splitTask(largeTask({ offset: -20 }).task, none)).toBeNull();
    expect(splitTask(largeTask({ sha256: true }).task, none)).toBeNull();
    expect(splitTask(largeTask({ hint }).task, none)).toBeNull();
    expect(probeTask(largeTask().task, none)).toBeNull();
    expect(probeTask(largeTask({ offset: -20 }, -1).task, none)).toBeNull();

    const { task: unsized, settled } = largeTask({}, -1);
    expect(splitTask(unsized, none)).toBeNull();
    const again: Task[] = [];
    const probe = probeTask(unsized, (sized) => again.push(sized));
    if (probe === null) throw new Error('expected a probe');
    const config = { render: {}, maxLineChars: 2000 } as unknown as WorkerConfig;
    expect(decodeJob(probe.batch, 0, config).deferAbove).toBe(SOLO_READ_BYTES);
    // A file found that large comes back as its size, and goes again sized, to be split: the
    // scheduler never sees the size, so it neither admits nor refuses the read again.
    probe.resolve(Object.assign([{ resend: SPLIT_SCAN_BYTES + 5 }], { workerMs: 0 }));
    expect(settled).toEqual([]);
    expect(again).toHaveLength(1);
    const [sized] = again as [Task];
    expect(decodeJob(sized.batch, 0, config)).toEqual({ ...decodeJob(unsized.batch, 0, config), deferAbove: Infinity });
    expect(splitTask(sized, none)).not.toBeNull();
    // Any other answer is the read's.
    const small = largeTask({}, -1);
    probeTask(small.task, none)?.resolve(readAnswer('1:2:3', 'feedface00000003'));
    expect(small.settled).toEqual([readAnswer('1:2:3', 'feedface00000003')]);
  });
});
