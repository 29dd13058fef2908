import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import xxhash, { type XXHashAPI } from 'xxhash-wasm';
import { createEngine, ReadError, type Engine, type TextResult } from '../src/index.js';
import { FIXTURES, SHARED_LINES, fixturePath } from '../fixtures/index.js';
import { writeGeneratedLines } from './support/generated-file.js';
import { expectReadError } from './support/read-error.js';
import { makeTempDir, removeTempDir } from './support/temp-dir.js';
import { asText, numberedLines as numbered } from './support/text-result.js';

const FIVE_THOUSAND = 5000;
const TWENTY_MB_LINES = 200_000;

/** Line n of the 5000-line file. */
const shortLine = (n: number) => `line ${n} of ${FIVE_THOUSAND}`;
/** Line n of the 20 MB file: 99 characters, so 100 bytes with its LF. */
const wideLine = (n: number) => `line ${String(n).padStart(6, '0')}: `.padEnd(99, String(n % 10));

let root = '';
let engine: Engine;
let hasher: XXHashAPI;

async function readText(request: Parameters<Engine['read']>[0]): Promise<TextResult> {
  return asText(await engine.read(request));
}

function xxh64Hex(bytes: Uint8Array): string {
  return hasher.h64Raw(bytes).toString(16).padStart(16, '0');
}

beforeAll(async () => {
  root = makeTempDir();
  writeGeneratedLines(path.join(root, 'five-thousand.txt'), FIVE_THOUSAND, shortLine);
  writeGeneratedLines(path.join(root, 'twenty-mb.log'), TWENTY_MB_LINES, wideLine);
  fs.copyFileSync(fixturePath('lf'), path.join(root, 'copy-a.txt'));
  fs.copyFileSync(fixturePath('lf'), path.join(root, 'copy-b.txt'));
  fs.mkdirSync(path.join(root, 'dir'));
  hasher = await xxhash();
  // Two roots: generated files in a temp dir, fixtures where they are (read by absolute path).
  // maxTokens is raised because 2000 lines of 100 characters are about 53 000 tokens.
  engine = await createEngine({ roots: [root, path.dirname(fixturePath('lf'))], threads: 2, maxTokens: 100_000 });
});

afterAll(async () => {
  await engine.close();
  removeTempDir(root);
});

describe('line endings and encodings', () => {
  it('gives the same content and line numbers for the LF, CRLF and lone-CR fixtures and reports each ending', async () => {
    const [lf, crlf, cr] = await Promise.all(
      (['lf', 'crlf', 'cr'] as const).map((name) => readText({ path: fixturePath(name) })),
    );
    expect(lf?.content).toBe(numbered(SHARED_LINES));
    for (const result of [lf, crlf, cr]) {
      expect(result).toMatchObject({ content: numbered(SHARED_LINES), startLine: 1, endLine: 5, totalLines: 5, truncated: false });
    }
    expect([lf?.lineEnding, crlf?.lineEnding, cr?.lineEnding]).toEqual(['lf', 'crlf', 'cr']);
  });

  it('reports lineEnding "mixed" for a file that mixes LF, CRLF and CR, and still numbers every line', async () => {
    const result = await readText({ path: fixturePath('mixedEndings') });
    expect(result.lineEnding).toBe('mixed');
    expect(result.content).toBe(numbered(['unix line', 'windows line', 'old mac line', 'last line']));
    expect(result.totalLines).toBe(4);
  });

  it('strips a UTF-8 byte-order mark from the first line and reports bom: true', async () => {
    const [withBom, without] = await Promise.all([readText({ path: fixturePath('utf8Bom') }), readText({ path: fixturePath('lf') })]);
    expect(withBom.content).toBe(without.content);
    expect(withBom.content).not.toContain('\uFEFF');
    expect(withBom).toMatchObject({ bom: true, encoding: 'utf-8' });
    expect(without).toMatchObject({ bom: false, encoding: 'utf-8' });
  });

  it('decodes UTF-16 LE and BE files to the same content as the UTF-8 text and reports the encoding', async () => {
    const [le, be] = await Promise.all([readText({ path: fixturePath('utf16leBom') }), readText({ path: fixturePath('utf16beBom') })]);
    expect(le).toMatchObject({ content: numbered(SHARED_LINES), totalLines: 5, encoding: 'utf-16le', bom: true, lineEnding: 'lf' });
    expect(be).toMatchObject({ content: numbered(SHARED_LINES), totalLines: 5, encoding: 'utf-16be', bom: true, lineEnding: 'lf' });
  });

  it('returns 2-, 3- and 4-byte UTF-8 characters intact', async () => {
    const lines = fs.readFileSync(fixturePath('multibyte'), 'utf8').split('\n').slice(0, -1);
    const result = await readText({ path: fixturePath('multibyte') });
    expect(result.content).toBe(numbered(lines));
    expect(result.content).not.toContain('\uFFFD');
  });
});

