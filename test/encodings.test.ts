import { Buffer } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeLegacy, LEGACY_TEXTS as TEXTS } from '../fixtures/legacy-encode.js';
import { decodingOf } from '../src/core/sniff.js';
import { encodingOf } from '../src/core/text-encodings.js';
import { createEngine, type Engine } from '../src/index.js';
import { createTools } from '../src/tools.js';
import { CLI } from './support/cli-bin.js';
import { expectReadError } from './support/read-error.js';
import { makeTempDir, removeTempDir, writeFile } from './support/temp-dir.js';
import { asText, numberedLines as numbered } from './support/text-result.js';

type Language = keyof typeof TEXTS;
const NAMES: Record<Language, string> = { gb18030: 'GB18030', shift_jis: 'Shift_JIS', 'euc-kr': 'EUC-KR', 'windows-1251': 'Windows-1251' };

let root = '';
let engine: Engine;

/** Lines `1..count` of a language's text, repeated, each numbered in the text so pages can be told apart. */
function manyLines(language: Language, count: number): string[] {
  const text = TEXTS[language];
  return Array.from({ length: count }, (_, i) => `${i + 1}: ${text[i % text.length] ?? ''}`);
}

beforeAll(async () => {
  root = makeTempDir();
  for (const language of Object.keys(TEXTS) as Language[]) {
    writeFile(root, `${language}.txt`, encodeLegacy(`${TEXTS[language].join('\n')}\n`, language));
  }
  // "café crème" in Latin-1: two bytes outside ASCII are too few to tell an encoding by.
  writeFile(root, 'few-bytes.txt', Buffer.from('caf\xe9 cr\xe8me\nsecond line\n', 'latin1'));
  engine = await createEngine({ root, threads: 2 });
});

afterAll(async () => {
  await engine.close();
  removeTempDir(root);
});

describe('files in a legacy encoding', () => {
  it.each(Object.keys(TEXTS) as Language[])('decodes a %s file and says which encoding it is in, and to keep it when writing back', async (language) => {
    const result = asText(await engine.read({ path: `${language}.txt` }));
    expect(result.encoding).toBe(language);
    expect(result.invalidUtf8).toBe(false);
    expect(result.content).toBe(numbered(TEXTS[language]));
    expect(result.totalLines).toBe(TEXTS[language].length);
    expect(result.notice).toBe(
      `[This file is in ${NAMES[language]}, not UTF-8 (recognised from its first bytes), and is shown decoded. Keep it in ${NAMES[language]} when you write it back.]`,
    );
  });

  it('decodes a large file across its read chunks, pages through it, and reads its tail with exact numbers', async () => {
    // About 2.9 MB of GB18030: several 256 KiB chunks, each ending anywhere in a two-byte character.
    const lines = manyLines('gb18030', 30_000);
    writeFile(root, 'large-gb18030.txt', encodeLegacy(`${lines.join('\n')}\n`, 'gb18030'));
    const first = asText(await engine.read({ path: 'large-gb18030.txt', limit: 100 }));
    expect(first.encoding).toBe('gb18030');
    expect(first.totalLines).toBe(30_000);
    expect(first.content).toBe(numbered(lines.slice(0, 100)));
    expect(first.notice).toContain('Call read with offset=101 to continue.');
    expect(first.notice).toContain('This file is in GB18030');
    const middle = asText(await engine.read({ path: 'large-gb18030.txt', offset: 17_001, limit: 50 }));
    expect(middle.content).toBe(numbered(lines.slice(17_000, 17_050), 17_001));
    const tail = asText(await engine.read({ path: 'large-gb18030.txt', offset: -3 }));
    expect(tail.encoding).toBe('gb18030');
    expect(tail.startLine).toBe(29_998);
    expect(tail.content).toBe(numbered(lines.slice(-3), 29_998));
  });

  it('reads a long legacy-encoded line by column, with the encoding named in the notice', async () => {
    const line = TEXTS.gb18030[0].repeat(200);
    writeFile(root, 'long-line-gb18030.txt', encodeLegacy(`${line}\nshort\n`, 'gb18030'));
    const piece = asText(await engine.read({ path: 'long-line-gb18030.txt', offset: 1, column: 5001, maxBytes: 4096 }));
    expect(piece.encoding).toBe('gb18030');
    const shown = piece.content.slice('1\t'.length);
    expect(shown.length).toBeGreaterThan(0);
    expect(line.slice(5000, 5000 + shown.length)).toBe(shown);
    expect(piece.notice).toContain(`Call read with offset=1, column=${5001 + shown.length} to continue along this line.`);
    expect(piece.notice).toContain('This file is in GB18030');
  });

  it('refuses a legacy-encoded file as binary at its first NUL byte, wherever it is', async () => {
    const text = encodeLegacy(`${manyLines('shift_jis', 400).join('\n')}\n`, 'shift_jis');
    const at = 20_000; // past the 8 KiB sniff
    writeFile(root, 'nul-shift_jis.txt', Buffer.concat([text.subarray(0, at), Buffer.of(0), text.subarray(at)]));
    const error = await expectReadError(engine.read({ path: 'nul-shift_jis.txt' }), 'binary_file');
    expect(error.details.nulAt).toBe(at);
  });
});

