/**
 * Seed 002's `read_file` through `createTools(engine, 'comma')`: the exact envelope an agent
 * receives, `{ ok: true, data }` or `{ ok: false, error: { kind, message, ... } }`, as `data` and
 * as the one text part (its JSON). sha256 values are of the fixture files' bytes on disk.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIALECT_NAMES, type ToolOutput } from '../../src/tools.js';
import { useDialectSuite } from '../support/dialect-suite.js';
import { longLines, NOTEBOOK_JSON } from '../support/dialect-workspace.js';
import { writeFile } from '../support/temp-dir.js';

const suite = useDialectSuite('comma');
const { ws, read } = suite;

const SHA = {
  normal: '4fdbc441ea7b546100e086ac1e4fc5ae6749b7314311c99db05be450eca12996',
  long: '8e7127bc87b443f428132ad2f336792457f842d91494cf56e954b81cf6433305',
  longLine: '4a350329b6eacbfe35b3ae949d01e947d914d2136ec5ff6e2786888c65f72b82',
  empty: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  crlf: '9fc4c6bdc7e5374b75e38fa9e1097577399bb74f1ccc33b1712d53a26d02c09a',
  binary: '691030cad8e24b2237f73a1545e3baf7250f38718fd1111362cdcdf5a65d2190',
  notebook: 'f6a526e84714cb219436ef2dabff05dfd51c85000c0798eca2a0e4428d427005',
} as const;

/** The whole output for an envelope: its JSON as the one text part, the envelope as `data`. */
function answer(envelope: { ok: boolean } & Record<string, unknown>): ToolOutput {
  return { content: [{ type: 'text', text: JSON.stringify(envelope) }], isError: !envelope.ok, data: envelope };
}

