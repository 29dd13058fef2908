import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import xxhash, { type XXHashAPI } from 'xxhash-wasm';
import { createEngine, type ReadRequest, type TextResult } from '../src/index.js';
import { createReaderContext } from '../src/io/reader-context.js';
import { INDEX_EVERY, createReadTools, readFile } from '../src/io/read-file.js';
import { writeGeneratedLines } from './support/generated-file.js';
import { textJob } from './support/text-job.js';
import { makeTempDir, removeTempDir } from './support/temp-dir.js';
import { compileDenyRules } from '../src/core/deny-rules.js';
import { PIECE_CHARS } from '../src/core/slice-result.js';
import { decodeOutcome, encodeOutcome } from '../src/wire.js';
import { asText } from './support/text-result.js';

const LOG_LINES = 120_000;
const MIXED_LINES = 30_000;
const CUT = / … \[line cut after (\d+) characters; the whole line is (\d+) bytes\]$/;

/** Line n of the log: 99 characters, so 100 bytes with its LF; 12 MB in all. */
const logLine = (n: number) => `${String(n).padStart(7, '0')} INFO handled /api/items/${n % 977}`.padEnd(99, '.');

/**
 * Line n of the mixed file: short, empty, multibyte and, every 997th, longer than the 2000
 * characters a default read shows, so pages meet cuts and budgets at every kind of line.
 */
function mixedLine(n: number): string {
  if (n % 997 === 0) return `long ${n} `.padEnd(2500 + (n % 7) * 300, 'é日x');
  if (n % 13 === 0) return '';
  if (n % 5 === 0) return `línea ${n}: ${'日本語 😀 '.repeat(n % 9)}`;
  return `line ${n} ${'abc '.repeat(n % 40)}`;
}

const CRLF_LINES = 40_000;
/**
 * Line n of the CR LF log, its CR included (the writer adds the LF): 100 bytes with its break,
 * but the first 77, so that the byte at 1 MiB, where a scan's 256 KiB reads meet, falls between
 * the CR and the LF of line 10 486 (77 + 100 * 10 484 bytes before it, its CR at 98).
 */
const crlfLine = (n: number) => `${n === 1 ? 'first'.padEnd(75, '-') : `${String(n).padStart(7, '0')} WARN retry ${n % 31}`.padEnd(98, ' ')}\r`;
const CRLF_SPLIT_LINE = 10_486;

/** One line of about 6 MB with no break, mixing 1-, 2-, 3- and 4-byte characters. */
const SINGLE_LINE = Array.from({ length: 150_000 }, (_, i) => `var v${i}="é";/*日😀*/`).join('');

let root = '';
let hasher: XXHashAPI;

/**
 * Engines here trust a version at once (settleMs 0): the files are written before any read, and
 * the facts of a scan (total, hash, line index) are what lets the pages after it seek.
 */
const openEngine = () => createEngine({ root, settleMs: 0 });

/** Reads with an engine of its own, closed afterwards: nothing of an earlier read is cached. */
async function readFresh(request: ReadRequest): Promise<TextResult> {
  const engine = await openEngine();
  try {
    return asText(await engine.read(request));
  } finally {
    await engine.close();
  }
}

function xxh64Of(file: string): string {
  return hasher.h64Raw(fs.readFileSync(path.join(root, file))).toString(16).padStart(16, '0');
}

beforeAll(async () => {
  root = makeTempDir();
  writeGeneratedLines(path.join(root, 'app.log'), LOG_LINES, logLine);
  writeGeneratedLines(path.join(root, 'mixed.txt'), MIXED_LINES, mixedLine);
  writeGeneratedLines(path.join(root, 'crlf.log'), CRLF_LINES, crlfLine);
  fs.writeFileSync(path.join(root, 'bundle.min.js'), SINGLE_LINE);
  hasher = await xxhash();
});

afterAll(() => removeTempDir(root));

