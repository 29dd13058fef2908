/**
 * The swarm-scale layers over the real engine, real files and real workers: the version-keyed
 * result cache, single flight, unchanged-file stubs, the read ledger, the line index and tail
 * reads. Each test states what it proves through `engine.stats()` counters or the content.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine, type ReadRequest, type ReadResult, type TextResult } from '../src/index.js';
import { tailStart } from '../src/io/read-file.js';
import { writeGeneratedLines } from './support/generated-file.js';
import { expectReadError } from './support/read-error.js';
import { makeWorkspace, removeTempDir, writeFile } from './support/temp-dir.js';
import { asText } from './support/text-result.js';

let base = '';
let root = '';
let engine: Engine;

/** Line n of the indexed log: 40 bytes with its LF. */
const logLine = (n: number) => `log line ${String(n).padStart(9, '0')} ${'x'.repeat(20)}`;
const LOG_LINES = 200_000; // 8 MB: above the 1 MiB index threshold and the 4 MiB exact-tail one

function numbered(first: number, last: number, lineOf: (n: number) => string): string {
  const out: string[] = [];
  for (let n = first; n <= last; n++) out.push(`${n}\t${lineOf(n)}`);
  return out.join('\n');
}

/** A whole second, which `utimes` sets exactly, so a rewrite can hide behind the same mtime. */
const FIXED_TIME = 1_700_000_000;

const stats = () => engine.stats().cache;