function sha256Of(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

describe('the read_file tool definition', () => {
  it('is named read_file, with the seed description and a schema of path, startLine, endLine, maxBytes and allowBinary', () => {
    expect(DIALECT_NAMES).toContain('comma');
    expect(suite.tool.name).toBe('read_file');
    expect(suite.tool.description.startsWith('Read the contents of a workspace file and receive a structured payload')).toBe(true);
    expect(suite.tool.description).toContain('re-call with allowBinary: true to receive base64 content.');
    expect(suite.tool.inputSchema).toMatchObject({
      type: 'object',
      required: ['path'],
      additionalProperties: false,
      properties: {
        path: { type: 'string' },
        startLine: { type: 'integer', minimum: 1 },
        endLine: { type: 'integer', minimum: 1 },
        maxBytes: { type: 'integer', minimum: 1 },
        allowBinary: { type: 'boolean' },
      },
    });
  });
});

describe('text through read_file', () => {
  it('returns the whole file with its line metadata and the sha256 of its bytes', async () => {
    expect(await read({ path: 'normal.txt' })).toEqual(
      answer({
        ok: true,
        data: { path: 'normal.txt', encoding: 'utf-8', content: 'alpha\nbeta\ngamma', startLine: 1, endLine: 3, lineCount: 3, truncated: false, bytes: 16, size: 17, sha256: SHA.normal },
      }),
    );
  });

  it('reads the whole of a long file, with no line limit', async () => {
    const out = await read({ path: 'long.txt' });
    expect(out).toEqual(
      answer({
        ok: true,
        data: { path: 'long.txt', encoding: 'utf-8', content: longLines(1, 2500), startLine: 1, endLine: 2500, lineCount: 2500, truncated: false, bytes: 23892, size: 23893, sha256: SHA.long },
      }),
    );
  });

  it('slices lines 50-150 inclusive and still hashes the whole file', async () => {
    expect(await read({ path: 'long.txt', startLine: 50, endLine: 150 })).toEqual(
      answer({
        ok: true,
        data: { path: 'long.txt', encoding: 'utf-8', content: longLines(50, 150), startLine: 50, endLine: 150, lineCount: 2500, truncated: false, bytes: 858, size: 23893, sha256: SHA.long },
      }),
    );
  });

  it('clamps an endLine past lineCount to the end of the file', async () => {
    expect(await read({ path: 'normal.txt', startLine: 2, endLine: 99 })).toEqual(
      answer({
        ok: true,
        data: { path: 'normal.txt', encoding: 'utf-8', content: 'beta\ngamma', startLine: 2, endLine: 3, lineCount: 3, truncated: false, bytes: 10, size: 17, sha256: SHA.normal },
      }),
    );
  });

  it('returns an empty slice, not an error, for a startLine past the end', async () => {
    expect(await read({ path: 'normal.txt', startLine: 10 })).toEqual(
      answer({
        ok: true,
        data: { path: 'normal.txt', encoding: 'utf-8', content: '', startLine: 10, endLine: 9, lineCount: 3, truncated: false, bytes: 0, size: 17, sha256: SHA.normal },
      }),
    );
  });

  it('byte-truncates the content at maxBytes, inside a line, and sets truncated', async () => {
    // The first 1000 bytes of the lines joined: lines 1-123 (999 bytes with their breaks) and
    // the first character of line 124, which counts as shown.
    expect(await read({ path: 'long.txt', maxBytes: 1000 })).toEqual(
      answer({
        ok: true,
        data: { path: 'long.txt', encoding: 'utf-8', content: `${longLines(1, 123)}\nl`, startLine: 1, endLine: 124, lineCount: 2500, truncated: true, bytes: 1000, size: 23893, sha256: SHA.long },
      }),
    );
  });

  it('applies a maxBytes below the engine floor exactly too', async () => {
    expect(await read({ path: 'normal.txt', maxBytes: 8 })).toEqual(
      answer({
        ok: true,
        data: { path: 'normal.txt', encoding: 'utf-8', content: 'alpha\nbe', startLine: 1, endLine: 3, lineCount: 3, truncated: true, bytes: 8, size: 17, sha256: SHA.normal },
      }),
    );
  });

  it('also holds content to the engine token budget: 25 000 tokens, 100 000 characters', async () => {
    const file = writeFile(ws.root, 'wide.txt', 'a'.repeat(150_000));
    expect(await read({ path: 'wide.txt' })).toEqual(
      answer({
        ok: true,
        data: { path: 'wide.txt', encoding: 'utf-8', content: 'a'.repeat(100_000), startLine: 1, endLine: 1, lineCount: 1, truncated: true, bytes: 100_000, size: 150_000, sha256: sha256Of(file) },
      }),
    );
  });

  it('returns a long line whole, never cut for its length', async () => {
    expect(await read({ path: 'long-line.txt' })).toEqual(
      answer({
        ok: true,
        data: {
          path: 'long-line.txt', encoding: 'utf-8', content: `short\n${'x'.repeat(5000)}\nend`, startLine: 1, endLine: 3, lineCount: 3,
          truncated: false, bytes: 5010, size: 5011, sha256: SHA.longLine,
        },
      }),
    );
  });

  it('cuts a long line at maxBytes on a character boundary', async () => {
    const file = writeFile(ws.root, 'accents.txt', `${'é'.repeat(400)}\n`);
    expect(await read({ path: 'accents.txt', maxBytes: 601 })).toEqual(
      answer({
        ok: true,
        data: { path: 'accents.txt', encoding: 'utf-8', content: 'é'.repeat(300), startLine: 1, endLine: 1, lineCount: 1, truncated: true, bytes: 600, size: 801, sha256: sha256Of(file) },
      }),
    );
  });

  it('answers an empty file with empty content and lineCount 0', async () => {
    expect(await read({ path: 'empty.txt' })).toEqual(
      answer({
        ok: true,
        data: { path: 'empty.txt', encoding: 'utf-8', content: '', startLine: 1, endLine: 0, lineCount: 0, truncated: false, bytes: 0, size: 0, sha256: SHA.empty },
      }),
    );
  });

  it('numbers CRLF lines like LF ones and joins them with LF', async () => {
    expect(await read({ path: 'crlf.txt', startLine: 2 })).toEqual(
      answer({
        ok: true,
        data: { path: 'crlf.txt', encoding: 'utf-8', content: 'two\nthree', startLine: 2, endLine: 3, lineCount: 3, truncated: false, bytes: 9, size: 17, sha256: SHA.crlf },
      }),
    );
  });

  it('reads a notebook as its JSON text', async () => {
    expect(await read({ path: 'notebook.ipynb' })).toEqual(
      answer({
        ok: true,
        data: { path: 'notebook.ipynb', encoding: 'utf-8', content: NOTEBOOK_JSON, startLine: 1, endLine: 1, lineCount: 1, truncated: false, bytes: 280, size: 280, sha256: SHA.notebook },
      }),
    );
  });

  it('returns the content on every call of a session: read_file keeps no stubs', async () => {
    const expected = answer({
      ok: true,
      data: { path: 'normal.txt', encoding: 'utf-8', content: 'alpha\nbeta\ngamma', startLine: 1, endLine: 3, lineCount: 3, truncated: false, bytes: 16, size: 17, sha256: SHA.normal },
    });
    expect(await read({ path: 'normal.txt' }, { session: 's1' })).toEqual(expected);
    expect(await read({ path: 'normal.txt' }, { session: 's1' })).toEqual(expected);
  });
});

describe('the binary opt-in', () => {
  it('refuses a binary file with binary_file, its size and its sha256', async () => {
    expect(await read({ path: 'data.bin' })).toEqual(
      answer({
        ok: false,
        error: { kind: 'binary_file', message: 'data.bin is a binary file. Re-call with allowBinary: true to receive base64.', size: 8, sha256: SHA.binary },
      }),
    );
  });

  it('returns contentBase64 with encoding base64 on the second call with allowBinary', async () => {
    expect(await read({ path: 'data.bin', allowBinary: true })).toEqual(
      answer({ ok: true, data: { path: 'data.bin', encoding: 'base64', contentBase64: 'UlAAAQIDCkE=', size: 8, sha256: SHA.binary } }),
    );
  });

  it('treats an image as a binary file, in both steps', async () => {
    const bytes = fs.readFileSync(ws.files.image);
    const sha256 = sha256Of(ws.files.image);
    expect(await read({ path: 'image.png' })).toEqual(
      answer({
        ok: false,
        error: { kind: 'binary_file', message: 'image.png is a binary file. Re-call with allowBinary: true to receive base64.', size: bytes.length, sha256 },
      }),
    );
    expect(await read({ path: 'image.png', allowBinary: true })).toEqual(
      answer({ ok: true, data: { path: 'image.png', encoding: 'base64', contentBase64: bytes.toString('base64'), size: bytes.length, sha256 } }),
    );
  });

  it('treats a PDF with a NUL byte as a binary file, in both steps', async () => {
    const bytes = fs.readFileSync(ws.files.bigPdf);
    const sha256 = sha256Of(ws.files.bigPdf);
    expect(await read({ path: 'big.pdf' })).toEqual(
      answer({
        ok: false,
        error: { kind: 'binary_file', message: 'big.pdf is a binary file. Re-call with allowBinary: true to receive base64.', size: bytes.length, sha256 },
      }),
    );
    expect(await read({ path: 'big.pdf', allowBinary: true })).toEqual(
      answer({ ok: true, data: { path: 'big.pdf', encoding: 'base64', contentBase64: bytes.toString('base64'), size: bytes.length, sha256 } }),
    );
  });

  it('reads a PDF without a NUL byte as UTF-8 text, as the NUL rule says', async () => {
    const bytes = fs.readFileSync(ws.files.pdf);
    expect(bytes.includes(0)).toBe(false);
    // Its lines (ended by LF, CRLF or CR) joined with LF; invalid UTF-8 reads as U+FFFD.
    const content = bytes.toString('utf8').replace(/\r\n?/g, '\n').replace(/\n$/, '');
    expect(await read({ path: 'small.pdf' })).toEqual(
      answer({
        ok: true,
        data: {
          path: 'small.pdf', encoding: 'utf-8', content, startLine: 1, endLine: 85, lineCount: 85, truncated: false,
          bytes: Buffer.byteLength(content), size: bytes.length, sha256: sha256Of(ws.files.pdf),
        },
      }),
    );
  });

  it('returns a text file as text even with allowBinary', async () => {
    expect(await read({ path: 'normal.txt', allowBinary: true })).toEqual(
      answer({
        ok: true,
        data: { path: 'normal.txt', encoding: 'utf-8', content: 'alpha\nbeta\ngamma', startLine: 1, endLine: 3, lineCount: 3, truncated: false, bytes: 16, size: 17, sha256: SHA.normal },
      }),
    );
  });
});

describe('read_file errors', () => {
  it('answers a missing file with not_found and similar paths', async () => {
    expect(await read({ path: 'normal.tx' })).toEqual(
      answer({ ok: false, error: { kind: 'not_found', message: 'File not found: normal.tx', suggestions: ['normal.txt'] } }),
    );
    expect(await read({ path: 'nothing-like-it/zzz.q' })).toEqual(answer({ ok: false, error: { kind: 'not_found', message: 'File not found: nothing-like-it/zzz.q' } }));
  });

  it('answers a directory with not_found suggesting list_directory', async () => {
    expect(await read({ path: 'dir' })).toEqual(
      answer({ ok: false, error: { kind: 'not_found', message: 'dir is a directory, not a file. Use list_directory to enumerate it.' } }),
    );
  });

  it('answers a path that escapes the workspace with outside_workspace', async () => {
    expect(await read({ path: '../outside.txt' })).toEqual(answer({ ok: false, error: { kind: 'outside_workspace', message: '../outside.txt is outside the workspace.' } }));
  });

  it('refuses an absolute path with outside_workspace, even inside the workspace', async () => {
    for (const file of [ws.outside, ws.files.normal]) {
      expect(await read({ path: file })).toEqual(
        answer({ ok: false, error: { kind: 'outside_workspace', message: `${file} is absolute; pass a workspace-relative path.` } }),
      );
    }
  });

  it('answers a secret the sandbox denies with permission_denied', async () => {
    writeFile(ws.root, '.env', 'TOKEN=1\n');
    expect(await read({ path: '.env' })).toEqual(
      answer({ ok: false, error: { kind: 'permission_denied', message: 'Reading .env is blocked by the sandbox read policy.', rule: '**/.env' } }),
    );
  });

  it('answers invalid input with invalid_input and each issue', async () => {
    expect(await read({ path: 'normal.txt', startLine: 0 })).toEqual(
      answer({
        ok: false,
        error: { kind: 'invalid_input', message: 'Invalid read_file input: startLine: Too small: expected number to be >=1', issues: ['startLine: Too small: expected number to be >=1'] },
      }),
    );
    expect(await read({ path: 'normal.txt', startLine: 5, endLine: 2 })).toEqual(
      answer({
        ok: false,
        error: { kind: 'invalid_input', message: 'Invalid read_file input: endLine: must not be less than startLine', issues: ['endLine: must not be less than startLine'] },
      }),
    );
    expect(await read({ file: 'normal.txt' })).toEqual(
      answer({
        ok: false,
        error: {
          kind: 'invalid_input',
          message: 'Invalid read_file input: path: Invalid input: expected string, received undefined; input: Unrecognized key: "file"',
          issues: ['path: Invalid input: expected string, received undefined', 'input: Unrecognized key: "file"'],
        },
      }),
    );
  });
});