describe('a read far into a large log, then the page after it', () => {
  it('shows the right lines with the exact total and the xxh64 of the whole file, then seeks to the next page', async () => {
    const engine = await openEngine();
    try {
      const tail = asText(await engine.read({ path: 'app.log', offset: LOG_LINES - 1000 }));
      expect(tail).toMatchObject({ startLine: LOG_LINES - 1000, totalLines: LOG_LINES, xxh64: xxh64Of('app.log') });
      const shown = tail.content.split('\n');
      expect(shown).toEqual(Array.from({ length: shown.length }, (_, i) => `${LOG_LINES - 1000 + i}\t${logLine(LOG_LINES - 1000 + i)}`));
      // The default budget of 25 000 tokens holds fewer than the 1001 lines left.
      if (tail.truncated === false) throw new Error('expected the default budget to stop the page');
      expect(tail.truncated).toEqual({ reason: 'tokens', nextOffset: tail.endLine + 1 });

      const next = asText(await engine.read({ path: 'app.log', offset: tail.truncated.nextOffset }));
      // The page after was read ahead as this one was answered (its budget ended it, see
      // read-ahead.ts), a seek that only a file with a line index gets, and the reader joined it
      // instead of reading again.
      const { lineIndex, readAhead } = engine.stats().cache;
      expect(readAhead.pages).toBe(1);
      expect(lineIndex.hits).toBe(0);
      expect(next).toMatchObject({ startLine: tail.endLine + 1, endLine: LOG_LINES, totalLines: LOG_LINES, truncated: false });
      expect(next.xxh64).toBe(tail.xxh64);
      expect(next.content.split('\n').at(-1)).toBe(`${LOG_LINES}\t${logLine(LOG_LINES)}`);
    } finally {
      await engine.close();
    }
  });

  it('gives the same page, totals and notice from a seek as from a fresh full scan', async () => {
    const engine = await openEngine();
    try {
      await engine.read({ path: 'app.log' });
      // Not past the end: a seek there reads no bytes, so its lineEnding says 'none' where a
      // scan's describes the file (as it did before the scan was split).
      for (const offset of [2, 999, 1001, 55_555, LOG_LINES - 1000, LOG_LINES]) {
        const sought = asText(await engine.read({ path: 'app.log', offset, limit: 1500 }));
        expect(sought, `offset ${offset}`).toEqual(await readFresh({ path: 'app.log', offset, limit: 1500 }));
      }
      expect(engine.stats().cache.lineIndex.hits).toBe(6);
    } finally {
      await engine.close();
    }
  });
});

describe('the line index a scan leaves behind', () => {
  it('records the start of every 1000th line, whether the window took its lines as regions or one by one', () => {
    const context = createReaderContext({ roots: [root], deny: compileDenyRules({ denySecrets: false, deny: [] }), maxFileBytes: 1024 ** 3, maxBinaryBytes: 1024 ** 2 });
    const tools = createReadTools(hasher);
    // A small budget stops a region at its first line over it; a large one takes whole regions.
    for (const [offset, maxTokens] of [[1, 100_000], [1500, 100_000], [1500, 2000], [LOG_LINES - 1000, 25_000]] as const) {
      const job = textJob(path.join(root, 'app.log'), { offset, maxBytes: 1024 ** 2, maxTokens });
      const result = readFile(context, tools, job, () => null);
      if (result.kind !== 'text' || result.index === null) throw new Error('expected a text payload with a line index');
      // Line n of the log starts at byte 100 * (n - 1); one entry every INDEX_EVERY lines.
      const expected = Array.from({ length: LOG_LINES / INDEX_EVERY + 1 }, (_, k) => [1 + k * INDEX_EVERY, k * INDEX_EVERY * 100]).flat();
      expect(Array.from(result.index), `offset ${offset}, maxTokens ${maxTokens}`).toEqual(expected);
    }
  });
});

describe('a long window across the thread hop', () => {
  it('goes as pieces under V8\'s large-object size and arrives as the same content, however it was read', () => {
    const context = createReaderContext({ roots: [root], deny: compileDenyRules({ denySecrets: false, deny: [] }), maxFileBytes: 1024 ** 3, maxBinaryBytes: 1024 ** 2 });
    const tools = createReadTools(hasher);
    // A whole scan, a tail read, and a short window that stays one string.
    for (const [offset, limit] of [[1, 2000], [-1500, 1500], [1, 100]] as const) {
      const job = textJob(path.join(root, 'app.log'), { offset, limit, maxBytes: 1024 ** 2, maxTokens: 1024 ** 2 });
      const payload = readFile(context, tools, job, () => null);
      if (payload.kind !== 'text') throw new Error('expected a text payload');
      const wire = encodeOutcome({ ok: true, value: payload }, job.path);
      const sent = wire[0] === 0 ? wire[7] : null;
      const where = `offset ${offset}, limit ${limit}`;
      if (payload.content.length > PIECE_CHARS) {
        expect(Array.isArray(sent), where).toBe(true);
        for (const piece of sent as string[]) expect(piece.length, where).toBeLessThanOrEqual(PIECE_CHARS);
      } else {
        expect(sent, where).toBe(payload.content);
      }
      // Structured clone, as the thread hop does, then the host's decoding.
      const decoded = decodeOutcome(structuredClone(wire), job.path);
      expect(decoded, where).toEqual({ ok: true, value: payload });
    }
  });
});