/** Waits until `done()` holds; throws after ten seconds. */
async function settled(done: () => boolean): Promise<void> {
  for (const until = Date.now() + 10_000; !done(); ) {
    if (Date.now() > until) throw new Error('still not settled after 10 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

beforeAll(async () => {
  ({ base, root } = makeWorkspace());
  writeGeneratedLines(path.join(root, 'app.log'), LOG_LINES, logLine);
  // settleMs 0 trusts a version as soon as it is read: these tests write files moments before
  // reading them. The default (a file must be a second old) has its own test below.
  engine = await createEngine({ root, threads: 2, settleMs: 0 });
});

afterAll(async () => {
  await engine.close();
  removeTempDir(base);
});

describe('the result cache', () => {
  beforeEach(() => {
    writeFile(root, 'cached.txt', 'alpha\nbeta\n');
  });

  it('serves a repeated read from the cache, as the same content', async () => {
    const first = asText(await engine.read({ path: 'cached.txt' }));
    const hits = stats().result.hits;
    const again = asText(await engine.read({ path: 'cached.txt' }));
    expect(stats().result.hits).toBe(hits + 1);
    expect(again.content).toBe('1\talpha\n2\tbeta');
    expect(again).toEqual(first);
    expect(Object.isFrozen(again)).toBe(true);
  });

  it('hands out a text result as a plain object: the prototype, constructor and field order of a literal', async () => {
    const result = asText(await engine.read({ path: 'cached.txt' }));
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(result.constructor).toBe(Object);
    // Every field of the type, in the order results have always had: the type checker fails this
    // list when a field is added to TextResult and not here (results are built by a constructor,
    // which the checker cannot hold to the type field by field).
    const fields = {
      kind: true, path: true, relativePath: true, content: true, startLine: true, endLine: true, totalLines: true, finalBreak: true,
      truncated: true, notice: true, cutLines: true, firstCutLine: true, column: true, encoding: true, invalidUtf8: true, bom: true, lineEnding: true,
      size: true, mtimeMs: true, version: true, xxh64: true, sha256: true,
    } satisfies Record<keyof TextResult, true>;
    expect(Object.keys(result)).toEqual(Object.keys(fields));
    expect(structuredClone(result)).toStrictEqual({ ...result });
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('never serves a modified file stale', async () => {
    await engine.read({ path: 'cached.txt' });
    fs.appendFileSync(path.join(root, 'cached.txt'), 'gamma\n');
    const after = asText(await engine.read({ path: 'cached.txt' }));
    expect(after.content).toBe('1\talpha\n2\tbeta\n3\tgamma');
  });

  it('never serves a same-size rewrite whose mtime was reset: the ctime moves', async () => {
    const file = path.join(root, 'cached.txt');
    fs.utimesSync(file, FIXED_TIME, FIXED_TIME);
    const before = fs.statSync(file, { bigint: true });
    const first = asText(await engine.read({ path: 'cached.txt' }));
    fs.writeFileSync(file, 'ALPHA\nBETA\n');
    fs.utimesSync(file, FIXED_TIME, FIXED_TIME);
    expect(fs.statSync(file, { bigint: true }).mtimeNs).toBe(before.mtimeNs);
    expect(fs.statSync(file, { bigint: true }).size).toBe(before.size);
    const after = asText(await engine.read({ path: 'cached.txt' }));
    expect(after.content).toBe('1\tALPHA\n2\tBETA');
    expect(after.xxh64).not.toBe(first.xxh64);
    expect(after.version).not.toBe(first.version);
  });

  it('keys by the request shape: a different window is a different entry', async () => {
    const whole = asText(await engine.read({ path: 'cached.txt' }));
    const second = asText(await engine.read({ path: 'cached.txt', offset: 2 }));
    expect(whole.content).toBe('1\talpha\n2\tbeta');
    expect(second.content).toBe('2\tbeta');
  });

  it('keeps a window of more than about 128 K characters from its second miss on, and a small one from its first', async () => {
    // Budgets large enough for such a window (the defaults cap one near 100 K characters).
    const roomy = await createEngine({ root, settleMs: 0, maxTokens: 200_000, maxBytes: 1024 * 1024 });
    try {
      const page = { path: 'app.log', offset: 10_001, limit: 5000 };
      const first = asText(await roomy.read(page));
      expect(first.content.length).toBeGreaterThan(128 * 1024);
      expect(roomy.stats().cache.result).toMatchObject({ hits: 0, entries: 0 });
      // Read again: worth keeping now.
      await roomy.read(page);
      expect(roomy.stats().cache.result).toMatchObject({ hits: 0, entries: 1 });
      const third = asText(await roomy.read(page));
      expect(roomy.stats().cache.result).toMatchObject({ hits: 1, entries: 1 });
      expect(third.content).toBe(first.content);
      // A small window is kept at once.
      await roomy.read({ path: 'cached.txt' });
      await roomy.read({ path: 'cached.txt' });
      expect(roomy.stats().cache.result).toMatchObject({ hits: 2, entries: 2 });
    } finally {
      await roomy.close();
    }
  });
});

describe('the settle window (coarse file-system timestamps)', () => {
  it('does not trust the version of a file changed within settleMs: no cache entry, stubs by content hash only', async () => {
    const wary = await createEngine({ root, threads: 1, settleMs: 60_000 });
    try {
      writeFile(root, 'fresh-write.txt', 'just written\n');
      await wary.read({ path: 'fresh-write.txt', session: 's-wary' });
      const again = await wary.read({ path: 'fresh-write.txt', session: 's-wary' });
      expect(again).toMatchObject({ kind: 'unchanged', reason: 'same_content' });
      const plain = await wary.read({ path: 'fresh-write.txt' });
      expect(asText(plain).content).toBe('1\tjust written');
      expect(wary.stats().cache.result).toMatchObject({ hits: 0, entries: 0 });
      expect(await wary.checkUnchanged('s-wary', 'fresh-write.txt')).toMatchObject({ unchanged: true, reason: 'same_content' });
    } finally {
      await wary.close();
    }
  });

  it('trusts the version of a file older than settleMs', async () => {
    const settled = await createEngine({ root, threads: 1, settleMs: 50 });
    try {
      writeFile(root, 'older.txt', 'written a while ago\n');
      await new Promise((resolve) => setTimeout(resolve, 80));
      await settled.read({ path: 'older.txt', session: 's-settled' });
      expect(await settled.read({ path: 'older.txt', session: 's-settled' })).toMatchObject({ kind: 'unchanged', reason: 'same_version' });
      await settled.read({ path: 'older.txt' });
      expect(settled.stats().cache.result).toMatchObject({ hits: 1, misses: 1 });
    } finally {
      await settled.close();
    }
  });
});

describe('what the review found', () => {
  it('answers a tail read of a file that grew after the probe with the new last lines', async () => {
    const file = path.join(root, 'growing-tail.log');
    writeGeneratedLines(file, LOG_LINES, logLine);
    await engine.read({ path: 'growing-tail.log', limit: 1 }); // learns the line index
    const tail = engine.read({ path: 'growing-tail.log', offset: -3 });
    fs.appendFileSync(file, 'new 1\nnew 2\nnew 3\n'); // before the worker opens the file
    const result = asText(await tail);
    // The new version was never scanned whole: its last lines, numbered from the end.
    expect(result.content).toBe('-3\tnew 1\n-2\tnew 2\n-1\tnew 3');
    const again = asText(await engine.read({ path: 'growing-tail.log', offset: -3 }));
    expect(again.content).toBe(result.content);
  });

  // The rule since hits stopped checking the path's canonical place (README, Sandbox): a hit
  // needs the same inode at the same version, so a path whose meaning changed is answered from
  // the cache only with the very bytes already served from inside the root; a file never read
  // there, or any change to the one that was, goes to a worker, which refuses it.
  it('after a directory moved out of the root and linked back, serves no byte that was not already served from inside the root', async () => {
    const settled = await createEngine({ root, settleMs: 0 });
    try {
      writeFile(root, 'moving/a.txt', 'was inside\n');
      writeFile(root, 'moving/b.txt', 'never read inside\n');
      expect(asText(await settled.read({ path: 'moving/a.txt', session: 's-moved' })).content).toBe('1\twas inside');
      fs.renameSync(path.join(root, 'moving'), path.join(base, 'moved-out'));
      fs.symlinkSync(path.join(base, 'moved-out'), path.join(root, 'moving'));
      // The same inode at the same version: the bytes already served, and nothing else.
      expect(asText(await settled.read({ path: 'moving/a.txt' })).content).toBe('1\twas inside');
      expect(await settled.read({ path: 'moving/a.txt', session: 's-moved' })).toMatchObject({ kind: 'unchanged', reason: 'same_version' });
      // A file never read inside the root is refused through the link.
      await expectReadError(settled.read({ path: 'moving/b.txt' }), 'outside_root');
      // A write makes a new version, which no cache holds: refused, with or without a session.
      fs.appendFileSync(path.join(base, 'moved-out', 'a.txt'), 'written outside\n');
      await expectReadError(settled.read({ path: 'moving/a.txt' }), 'outside_root');
      await expectReadError(settled.read({ path: 'moving/a.txt', session: 's-moved' }), 'outside_root');
    } finally {
      await settled.close();
    }
  });

  it('checks a binary file the session read as base64, after a touch', async () => {
    writeFile(root, 'blob.bin', Buffer.from([0, 1, 2, 3, 0, 255]));
    await engine.read({ path: 'blob.bin', session: 's-blob', allowBinary: true });
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(root, 'blob.bin'), later, later);
    expect(await engine.checkUnchanged('s-blob', 'blob.bin')).toMatchObject({ unchanged: true, reason: 'same_content' });
  });
});

describe('single flight', () => {
  it('reads identical concurrent requests once and gives every caller the result', async () => {
    const joins = stats().singleFlight.joins;
    const batches = engine.stats().batches;
    const reads = await Promise.all(Array.from({ length: 10 }, () => engine.read({ path: 'app.log', limit: 3 })));
    expect(stats().singleFlight.joins - joins).toBe(9);
    expect(engine.stats().batches - batches).toBe(1);
    for (const read of reads) expect(asText(read).content).toBe(numbered(1, 3, logLine));
  });

  it('lets a caller join a never-read file\'s read already sent to a worker when that read saw the version the caller sees', async () => {
    // Three times the usual log, so the first read is still in its worker when the second asks
    // (the scan's SIMD line count made the usual one quick enough to finish first, now and then).
    writeGeneratedLines(path.join(root, 'joined.log'), 3 * LOG_LINES, logLine);
    const joins = stats().singleFlight.joins;
    const batches = engine.stats().batches;
    const first = engine.read({ path: 'joined.log', limit: 2 });
    // A turn later the first read is in a worker; the second caller stats the file and joins it.
    await new Promise((resolve) => setImmediate(resolve));
    const second = engine.read({ path: 'joined.log', limit: 2 });
    const [a, b] = await Promise.all([first, second]);
    expect(asText(b).content).toBe(numbered(1, 2, logLine));
    expect(b).toBe(a);
    expect(stats().singleFlight.joins - joins).toBe(1);
    expect(engine.stats().batches - batches).toBe(1);
  });

  it('never answers a caller with bytes older than the version it saw, even while an earlier read of the file runs', async () => {
    const newLine = (n: number) => `new line ${String(n).padStart(9, '0')} ${'y'.repeat(20)}`;
    writeGeneratedLines(path.join(root, 'replaced.log'), LOG_LINES, logLine);
    const first = engine.read({ path: 'replaced.log', limit: 2 }).then(asText, () => null);
    await new Promise((resolve) => setImmediate(resolve));
    // Replaced by rename while the first read runs: a new inode, so a new version.
    writeGeneratedLines(path.join(root, 'replaced.tmp'), LOG_LINES, newLine);
    fs.renameSync(path.join(root, 'replaced.tmp'), path.join(root, 'replaced.log'));
    const second = asText(await engine.read({ path: 'replaced.log', limit: 2 }));
    expect(second.content).toBe(numbered(1, 2, newLine));
    // The first read answers one version whole, whichever it opened.
    expect([numbered(1, 2, logLine), numbered(1, 2, newLine)]).toContain((await first)?.content);
  });

  it('does not read again for a caller that joined a running read on condition and then left on its own', async () => {
    // Three times the usual log, so the first read is still in its worker when the second asks.
    writeGeneratedLines(path.join(root, 'left-joined.log'), 3 * LOG_LINES, logLine);
    const misses = stats().result.misses;
    const first = engine.read({ path: 'left-joined.log', limit: 2 });
    await new Promise((resolve) => setImmediate(resolve));
    const controller = new AbortController();
    const second = engine.read({ path: 'left-joined.log', limit: 2 }, { signal: controller.signal });
    controller.abort();
    await expectReadError(second, 'aborted');
    expect(asText(await first).content).toBe(numbered(1, 2, logLine));
    expect(stats().result.misses - misses).toBe(1);
  });

  it('keeps the shared work for the others when one waiter aborts', async () => {
    writeGeneratedLines(path.join(root, 'shared.log'), LOG_LINES, logLine);
    const controller = new AbortController();
    const request: ReadRequest = { path: 'shared.log', offset: 777, limit: 2 };
    const aborted = engine.read(request, { signal: controller.signal });
    const others = [engine.read(request), engine.read(request)];
    controller.abort();
    await expectReadError(aborted, 'aborted');
    for (const other of await Promise.all(others)) {
      expect(asText(other).content).toBe(numbered(777, 778, logLine));
    }
  });

  it('cancels the work when every waiter has left, and the next read succeeds', async () => {
    writeGeneratedLines(path.join(root, 'left.log'), LOG_LINES, logLine);
    // Pages the tests before read ahead (see read-ahead.ts) may still be in flight.
    await settled(() => stats().singleFlight.inFlight === 0);
    const controllers = [new AbortController(), new AbortController()];
    const reads = controllers.map((controller) => engine.read({ path: 'left.log', offset: 5 }, { signal: controller.signal }));
    for (const controller of controllers) controller.abort();
    for (const read of reads) await expectReadError(read, 'aborted');
    expect(stats().singleFlight.inFlight).toBe(0);
    const next = asText(await engine.read({ path: 'left.log', offset: 5, limit: 1 }));
    expect(next.content).toBe(`5\t${logLine(5)}`);
  });
});

describe('unchanged-file stubs', () => {
  beforeEach(() => {
    writeFile(root, 'stub.txt', 'one\ntwo\nthree\n');
  });

  it('answers a session re-reading the same range of the same version with a stub', async () => {
    const first = asText(await engine.read({ path: 'stub.txt', session: 's-version' }));
    const again = await engine.read({ path: 'stub.txt', session: 's-version' });
    expect(again.kind).toBe('unchanged');
    if (again.kind !== 'unchanged') return;
    expect(again.reason).toBe('same_version');
    expect(again.xxh64).toBe(first.xxh64);
    expect(again.stub).toContain('stub.txt is unchanged since you read all 3 lines');
    expect(again.stub).toContain('fresh: true');
  });

  it('answers the stub after a touch, and after an identical rewrite: same content hash', async () => {
    const file = path.join(root, 'stub.txt');
    await engine.read({ path: 'stub.txt', session: 's-touch' });
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(file, later, later);
    const touched = await engine.read({ path: 'stub.txt', session: 's-touch' });
    expect(touched).toMatchObject({ kind: 'unchanged', reason: 'same_content' });
    fs.writeFileSync(file, 'one\ntwo\nthree\n');
    const rewritten = await engine.read({ path: 'stub.txt', session: 's-touch' });
    expect(rewritten).toMatchObject({ kind: 'unchanged', reason: 'same_content' });
  });

  it('returns the new content once the file really changed', async () => {
    await engine.read({ path: 'stub.txt', session: 's-changed' });
    fs.appendFileSync(path.join(root, 'stub.txt'), 'four\n');
    const after = asText(await engine.read({ path: 'stub.txt', session: 's-changed' }));
    expect(after.content).toBe('1\tone\n2\ttwo\n3\tthree\n4\tfour');
  });

  it('gives no stub after a read cut by the output budget, nor after one with cut lines', async () => {
    writeGeneratedLines(path.join(root, 'budget.txt'), 2000, logLine);
    const cut = asText(await engine.read({ path: 'budget.txt', session: 's-budget', maxTokens: 200 }));
    expect(cut.truncated).toMatchObject({ reason: 'tokens' });
    expect((await engine.read({ path: 'budget.txt', session: 's-budget', maxTokens: 200 })).kind).toBe('text');

    writeFile(root, 'wide.txt', `${'w'.repeat(5000)}\nshort\n`);
    const wide = asText(await engine.read({ path: 'wide.txt', session: 's-budget' }));
    expect(wide.cutLines).toBe(1);
    expect((await engine.read({ path: 'wide.txt', session: 's-budget' })).kind).toBe('text');
  });

  it('gives a stub for a window read in full (every line asked for, uncut)', async () => {
    writeGeneratedLines(path.join(root, 'window.txt'), 100, logLine);
    const page = asText(await engine.read({ path: 'window.txt', session: 's-window', offset: 11, limit: 10 }));
    expect(page.truncated).toMatchObject({ reason: 'lines', nextOffset: 21 });
    const again = await engine.read({ path: 'window.txt', session: 's-window', offset: 11, limit: 10 });
    expect(again).toMatchObject({ kind: 'unchanged', startLine: 11, endLine: 20 });
    // Another range of the same file is not held.
    expect((await engine.read({ path: 'window.txt', session: 's-window', offset: 21, limit: 10 })).kind).toBe('text');
  });

  it('keeps each range a session read of a file: reading another range between two reads of one still earns the stub', async () => {
    writeGeneratedLines(path.join(root, 'ranges.txt'), 100, logLine);
    const read = (range: { offset?: number; limit?: number }) => engine.read({ path: 'ranges.txt', session: 's-ranges', ...range });
    expect((await read({})).kind).toBe('text');
    expect((await read({ offset: 21, limit: 10 })).kind).toBe('text');
    expect((await read({ offset: 41, limit: 5 })).kind).toBe('text');
    // Each range read before answers with its stub, in any order, the whole file's included.
    expect(await read({})).toMatchObject({ kind: 'unchanged', startLine: 1, endLine: 100 });
    expect(await read({ offset: 41, limit: 5 })).toMatchObject({ kind: 'unchanged', startLine: 41, endLine: 45 });
    expect(await read({ offset: 21, limit: 10 })).toMatchObject({ kind: 'unchanged', startLine: 21, endLine: 30 });
    expect(await read({})).toMatchObject({ kind: 'unchanged', startLine: 1, endLine: 100 });
    // The read ledger holds the last read of the file that returned content, whatever its range.
    expect(engine.lastRead('s-ranges', 'ranges.txt')).toMatchObject({ startLine: 41, endLine: 45 });
  });

  it('is defeated by fresh: true, by forgetSession, and is never shared between sessions', async () => {
    await engine.read({ path: 'stub.txt', session: 's-fresh' });
    expect((await engine.read({ path: 'stub.txt', session: 's-fresh', fresh: true })).kind).toBe('text');
    expect((await engine.read({ path: 'stub.txt', session: 's-fresh' })).kind).toBe('unchanged');
    expect(engine.forgetSession('s-fresh')).toBe(true);
    expect((await engine.read({ path: 'stub.txt', session: 's-fresh' })).kind).toBe('text');
    expect((await engine.read({ path: 'stub.txt', session: 's-other' })).kind).toBe('text');
    expect((await engine.read({ path: 'stub.txt' })).kind).toBe('text');
  });
});

describe('the read ledger for edit tools', () => {
  beforeEach(() => {
    writeFile(root, 'edit.ts', 'export const a = 1;\n');
  });

  it('reports the last read: when, which version and hash, which lines', async () => {
    expect(engine.lastRead('s-ledger', 'edit.ts')).toBeNull();
    const before = Date.now();
    const read = asText(await engine.read({ path: 'edit.ts', session: 's-ledger', hash: 'sha256' }));
    const mark = engine.lastRead('s-ledger', 'edit.ts');
    expect(mark).toMatchObject({
      relativePath: 'edit.ts',
      version: read.version,
      xxh64: read.xxh64,
      sha256: read.sha256,
      startLine: 1,
      endLine: 1,
      totalLines: 1,
      complete: true,
    });
    expect(mark?.readAt).toBeGreaterThanOrEqual(before);
  });

  it("keeps each session's own version and time of a shared result, and answers lastRead as it stood then", async () => {
    writeFile(root, 'shared.ts', 'export const shared = 1;\n');
    const first = asText(await engine.read({ path: 'shared.ts', session: 's-one' }));
    const hits = stats().result.hits;
    await engine.read({ path: 'shared.ts', session: 's-two' });
    expect(stats().result.hits).toBe(hits + 1);
    const twoBefore = engine.lastRead('s-two', 'shared.ts');
    // A touch: same bytes, a new version. Only the session that reads again moves on to it.
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(root, 'shared.ts'), later, later);
    const again = await engine.read({ path: 'shared.ts', session: 's-one' });
    expect(again).toMatchObject({ kind: 'unchanged', reason: 'same_content' });
    const one = engine.lastRead('s-one', 'shared.ts');
    const two = engine.lastRead('s-two', 'shared.ts');
    expect(one?.version).not.toBe(first.version);
    expect(two?.version).toBe(first.version);
    expect(twoBefore).toEqual(two);
    expect(one).toMatchObject({ relativePath: 'shared.ts', xxh64: first.xxh64, startLine: 1, endLine: 1, totalLines: 1, complete: true, settled: true });
  });

  it('tells unchanged, touched, modified, deleted and never-read files apart', async () => {
    const file = path.join(root, 'edit.ts');
    expect(await engine.checkUnchanged('s-check', 'edit.ts')).toMatchObject({ unchanged: false, reason: 'not_read' });
    await engine.read({ path: 'edit.ts', session: 's-check' });
    expect(await engine.checkUnchanged('s-check', 'edit.ts')).toMatchObject({ unchanged: true, reason: 'same_version', message: null });
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(file, later, later);
    expect(await engine.checkUnchanged('s-check', 'edit.ts')).toMatchObject({ unchanged: true, reason: 'same_content' });
    fs.writeFileSync(file, 'export const a = 2; // edited by someone else\n');
    const modified = await engine.checkUnchanged('s-check', 'edit.ts');
    expect(modified).toMatchObject({ unchanged: false, reason: 'modified' });
    expect(modified.message).toContain('was modified since you read it');
    expect(modified.message).toContain('Call read on it again');
    fs.rmSync(file);
    expect(await engine.checkUnchanged('s-check', 'edit.ts')).toMatchObject({ unchanged: false, reason: 'deleted' });
  });

  it('compares against a sha256 the caller holds', async () => {
    const read = asText(await engine.read({ path: 'edit.ts', hash: 'sha256' }));
    const sha256 = read.sha256 ?? '';
    expect(await engine.checkUnchanged('s-sha', 'edit.ts', { sha256 })).toMatchObject({ unchanged: true, reason: 'same_content' });
    fs.appendFileSync(path.join(root, 'edit.ts'), '// more\n');
    expect(await engine.checkUnchanged('s-sha', 'edit.ts', { sha256 })).toMatchObject({ unchanged: false, reason: 'modified' });
  });
});

describe('session state bounds', () => {
  it('forgets the least recently active session first when a new one would exceed maxSessions', async () => {
    const two = await createEngine({ root, threads: 1, maxSessions: 2 });
    try {
      writeFile(root, 'bounds/recent.txt', 'recent\n');
      writeFile(root, 'bounds/other.txt', 'other\n');
      await two.read({ path: 'bounds/recent.txt', session: 'a' });
      await two.read({ path: 'bounds/recent.txt', session: 'b' });
      // `a` reads again after `b`, so `b` is now the least recently active.
      await two.read({ path: 'bounds/other.txt', session: 'a' });
      await two.read({ path: 'bounds/recent.txt', session: 'c' });
      expect(two.stats().cache.sessions.sessions).toBe(2);
      expect(two.lastRead('b', 'bounds/recent.txt')).toBeNull();
      expect(two.lastRead('a', 'bounds/recent.txt')).not.toBeNull();
      expect(two.lastRead('a', 'bounds/other.txt')).not.toBeNull();
      expect(two.lastRead('c', 'bounds/recent.txt')).not.toBeNull();
    } finally {
      await two.close();
    }
  });

  it('stays within maxSessions and maxSessionEntries under 100 000 distinct reads', async () => {
    const bounded = await createEngine({ root, threads: 2, maxSessions: 8, maxSessionEntries: 16, settleMs: 0 });
    try {
      for (let i = 0; i < 40; i++) writeFile(root, `bounds/f${i}.txt`, `file ${i}\n`);
      // 250 sessions x 40 files x 10 ranges: every (session, path, range) is distinct.
      let reads = 0;
      for (let session = 0; session < 250; session++) {
        const batch: Promise<ReadResult>[] = [];
        for (let file = 0; file < 40; file++) {
          for (let range = 1; range <= 10; range++) {
            batch.push(bounded.read({ path: `bounds/f${file}.txt`, session: `agent-${session}`, limit: range }));
          }
        }
        reads += (await Promise.all(batch)).length;
        const state = bounded.stats().cache.sessions;
        expect(state.sessions).toBeLessThanOrEqual(8);
        expect(state.entries).toBeLessThanOrEqual(8 * 16 * 2);
      }
      expect(reads).toBe(100_000);
      // The most recent session still holds its latest reads.
      expect((await bounded.read({ path: 'bounds/f39.txt', session: 'agent-249', limit: 10 })).kind).toBe('unchanged');
      expect(bounded.lastRead('agent-0', 'bounds/f0.txt')).toBeNull();
    } finally {
      await bounded.close();
    }
  }, 60_000);
});

describe('the line index', () => {
  it('turns later pages of a scanned version into seeks, with exact totals and hash', async () => {
    const first = asText(await engine.read({ path: 'app.log', limit: 2000 }));
    expect(first.totalLines).toBe(LOG_LINES);
    const hits = stats().lineIndex.hits;
    for (const offset of [2001, 100_001, 199_001]) {
      const page = asText(await engine.read({ path: 'app.log', offset, limit: 1000 }));
      expect(page.content).toBe(numbered(offset, offset + 999, logLine));
      expect(page.totalLines).toBe(LOG_LINES);
      expect(page.xxh64).toBe(first.xxh64);
    }
    expect(stats().lineIndex.hits - hits).toBe(3);
    const last = asText(await engine.read({ path: 'app.log', offset: 199_501 }));
    expect(last.endLine).toBe(LOG_LINES);
    expect(last.truncated).toBe(false);
  });

  it('is never used for a new version of the file', async () => {
    const file = path.join(root, 'grows.log');
    writeGeneratedLines(file, LOG_LINES, logLine);
    await engine.read({ path: 'grows.log', limit: 1 });
    fs.appendFileSync(file, 'appended\n');
    const hits = stats().lineIndex.hits;
    const tail = asText(await engine.read({ path: 'grows.log', offset: LOG_LINES, limit: 5 }));
    expect(tail.content).toBe(`${LOG_LINES}\t${logLine(LOG_LINES)}\n${LOG_LINES + 1}\tappended`);
    expect(tail.totalLines).toBe(LOG_LINES + 1);
    expect(stats().lineIndex.hits).toBe(hits);
  });
});

describe('read-ahead', () => {
  const page = (offset: number) => ({ path: 'paged.log', offset, limit: 1000 });

  beforeAll(async () => {
    writeGeneratedLines(path.join(root, 'paged.log'), LOG_LINES, logLine);
    await engine.read(page(1));
  });

  it('reads the page after one an agent paged to, and hands it to that page\'s reader', async () => {
    const before = stats();
    asText(await engine.read(page(1001)));
    expect(stats().readAhead.pages).toBe(before.readAhead.pages + 1);
    // Landed: no work left in flight (pages of other tests' files may wait in the store too).
    await settled(() => stats().singleFlight.inFlight === 0);
    const hits = stats().result.hits;
    const next = asText(await engine.read(page(2001)));
    expect(next.content).toBe(numbered(2001, 3000, logLine));
    expect(next.totalLines).toBe(LOG_LINES);
    // Taken from the pages read ahead, and the one after it is on its way.
    expect(stats().result.hits).toBe(hits + 1);
    expect(stats().readAhead.pages).toBe(before.readAhead.pages + 2);
  });

  it('caches a page read ahead once its reader took it, for the other sessions paging the file', async () => {
    await settled(() => stats().singleFlight.inFlight === 0);
    await engine.read({ ...page(5001), session: 'pager-a' });
    await settled(() => stats().singleFlight.inFlight === 0);
    const taken = asText(await engine.read({ ...page(6001), session: 'pager-a' }));
    await settled(() => stats().singleFlight.inFlight === 0);
    const { hits, misses } = stats().result;
    const shared = asText(await engine.read({ ...page(6001), session: 'pager-b' }));
    expect(shared.content).toBe(taken.content);
    expect(stats().result).toMatchObject({ hits: hits + 1, misses });
  });

  it('reads ahead after a page its token budget ended, from the line after the last one shown', async () => {
    await settled(() => stats().singleFlight.inFlight === 0);
    // About 40 tokens a line: a budget of 4000 ends a page after about a hundred of them.
    const budgeted = (offset: number) => ({ path: 'paged.log', offset, limit: 1000, maxTokens: 4000 });
    const pages = stats().readAhead.pages;
    const first = asText(await engine.read(budgeted(20_001)));
    if (first.truncated === false) throw new Error('expected the budget to end the page');
    expect(first.truncated.reason).toBe('tokens');
    expect(stats().readAhead.pages).toBe(pages + 1);
    await settled(() => stats().singleFlight.inFlight === 0);
    const hits = stats().result.hits;
    const next = asText(await engine.read(budgeted(first.truncated.nextOffset)));
    expect(next.startLine).toBe(first.endLine + 1);
    expect(next.content).toBe(numbered(first.endLine + 1, next.endLine, logLine));
    expect(stats().result.hits).toBe(hits + 1);
  });

  it('does not read ahead of a first page, a tail read or a column read', async () => {
    await settled(() => stats().singleFlight.inFlight === 0);
    const pages = stats().readAhead.pages;
    await engine.read({ path: 'paged.log', limit: 10 });
    await engine.read({ path: 'paged.log', offset: -10 });
    await engine.read({ path: 'paged.log', offset: 5000, column: 3, limit: 1 });
    expect(stats().readAhead.pages).toBe(pages);
  });

  it('never serves a page read ahead of a version the file has left', async () => {
    const file = path.join(root, 'changing.log');
    writeGeneratedLines(file, LOG_LINES, logLine);
    await engine.read({ path: 'changing.log', limit: 1 });
    await engine.read({ path: 'changing.log', offset: 1001, limit: 1000 });
    await settled(() => stats().readAhead.waiting > 0 && stats().singleFlight.inFlight === 0);
    // Same size, other bytes: lines 2001 on now say so.
    const text = fs.readFileSync(file, 'utf8').replaceAll('log line', 'new line');
    fs.writeFileSync(file, text);
    // A new version even where the clock's tick is coarse: another mtime.
    const later = new Date(Date.now() + 10_000);
    fs.utimesSync(file, later, later);
    const next = asText(await engine.read({ path: 'changing.log', offset: 2001, limit: 2 }));
    expect(next.content).toBe(numbered(2001, 2002, (n) => logLine(n).replace('log line', 'new line')));
    const paged = asText(await engine.read({ path: 'changing.log', offset: 2001, limit: 1000 }));
    expect(paged.content.startsWith(`2001\t${logLine(2001).replace('log line', 'new line')}`)).toBe(true);
  });
});

describe('tail reads (negative offset)', () => {
  it('returns the last lines of a small file with exact numbers, whatever its line endings', async () => {
    for (const [name, body] of [
      ['lf.txt', 'a\nb\nc\nd\n'],
      ['no-final.txt', 'a\nb\nc\nd'],
      ['crlf.txt', 'a\r\nb\r\nc\r\nd\r\n'],
      ['cr.txt', 'a\rb\rc\rd\r'],
    ] as const) {
      writeFile(root, name, body);
      const tail = asText(await engine.read({ path: name, offset: -2 }));
      expect(tail.content, name).toBe('3\tc\n4\td');
      expect(tail.totalLines, name).toBe(4);
    }
    const all = asText(await engine.read({ path: 'lf.txt', offset: -10 }));
    expect(all.content).toBe('1\ta\n2\tb\n3\tc\n4\td');
  });

  it('reads the end of a large unscanned file backwards, numbered from the end', async () => {
    writeGeneratedLines(path.join(root, 'tail.log'), LOG_LINES, logLine);
    const tail = asText(await engine.read({ path: 'tail.log', offset: -3 }));
    expect(tail.content).toBe([-3, -2, -1].map((n) => `${n}\t${logLine(LOG_LINES + n + 1)}`).join('\n'));
    expect(tail).toMatchObject({ startLine: -3, endLine: -1, totalLines: null, truncated: false, xxh64: null });
    expect(tail.notice).toContain('numbered from the end');
    expect(tail.notice).toContain('offset=-6, limit=3');
    const window = asText(await engine.read({ path: 'tail.log', offset: -10, limit: 2 }));
    expect(window).toMatchObject({ startLine: -10, endLine: -9, truncated: { reason: 'lines', nextOffset: -8 } });
  });

  it('uses exact numbers once the version was scanned whole', async () => {
    await engine.read({ path: 'app.log', limit: 1 });
    const tail = asText(await engine.read({ path: 'app.log', offset: -2 }));
    expect(tail.content).toBe(numbered(LOG_LINES - 1, LOG_LINES, logLine));
    expect(tail.totalLines).toBe(LOG_LINES);
  });

  it('refuses offset 0 with a message that explains the numbering', async () => {
    const error = await expectReadError(engine.read({ path: 'app.log', offset: 0 }), 'invalid_request');
    expect(error.message).toContain('negative offset counts from the end');
  });
});

describe('tailStart, the backward scan', () => {
  /** Byte offsets where each line starts, by the forward rules: LF, CRLF or lone CR end a line. */
  function lineStarts(text: string): number[] {
    const starts = text.length > 0 ? [0] : [];
    for (const match of text.matchAll(/\r\n|\n|\r/g)) {
      const next = match.index + match[0].length;
      if (next < text.length) starts.push(next);
    }
    return starts;
  }

  it('finds the start of the last N lines across chunk boundaries, for every break style', () => {
    const file = path.join(base, 'tail-cases.txt');
    const texts = ['a\nbb\nccc\n', 'a\r\nbb\r\nccc', 'a\rbb\r\n\r\nccc\r', '\n\n\n', 'one line', 'x\r\n'];
    // Buffers of 1, 2 and 3 bytes put every CRLF across a chunk boundary at least once.
    for (const text of texts) {
      fs.writeFileSync(file, text);
      const fd = fs.openSync(file, 'r');
      try {
        const starts = lineStarts(text);
        for (const size of [1, 2, 3, 64]) {
          for (let want = 1; want <= starts.length + 1; want++) {
            const expected = want < starts.length ? (starts[starts.length - want] ?? -1) : null;
            const found = tailStart(fd, Buffer.alloc(size), text.length, 0, want);
            expect(found, `${JSON.stringify(text)} want ${want} buffer ${size}`).toBe(expected);
          }
        }
      } finally {
        fs.closeSync(fd);
      }
    }
  });
});