describe('windows, notices and truncation', () => {
  it('answers an empty file with no lines and a notice that says it is empty, not an error', async () => {
    const result = await readText({ path: fixturePath('empty') });
    expect(result).toMatchObject({ content: '', totalLines: 0, truncated: false, size: 0 });
    expect(result.notice).toMatch(/empty/i);
  });

  it('answers an offset past the end with a notice giving the line count, not an error', async () => {
    const result = await readText({ path: fixturePath('lf'), offset: 50 });
    expect(result).toMatchObject({ content: '', startLine: 50, endLine: 49, totalLines: 5, truncated: false });
    expect(result.notice).toMatch(/\b5 lines\b/);
  });

  it('cuts a line longer than maxLineChars with a marker, counts it in cutLines and says so in the notice', async () => {
    const lines = fs.readFileSync(fixturePath('longLine'), 'utf8').split('\n');
    const long = lines[1] ?? '';
    expect(long.length).toBe(10_000);
    const result = await readText({ path: fixturePath('longLine') });
    const shown = result.content.split('\n');
    expect(shown).toHaveLength(3);
    expect(shown[0]).toBe(`1\t${lines[0] ?? ''}`);
    expect(shown[1]).toBe(`2\t${long.slice(0, 2000)} … [line cut after 2000 characters; the whole line is 10000 bytes]`);
    expect(shown[2]).toBe(`3\t${lines[2] ?? ''}`);
    expect(result.cutLines).toBe(1);
    expect(result.truncated).toBe(false);
    expect(result.notice).toMatch(/cut/);
  });

  it('stops at the default limit of 2000 lines with nextOffset 2001 and the exact total', async () => {
    const result = await readText({ path: 'five-thousand.txt' });
    expect(result.truncated).toEqual({ reason: 'lines', nextOffset: 2001 });
    expect(result).toMatchObject({ startLine: 1, endLine: 2000, totalLines: FIVE_THOUSAND });
    expect(result.content.split('\n').at(-1)).toBe(`2000\t${shortLine(2000)}`);
    expect(result.notice).toContain('offset=2001');
  });

  it('visits every line exactly once when paging with nextOffset until truncated is false', async () => {
    const seen: string[] = [];
    let offset = 1;
    let pages = 0;
    for (;;) {
      const page = await readText({ path: 'five-thousand.txt', offset, limit: 700 });
      pages++;
      expect(page.startLine).toBe(offset);
      expect(page.totalLines).toBe(FIVE_THOUSAND);
      seen.push(...page.content.split('\n'));
      if (page.truncated === false) break;
      offset = page.truncated.nextOffset;
      expect(pages).toBeLessThan(20);
    }
    expect(pages).toBe(Math.ceil(FIVE_THOUSAND / 700));
    expect(seen).toEqual(Array.from({ length: FIVE_THOUSAND }, (_, index) => `${index + 1}\t${shortLine(index + 1)}`));
  });

  it('stops with reason "bytes" when the request lowers maxBytes, and stays under it', async () => {
    const result = await readText({ path: 'five-thousand.txt', maxBytes: 512 });
    expect(result.truncated).toMatchObject({ reason: 'bytes' });
    expect(Buffer.byteLength(result.content)).toBeLessThanOrEqual(512);
    if (result.truncated !== false) expect(result.truncated.nextOffset).toBe(result.endLine + 1);
    expect(result.notice).toContain('512 bytes');
  });

  it('returns exactly lines 100000-101999 of a 20 MB, 200 000-line file', async () => {
    const result = await readText({ path: 'twenty-mb.log', offset: 100_000, limit: 2000 });
    expect(result).toMatchObject({ startLine: 100_000, endLine: 101_999, totalLines: TWENTY_MB_LINES, size: TWENTY_MB_LINES * 100 });
    expect(result.truncated).toEqual({ reason: 'lines', nextOffset: 102_000 });
    const expected = Array.from({ length: 2000 }, (_, index) => wideLine(100_000 + index));
    expect(result.content).toBe(numbered(expected, 100_000));
  });
});