describe('pages of a large file of mixed lines', () => {
  it('shows every line once across the pages, whole or as a marked prefix, each page equal to a fresh scan of it', async () => {
    const engine = await openEngine();
    try {
      const seen: string[] = [];
      let offset = 1;
      for (let page = 0; ; page++) {
        const result = asText(await engine.read({ path: 'mixed.txt', offset }));
        expect(result).toMatchObject({ startLine: offset, totalLines: MIXED_LINES, xxh64: xxh64Of('mixed.txt') });
        // A few pages, spread over the file, against an engine that has to scan for them.
        if (page % 7 === 3) expect(await readFresh({ path: 'mixed.txt', offset }), `offset ${offset}`).toEqual(result);
        seen.push(...result.content.split('\n'));
        if (result.truncated === false) break;
        offset = result.truncated.nextOffset;
      }
      expect(seen).toHaveLength(MIXED_LINES);
      seen.forEach((shown, index) => {
        const line = mixedLine(index + 1);
        const marker = CUT.exec(shown);
        const prefix = `${index + 1}\t`;
        if (marker === null) expect(shown).toBe(prefix + line);
        else {
          expect(line.startsWith(shown.slice(prefix.length, marker.index))).toBe(true);
          expect(Number(marker[2])).toBe(Buffer.byteLength(line));
        }
      });
    } finally {
      await engine.close();
    }
  });
});

describe('a large file with CR LF breaks', () => {
  it('counts, numbers and indexes its lines across a CR LF split between two reads, each page equal to a fresh scan', async () => {
    const bytes = fs.readFileSync(path.join(root, 'crlf.log'));
    expect([bytes[1024 * 1024 - 1], bytes[1024 * 1024]]).toEqual([0x0d, 0x0a]);
    const engine = await openEngine();
    try {
      const first = asText(await engine.read({ path: 'crlf.log', limit: 10 }));
      expect(first).toMatchObject({ totalLines: CRLF_LINES, lineEnding: 'crlf', xxh64: xxh64Of('crlf.log') });
      for (const offset of [CRLF_SPLIT_LINE - 1, CRLF_SPLIT_LINE, CRLF_SPLIT_LINE + 1, 30_001, CRLF_LINES - 1]) {
        const sought = asText(await engine.read({ path: 'crlf.log', offset, limit: 3 }));
        expect(sought, `offset ${offset}`).toEqual(await readFresh({ path: 'crlf.log', offset, limit: 3 }));
        const lines = Array.from({ length: Math.min(3, CRLF_LINES - offset + 1) }, (_, i) => `${offset + i}\t${crlfLine(offset + i).slice(0, -1)}`);
        expect(sought.content, `offset ${offset}`).toBe(lines.join('\n'));
      }
      expect(engine.stats().cache.lineIndex.hits).toBe(5);
    } finally {
      await engine.close();
    }
  });
});

describe('a file of one line several MB long', () => {
  it('shows its first 2000 characters with a cut marker by default, with the total and hash of the whole file', async () => {
    const result = await readFresh({ path: 'bundle.min.js' });
    const marker = ` … [line cut after 2000 characters; the whole line is ${Buffer.byteLength(SINGLE_LINE)} bytes]`;
    expect(result.content).toBe(`1\t${SINGLE_LINE.slice(0, 2000)}${marker}`);
    expect(result).toMatchObject({ startLine: 1, endLine: 1, totalLines: 1, cutLines: 1, xxh64: xxh64Of('bundle.min.js') });
  });

  it('reads back the whole line, piece by piece, when following nextColumn', async () => {
    const engine = await openEngine();
    try {
      const pieces: string[] = [];
      let column = 1;
      for (let reads = 0; reads < 200; reads++) {
        const result = asText(await engine.read({ path: 'bundle.min.js', offset: 1, column }));
        pieces.push(result.content.slice('1\t'.length));
        if (result.truncated === false) break;
        expect(result.truncated).toMatchObject({ reason: 'line-length', nextOffset: 1 });
        if (!('nextColumn' in result.truncated)) throw new Error('a column read stops with nextColumn');
        column = result.truncated.nextColumn;
      }
      expect(pieces.join('')).toBe(SINGLE_LINE);
    } finally {
      await engine.close();
    }
  });
});