describe('files that are not valid UTF-8 in no recognised encoding', () => {
  it('shows the bytes that are not UTF-8 as U+FFFD, flags the result and says how to get the bytes', async () => {
    const result = asText(await engine.read({ path: 'few-bytes.txt' }));
    expect(result.encoding).toBe('utf-8');
    expect(result.invalidUtf8).toBe(true);
    expect(result.content).toBe('1\tcaf\uFFFD cr\uFFFDme\n2\tsecond line');
    expect(result.notice).toBe(
      '[This file is not valid UTF-8 and its encoding was not recognised: its bytes that are not UTF-8 are shown as \uFFFD. ' +
        'If you know its encoding, call read again with encoding set to it (for example encoding: "shift_jis"); ' +
        'if it is binary data, with allowBinary: true to receive its bytes as base64.]',
    );
  });

  it('reads valid UTF-8, however much of it lies outside ASCII, as UTF-8 with no notice', async () => {
    const lines = ['naïve café — 本文件 — このファイル — 이 파일 — Этот файл', 'second line'];
    writeFile(root, 'utf8.txt', `${lines.join('\n')}\n`);
    const result = asText(await engine.read({ path: 'utf8.txt' }));
    expect(result.encoding).toBe('utf-8');
    expect(result.invalidUtf8).toBe(false);
    expect(result.content).toBe(numbered(lines));
    expect(result.notice).toBeNull();
  });
});

describe('encodingOf, on the first bytes of a file', () => {
  it('takes a valid UTF-8 start cut inside its last character for UTF-8', () => {
    // 65 536 bytes of "aé…": the 64 KiB sample ends one byte into a two-byte character.
    const bytes = Buffer.from(`a${'é'.repeat(40_000)}`, 'utf8');
    expect(encodingOf(bytes, false)).toEqual({ encoding: 'utf-8', invalidUtf8: false });
    // The same cut in a file that ends there is a broken last character.
    expect(encodingOf(bytes.subarray(0, 65_536), true)).toEqual({ encoding: 'utf-8', invalidUtf8: true });
  });

  it('recognises each legacy encoding from a paragraph, and gives up on a few stray bytes', () => {
    for (const language of Object.keys(TEXTS) as Language[]) {
      expect(encodingOf(encodeLegacy(TEXTS[language].join('\n'), language), true).encoding).toBe(language);
    }
    expect(encodingOf(Buffer.from('r\xe9sum\xe9', 'latin1'), true)).toEqual({ encoding: 'utf-8', invalidUtf8: true });
  });
});