describe('hashes', () => {
  it('reports xxh64 as 16 hex digits, equal for identical bytes and different for different bytes', async () => {
    const [a, b, crlf] = await Promise.all(['copy-a.txt', 'copy-b.txt', fixturePath('crlf')].map((p) => readText({ path: p })));
    expect(a?.xxh64).toMatch(/^[0-9a-f]{16}$/);
    expect(b?.xxh64).toBe(a?.xxh64);
    expect(crlf?.xxh64).not.toBe(a?.xxh64);
    expect(a?.xxh64).toBe(xxh64Hex(fs.readFileSync(fixturePath('lf'))));
  });

  it('hashes every byte of a file larger than one read chunk with xxh64, not just the window', async () => {
    const result = await readText({ path: 'twenty-mb.log', limit: 1 });
    expect(result.xxh64).toBe(xxh64Hex(fs.readFileSync(path.join(root, 'twenty-mb.log'))));
  });

  it('gives the sha256 of the whole file when asked, the same as node:crypto, and null otherwise', async () => {
    const file = path.join(root, 'twenty-mb.log');
    const expected = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    const [hashed, plain] = await Promise.all([
      readText({ path: 'twenty-mb.log', limit: 1, hash: 'sha256' }),
      readText({ path: 'twenty-mb.log', limit: 1 }),
    ]);
    expect(hashed.sha256).toBe(expected);
    expect(plain.sha256).toBeNull();
    const small = await readText({ path: fixturePath('lf'), hash: 'sha256' });
    expect(small.sha256).toBe(createHash('sha256').update(fs.readFileSync(fixturePath('lf'))).digest('hex'));
  });
});

