/**
 * Hostile contents: files growing, shrinking, replaced or deleted while they are read (a racing
 * writer thread), a sparse 10 GB file, a single 100 MB line, a NUL byte only after the 8 KB
 * sniff window, invalid UTF-8 (bad bytes, overlong forms, encoded surrogates), UTF-16 with and
 * without a BOM, mixed line endings, terminal escapes, and windows past either end.
 */
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine, type ReadRequest, type ReadResult } from '../../src/index.js';
import { writeGeneratedLines } from '../support/generated-file.js';
import { removeTempDir, writeFile } from '../support/temp-dir.js';
import { answerOf, check, expectNoLeak, expectServing, hostileWorkspace, textIs, type Expected, type HostileWorkspace } from './harness.js';

let ws: HostileWorkspace;
let engine: Engine;

const GiB = 1024 ** 3;
const utf16 = (text: string, bom: 'le' | 'be' | null) => {
  const body = Buffer.from(text, 'utf16le');
  if (bom === 'be') body.swap16();
  return bom === null ? body : Buffer.concat([Buffer.from(bom === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]), body]);
};

beforeAll(async () => {
  ws = hostileWorkspace();
  const at = (name: string, content: string | Uint8Array) => writeFile(ws.root, name, content);
  fs.truncateSync(at('sparse-10g.txt', ''), 10 * GiB);
  const head = at('sparse-text-head.txt', 'a text head, then a 5 GB hole\n');
  fs.truncateSync(head, 5 * GiB);
  // One 100 MB line, written in 1 MB blocks.
  const fd = fs.openSync(path.join(ws.root, 'one-line-100mb.txt'), 'w');
  const block = Buffer.alloc(1024 ** 2, 'x');
  for (let i = 0; i < 100; i++) fs.writeSync(fd, block);
  fs.closeSync(fd);
  at('nul-after-sniff.txt', Buffer.concat([Buffer.from('line of text\n'.repeat(700)), Buffer.from([0]), Buffer.from('after\n')]));
  at('nul-only.txt', Buffer.alloc(4096));
  at('invalid-utf8.txt', Buffer.from([0x61, 0xc3, 0x28, 0x62, 0x0a]));
  at('overlong-slash.txt', Buffer.from([0x2e, 0x2e, 0xc0, 0xaf, 0x0a]));
  at('encoded-surrogate.txt', Buffer.from([0xed, 0xa0, 0x80, 0x0a]));
  at('utf16le-bom.txt', utf16('h\u00e9llo\nw\u00f6rld\n', 'le'));
  at('utf16be-bom.txt', utf16('h\u00e9llo\nw\u00f6rld\n', 'be'));
  at('utf16le-no-bom.txt', utf16('hello\nworld\n', null));
  at('utf8-bom.txt', '\ufeffbom\n');
  at('mixed-endings.txt', 'a\r\nb\nc\rd\n');
  at('cr-only.txt', 'a\rb\rc');
  at('escapes.txt', '\u001b[31mred\u001b[0m\u0007\n');
  at('empty.txt', '');
  at('many-empty-lines.txt', '\n'.repeat(1_000_000));
  writeGeneratedLines(path.join(ws.root, 'lines.txt'), 50_000, (n) => `line ${n}`);
  engine = await createEngine({ root: ws.root, threads: 1 });
});

afterAll(async () => {
  await engine.close();
  removeTempDir(ws.base);
});

const text = (check: (result: Extract<ReadResult, { kind: 'text' }>) => void) => (result: ReadResult) => {
  expect(result.kind).toBe('text');
  if (result.kind === 'text') check(result);
};

const rows: readonly [name: string, request: ReadRequest, expected: Expected, deadlineMs?: number][] = [
  ['a sparse 10 GB file (over maxFileBytes)', { path: 'sparse-10g.txt' }, 'file_too_large'],
  ['a sparse 10 GB file with allowBinary (over maxBinaryBytes)', { path: 'sparse-10g.txt', allowBinary: true }, 'file_too_large'],
  ['a sparse 5 GB file with a text head (over maxFileBytes)', { path: 'sparse-text-head.txt' }, 'file_too_large'],
  [
    'a single 100 MB line: cut at 2000 characters, counted whole',
    { path: 'one-line-100mb.txt' },
    text((r) => {
      expect(r.totalLines).toBe(1);
      expect(r.content.startsWith(`1\t${'x'.repeat(2000)}`)).toBe(true);
      expect(r.content.length).toBeLessThan(2200);
    }),
    20_000,
  ],
  [
    'a single 100 MB line by column 50 000 000',
    { path: 'one-line-100mb.txt', offset: 1, column: 50_000_000 },
    text((r) => expect(r.content).toMatch(/^1\tx+/)),
    20_000,
  ],
  ['a NUL byte only after the 8 KB sniff window', { path: 'nul-after-sniff.txt' }, 'binary_file'],
  ['only NUL bytes', { path: 'nul-only.txt' }, 'binary_file'],
  ['invalid UTF-8 (C3 28): replaced, never thrown', { path: 'invalid-utf8.txt' }, textIs('1\ta\ufffd(b')],
  ['an overlong encoding of "/" (C0 AF): replaced, never a separator', { path: 'overlong-slash.txt' }, textIs('1\t..\ufffd\ufffd')],
  ['an encoded lone surrogate (ED A0 80)', { path: 'encoded-surrogate.txt' }, textIs('1\t\ufffd\ufffd\ufffd')],
  ['UTF-16LE with a BOM: decoded', { path: 'utf16le-bom.txt' }, textIs('1\th\u00e9llo\n2\tw\u00f6rld')],
  ['UTF-16BE with a BOM: decoded', { path: 'utf16be-bom.txt' }, textIs('1\th\u00e9llo\n2\tw\u00f6rld')],
  ['UTF-16LE without a BOM: NUL bytes, so binary', { path: 'utf16le-no-bom.txt' }, 'binary_file'],
  ['a UTF-8 BOM: dropped from the first line', { path: 'utf8-bom.txt' }, textIs('1\tbom')],
  ['mixed CRLF, LF and CR line endings', { path: 'mixed-endings.txt' }, textIs('1\ta\n2\tb\n3\tc\n4\td')],
  ['CR-only line endings', { path: 'cr-only.txt' }, textIs('1\ta\n2\tb\n3\tc')],
  ['terminal escapes and BEL, returned as the bytes say', { path: 'escapes.txt' }, textIs('1\t\u001b[31mred\u001b[0m\u0007')],
  ['an empty file: a notice, no lines', { path: 'empty.txt' }, text((r) => expect([r.content, r.totalLines, r.notice]).toEqual(['', 0, '[The file exists but is empty (0 lines).]']))],
  ['a million empty lines, the last one by offset -1', { path: 'many-empty-lines.txt', offset: -1 }, text((r) => expect([r.startLine, r.totalLines]).toEqual([1_000_000, 1_000_000]))],
  ['an offset far past the end', { path: 'lines.txt', offset: 9_000_000_000 }, text((r) => expect([r.content, r.totalLines]).toEqual(['', 50_000]))],
  ['a negative offset far past the start', { path: 'lines.txt', offset: -9_000_000_000, limit: 2 }, textIs('1\tline 1\n2\tline 2')],
  ['the largest safe limit', { path: 'lines.txt', offset: 49_999, limit: Number.MAX_SAFE_INTEGER }, textIs('49999\tline 49999\n50000\tline 50000')],
];