describe('a request that names the decoding', () => {
  it('decodes a file in the encoding it names, and says so', async () => {
    const result = asText(await engine.read({ path: 'few-bytes.txt', encoding: 'windows-1252' }));
    expect(result.encoding).toBe('windows-1252');
    expect(result.invalidUtf8).toBe(false);
    expect(result.content).toBe('1\tcafé crème\n2\tsecond line');
    expect(result.notice).toBe('[Decoded from Windows-1252, as asked. Keep the file in Windows-1252 when you write it back.]');
  });

  it('decodes a page of an indexed UTF-8 file in the encoding named, not through the index', async () => {
    // 1.8 MB of ASCII: scanned whole once, its line index lets later pages seek, as UTF-8
    // (at once: with settleMs 0 a version is trusted as soon as it is read).
    const lines = Array.from({ length: 30_000 }, (_, i) => `line ${i + 1} of an ASCII log, long enough to pass a mebibyte`);
    writeFile(root, 'indexed.log', `${lines.join('\n')}\n`);
    const seeking = await createEngine({ root, threads: 2, settleMs: 0 });
    try {
      expect(asText(await seeking.read({ path: 'indexed.log', limit: 1 })).totalLines).toBe(30_000);
      expect(seeking.stats().cache.lineIndex.versions).toBe(1);
      const page = asText(await seeking.read({ path: 'indexed.log', offset: 20_001, limit: 2, encoding: 'windows-1252' }));
      expect(page.encoding).toBe('windows-1252');
      expect(page.content).toBe(numbered(lines.slice(20_000, 20_002), 20_001));
      const seeks = seeking.stats().cache.lineIndex.hits;
      expect(asText(await seeking.read({ path: 'indexed.log', offset: 20_001, limit: 2 })).encoding).toBe('utf-8');
      expect(seeking.stats().cache.lineIndex.hits).toBe(seeks + 1);
    } finally {
      await seeking.close();
    }
  });

  it('reads a legacy-encoded file as UTF-8 when asked to, and names the call that recognises it', async () => {
    const result = asText(await engine.read({ path: 'gb18030.txt', encoding: 'utf-8' }));
    expect(result.encoding).toBe('utf-8');
    expect(result.invalidUtf8).toBe(true);
    expect(result.content).toBe(numbered(encodeLegacy(TEXTS.gb18030.join('\n'), 'gb18030').toString('utf8').split('\n')));
    expect(result.notice).toBe('[This file is not valid UTF-8: its bytes that are not UTF-8 are shown as \uFFFD. Call read with encoding: "auto" to have its encoding recognised, or name it.]');
    // Its own cache entry: the default read of the same file still decodes it.
    expect(asText(await engine.read({ path: 'gb18030.txt' })).encoding).toBe('gb18030');
  });

  it('refuses an encoding it does not know, naming the ones it does', async () => {
    const error = await expectReadError(engine.read({ path: 'gb18030.txt', encoding: 'ebcdic' as never }), 'invalid_request');
    expect(error.message).toContain('encoding: must be auto, utf-8 or one of gb18030, big5, shift_jis,');
    expect(error.message).toContain('(or a label of one, like GBK, latin1 or Shift-JIS)');
  });

  it('takes the labels models use for an encoding (GBK, latin1, UTF-8, Shift-JIS), in any case', async () => {
    // A caller from JSON (a model, a host's tool call) may send any string: not only the names the type lists.
    const read = (path: string, encoding: string) => engine.read({ path, encoding: encoding as never });
    const gbk = asText(await read('gb18030.txt', 'GBK'));
    expect(gbk.encoding).toBe('gb18030');
    expect(gbk.content).toBe(asText(await engine.read({ path: 'gb18030.txt', encoding: 'gb18030' })).content);
    expect(gbk.notice).toBe('[Decoded from GB18030, as asked. Keep the file in GB18030 when you write it back.]');
    expect(asText(await read('few-bytes.txt', 'latin1')).content).toBe('1\tcafé crème\n2\tsecond line');
    expect(asText(await read('shift_jis.txt', ' Shift-JIS ')).encoding).toBe('shift_jis');
    const utf8 = asText(await read('gb18030.txt', 'UTF-8'));
    expect([utf8.encoding, utf8.invalidUtf8]).toEqual(['utf-8', true]);
  });
});