describe('binary files', () => {
  it('returns a binary file as base64 of its exact bytes with allowBinary', async () => {
    const bytes = fs.readFileSync(fixturePath('binaryHead'));
    const result = await engine.read({ path: fixturePath('binaryHead'), allowBinary: true });
    if (result.kind !== 'binary') throw new Error(`expected a binary result, got ${result.kind}`);
    expect(Buffer.from(result.data, 'base64').equals(bytes)).toBe(true);
    expect(result.size).toBe(bytes.length);
    expect(result.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  });
});

describe('batches', () => {
  it('reads a never-read file found too large for a batch alone, after the small reads sent with it', async () => {
    // Not statted on the host (no cache knows it), the large file is first sent unsized in one
    // batch with the small ones; its worker defers it, answers the small ones, and it comes back alone.
    fs.copyFileSync(path.join(root, 'twenty-mb.log'), path.join(root, 'large-copy.log'));
    const small = Array.from({ length: 9 }, (_, i) => {
      const name = `small-${i}.txt`;
      fs.writeFileSync(path.join(root, name), `small file ${i}\n`);
      return name;
    });
    // Eight cores: one task a worker (a smaller machine sends a second, and the ten reads would go as two batches).
    const fresh = await createEngine({ root, threads: 1, cores: 8, maxTokens: 100_000 });
    try {
      const order: string[] = [];
      const reads = ['large-copy.log', ...small].map((name) =>
        fresh.read({ path: name }).then((result) => {
          order.push(name);
          return asText(result);
        }),
      );
      const [large, ...rest] = await Promise.all(reads);
      expect(order.at(-1)).toBe('large-copy.log');
      expect(large).toMatchObject({ startLine: 1, endLine: 2000, totalLines: TWENTY_MB_LINES, size: TWENTY_MB_LINES * 100 });
      expect(large?.content.split('\n', 1)[0]).toBe(`1\t${wideLine(1)}`);
      expect(rest.map((result) => result.content)).toEqual(small.map((_, i) => `1\tsmall file ${i}`));
      expect(fresh.stats().batches).toBe(2);
    } finally {
      await fresh.close();
    }
  });
});

describe('batches of never-read files', () => {
  it('keeps a batch within its byte budget: a file that would take it past 256 KiB is read in a later batch', async () => {
    const line = 'x'.repeat(199);
    const names = Array.from({ length: 4 }, (_, i) => {
      const name = `quarter-${i}.txt`;
      fs.writeFileSync(path.join(root, name), `${line}\n`.repeat(1000));
      return name;
    });
    const fresh = await createEngine({ root, threads: 1 });
    try {
      const results = await Promise.all(names.map((name) => fresh.read({ path: name, limit: 1 })));
      expect(results.map((result) => asText(result).content)).toEqual(names.map(() => `1\t${line}`));
      // One batch of four sent unsized: the first file is read, the other three each come back
      // sized (200 000 bytes), and two of those never share a batch.
      expect(fresh.stats().batches).toBe(4);
    } finally {
      await fresh.close();
    }
  });
});

describe('engine surface', () => {
  it('answers readMany with one ok or error entry per request, in request order', async () => {
    const requests = [
      { path: fixturePath('lf') },
      { path: 'missing.txt' },
      { path: fixturePath('lf'), offset: 4, limit: 1 },
      { path: 'dir' },
    ];
    const settled = await engine.readMany(requests);
    expect(settled.map((entry) => entry.request)).toEqual(requests);
    expect(settled.map((entry) => (entry.ok ? entry.result.kind : entry.error.code))).toEqual(['text', 'not_found', 'text', 'is_directory']);
    const third = settled[2];
    if (third?.ok !== true) throw new Error('the third read should have succeeded');
    expect(asText(third.result).content).toBe('4\t  fourth line, indented');
    for (const entry of settled) if (!entry.ok) expect(entry.error).toBeInstanceOf(ReadError);
  });

  it('counts answered reads and errors by code in stats()', async () => {
    const before = engine.stats();
    await readText({ path: fixturePath('lf') });
    await readText({ path: fixturePath('cr') });
    await expectReadError(engine.read({ path: 'missing.txt' }), 'not_found');
    await expectReadError(engine.read({ path: 'dir' }), 'is_directory');
    await expectReadError(engine.read({ path: 'dir' }), 'is_directory');
    const after = engine.stats();
    expect(after.answered - before.answered).toBe(5);
    expect((after.errors.not_found ?? 0) - (before.errors.not_found ?? 0)).toBe(1);
    expect((after.errors.is_directory ?? 0) - (before.errors.is_directory ?? 0)).toBe(2);
    expect(after.threads).toBe(2);
    expect(after.closed).toBe(false);
  });

  it('defaults threads to one a core below 8 cores, leaves one core in eight to the host thread from 8 on, and stops at 14', async () => {
    const counts: number[] = [];
    for (const cores of [1, 2, 7, 8, 9, 15, 16, 17, 18, 24, 64, 256]) {
      // No thread starts before a read needs one, so a large pool costs nothing here.
      const engine = await createEngine({ root, cores, startThreads: 'when-needed' });
      counts.push(engine.stats().threads);
      await engine.close();
    }
    expect(counts).toEqual([1, 2, 7, 7, 7, 13, 14, 14, 14, 14, 14, 14]);
    // A count given is taken as given, past the default's cap too.
    for (const [cores, threads] of [[16, 16], [64, 56]] as const) {
      const given = await createEngine({ root, cores, threads, startThreads: 'when-needed' });
      expect(given.stats().threads).toBe(threads);
      await given.close();
    }
  });

  it('rejects threads: 0 with a TypeError that names options.threads', async () => {
    await expect(createEngine({ root, threads: 0 })).rejects.toThrow(TypeError);
    await expect(createEngine({ root, threads: 0 })).rejects.toThrow(/options\.threads/);
  });

  it('rejects more than 1 024 threads before starting any', async () => {
    await expect(createEngine({ root, threads: 5000 })).rejects.toThrow(/options\.threads must be a positive integer and at most 1024 \(received 5000\)/);
    const most = await createEngine({ root, threads: 1024, startThreads: 'when-needed' });
    expect(most.stats().threads).toBe(1024);
    await most.close();
  });

  it("rejects a startThreads other than 'now' or 'when-needed' with a TypeError that names it", async () => {
    const wrong = { root, startThreads: 'later' } as unknown as Parameters<typeof createEngine>[0];
    await expect(createEngine(wrong)).rejects.toThrow(/options\.startThreads must be 'now' or 'when-needed' \(received "later"\)/);
  });

  it('rejects a root that does not exist with a TypeError that names options.roots', async () => {
    const missing = path.join(root, 'no-such-directory');
    await expect(createEngine({ root: missing })).rejects.toThrow(TypeError);
    await expect(createEngine({ root: missing })).rejects.toThrow(/options\.roots/);
  });

});

describe('fixture registry', () => {
  it('registers every file in fixtures/files, each under 20 KB and with a reason', () => {
    const directory = path.dirname(fixturePath('lf'));
    const registered = Object.values(FIXTURES).map((fixture) => path.relative(directory, fixture.file));
    expect([...registered].sort()).toEqual(fs.readdirSync(directory).sort());
    for (const [name, fixture] of Object.entries(FIXTURES)) {
      expect(fs.statSync(fixture.file).size, name).toBeLessThan(20 * 1024);
      expect(fixture.why.length, name).toBeGreaterThan(20);
    }
  });
});