describe('contents', () => {
  for (const [name, request, expected, deadlineMs] of rows) {
    it(`${name}: ${request.path} -> ${typeof expected === 'string' ? expected : 'safe result'}`, async () => {
      await check(engine, request, expected, deadlineMs ?? 5000);
    });
  }
});

/** What a racing writer does to `file` over and over until told to stop. */
type Mutation = 'grow' | 'shrink' | 'replace' | 'delete';

function startWriter(file: string, mutation: Mutation): { stop: () => Promise<void> } {
  const stopBuffer = new SharedArrayBuffer(4);
  const worker = new Worker(
    `const fs = require('node:fs');
     const { workerData: w } = require('node:worker_threads');
     const flag = new Int32Array(w.stop);
     const body = 'line of the original\\n'.repeat(200000);
     let i = 0;
     while (Atomics.load(flag, 0) === 0) {
       i++;
       try {
         if (w.mutation === 'grow') fs.appendFileSync(w.file, 'appended line\\n'.repeat(100));
         else if (w.mutation === 'shrink') { if (i % 2) fs.truncateSync(w.file, 1000); else fs.writeFileSync(w.file, body); }
         else if (w.mutation === 'replace') { fs.writeFileSync(w.file + '.new', body.replace(/original/g, 'replaced')); fs.renameSync(w.file + '.new', w.file); }
         else { fs.rmSync(w.file, { force: true }); fs.writeFileSync(w.file, body); }
       } catch {}
     }`,
    { eval: true, workerData: { file, mutation, stop: stopBuffer } },
  );
  return {
    // The writer finishes the change in hand and exits: terminating it instead could stop it
    // between a delete and its rewrite, and leave no file for the check that follows.
    stop: async () => {
      const exited = once(worker, 'exit');
      Atomics.store(new Int32Array(stopBuffer), 0, 1);
      await exited;
    },
  };
}

/**
 * Each mutation's possible answers: the read either saw one consistent version (its lines are
 * lines some version had) or says which way the race went. Never a mix, a hang, or a throw.
 */
/** Every line any version of a racing file holds. */
const WRITTEN = ['line of the original', 'line of the replaced', 'appended line'];

const races: readonly [Mutation, readonly string[]][] = [
  ['grow', ['text', 'changed_during_read']],
  ['shrink', ['text', 'changed_during_read']],
  ['replace', ['text', 'changed_during_read']],
  ['delete', ['text', 'changed_during_read', 'not_found']],
];

describe('contents changing during the read (a racing writer thread)', () => {
  for (const [mutation, allowed] of races) {
    it(`a file ${mutation === 'delete' ? 'deleted and rewritten' : mutation === 'replace' ? 'replaced by rename' : mutation === 'grow' ? 'growing' : 'shrinking and regrowing'} during 40 reads -> one of ${allowed.join(', ')}, each consistent`, async () => {
      const name = `racing-${mutation}.txt`;
      const file = writeFile(ws.root, name, 'line of the original\n'.repeat(200_000));
      const writer = startWriter(file, mutation);
      const seen = new Set<string>();
      try {
        for (let i = 0; i < 40; i++) {
          const answer = await answerOf(engine, { path: name, offset: -3, limit: 3 }, 10_000);
          expectNoLeak(answer.ok ? answer.result : answer.error);
          seen.add(answer.ok ? answer.result.kind : answer.error.code);
          if (answer.ok && answer.result.kind === 'text') {
            // Every line shown is a line some version had (a truncation may end one early): no torn mix.
            for (const line of answer.result.content.split('\n')) {
              const body = line.replace(/^-?\d+\t/, '');
              expect(WRITTEN.some((written) => written.startsWith(body)), line).toBe(true);
            }
          }
        }
      } finally {
        await writer.stop();
      }
      for (const what of seen) expect(allowed).toContain(what);
      await check(engine, { path: name, limit: 1, fresh: true }, (result) => expect(result.kind).toBe('text'));
      await expectServing(engine);
    });
  }
});