describe('decodingOf, on the names callers give', () => {
  it('gives each name as it is, and each WHATWG label of one as its name', () => {
    for (const name of ['auto', 'utf-8', 'gb18030', 'shift_jis', 'windows-1252', 'koi8-r']) expect(decodingOf(name)).toBe(name);
    const labels: Record<string, string> = {
      'UTF-8': 'utf-8', utf8: 'utf-8', AUTO: 'auto', GBK: 'gb18030', gb2312: 'gb18030', 'x-gbk': 'gb18030', latin1: 'windows-1252',
      'ISO-8859-1': 'windows-1252', ascii: 'windows-1252', cp1252: 'windows-1252', cp1251: 'windows-1251', ' Shift-JIS ': 'shift_jis',
      sjis: 'shift_jis', 'windows-31j': 'shift_jis', 'big5-hkscs': 'big5', 'ks_c_5601-1987': 'euc-kr', 'x-euc-jp': 'euc-jp',
    };
    for (const [label, name] of Object.entries(labels)) expect(decodingOf(label), label).toBe(name);
  });

  it('gives null for what names no encoding readpool decodes', () => {
    // UTF-16 is read by its BOM only; ISO-8859-15 and the Mac encodings are not among the decodings.
    for (const name of ['ebcdic', 'utf-16', 'UTF-16LE', 'iso-8859-15', 'x-mac-cyrillic', '', ' ', 'a'.repeat(100), 42, null, undefined, {}]) {
      expect(decodingOf(name), JSON.stringify(name) ?? 'undefined').toBeNull();
    }
  });
});

describe("readpool's own tool", () => {
  it('shows the encodings by name in its schema, and takes a label of one', async () => {
    const [read] = createTools(engine, 'readpool');
    const properties = (read?.inputSchema as { properties: Record<string, { enum?: string[] }> }).properties;
    expect(properties.encoding?.enum?.slice(0, 3)).toEqual(['auto', 'utf-8', 'gb18030']);
    const output = await read?.execute({ path: 'gb18030.txt', encoding: 'GB2312' });
    const text = output?.content.map((part) => (part.type === 'text' ? part.text : '')).join('') ?? '';
    expect(output?.isError ?? false).toBe(false);
    expect(text).toContain(TEXTS.gb18030[0]);
    expect(text).toContain('Decoded from GB18030, as asked.');
  });
});

describe('the dialects, which stand in for tools that read UTF-8 only', () => {
  it('show a legacy-encoded file as those tools do: UTF-8 with U+FFFD', async () => {
    const [readFile] = createTools(engine, 'gemini-cli');
    const output = await readFile?.execute({ absolute_path: `${root}/gb18030.txt` });
    const text = output?.content.map((part) => (part.type === 'text' ? part.text : '')).join('') ?? '';
    expect(text).toBe(`${encodeLegacy(TEXTS.gb18030.join('\n'), 'gb18030').toString('utf8')}\n`);
  });
});

describe('readpool read --encoding', () => {
  it('decodes in the encoding named, and refuses a name it does not know with the list', () => {
    const named = spawnSync(process.execPath, [CLI, 'read', 'few-bytes.txt', '--encoding', 'windows-1252'], { cwd: root, encoding: 'utf8', timeout: 30_000 });
    expect(named.status).toBe(0);
    expect(named.stdout).toBe('1\tcafé crème\n2\tsecond line\n\n[Decoded from Windows-1252, as asked. Keep the file in Windows-1252 when you write it back.]\n');
    const unknown = spawnSync(process.execPath, [CLI, 'read', 'few-bytes.txt', '--encoding', 'ebcdic'], { cwd: root, encoding: 'utf8', timeout: 30_000 });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('--encoding must be one of auto, utf-8, gb18030,');
    expect(unknown.stderr).toContain('or a label of one (GBK, latin1, Shift-JIS...)');
    const label = spawnSync(process.execPath, [CLI, 'read', 'few-bytes.txt', '--encoding', 'Latin1'], { cwd: root, encoding: 'utf8', timeout: 30_000 });
    expect(label.status).toBe(0);
    expect(label.stdout).toBe(named.stdout);
  });
});
