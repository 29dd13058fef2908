/**
 * Seed 000's `read` through `createTools(engine, 'xml')`: text wrapped in `<path>`, `<type>` and
 * `<content>` with `N: line` numbering and the footers of the opencode family (adjusted to the
 * seed's 0-based offset), images and PDFs as content parts, and each error's exact text.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DIALECT_NAMES, type ToolOutput } from '../../src/tools.js';
import { useDialectSuite } from '../support/dialect-suite.js';
import { lineRange, NOTEBOOK_JSON } from '../support/dialect-workspace.js';
import { writeFile } from '../support/temp-dir.js';

const suite = useDialectSuite('xml');
const { ws, read } = suite;

function text(value: string, isError = false): ToolOutput {
  return { content: [{ type: 'text', text: value }], isError };
}

function wrapped(file: string, lines: string, footer: string): ToolOutput {
  return text(`<path>${file}</path>\n<type>file</type>\n<content>\n${lines}\n\n${footer}\n</content>`);
}

function numbered(first: number, last: number, line: (n: number) => string): string {
  return lineRange(first, last, (n) => `${n}: ${line(n)}`);
}

describe('the read tool definition', () => {
  it('is named read, with filePath, a 0-based offset and limit described as the seed does', () => {
    expect(DIALECT_NAMES).toContain('xml');
    expect(suite.tool.name).toBe('read');
    expect(suite.tool.description.startsWith('The read tool provides flexible file reading capabilities for agents.')).toBe(true);
    expect(suite.tool.inputSchema).toMatchObject({
      type: 'object',
      required: ['filePath'],
      additionalProperties: false,
      properties: {
        filePath: { type: 'string', description: 'Absolute path to the file to read. Relative paths are not supported.' },
        offset: { type: 'integer', minimum: 0, description: '0-based line number to start reading from. Only applies to text files. Useful for reading large files in chunks.' },
        limit: { type: 'integer', minimum: 1, description: 'Maximum number of lines to read from text files. Default is 2000 lines.' },
      },
    });
  });
});

describe('text through the read tool', () => {
  it('wraps a whole file in XML with 1-based N: line numbers and the end-of-file footer', async () => {
    expect(await read({ filePath: ws.files.normal })).toEqual(wrapped(ws.files.normal, '1: alpha\n2: beta\n3: gamma', '(End of file - total 3 lines)'));
  });

  it('reads a window from a 0-based offset and names the 0-based offset that continues it', async () => {
    expect(await read({ filePath: ws.files.normal, offset: 1, limit: 1 })).toEqual(
      wrapped(ws.files.normal, '2: beta', '(Showing lines 2-2 of 3. Use offset=2 to continue.)'),
    );
    expect(await read({ filePath: ws.files.normal, offset: 2 })).toEqual(wrapped(ws.files.normal, '3: gamma', '(End of file - total 3 lines)'));
  });

  it('stops at 2000 lines by default', async () => {
    expect(await read({ filePath: ws.files.long })).toEqual(
      wrapped(ws.files.long, numbered(1, 2000, (n) => `line ${n}`), '(Showing lines 1-2000 of 2500. Use offset=2000 to continue.)'),
    );
  });

  it('reads the last page of a long file to its end', async () => {
    expect(await read({ filePath: ws.files.long, offset: 2000 })).toEqual(
      wrapped(ws.files.long, numbered(2001, 2500, (n) => `line ${n}`), '(End of file - total 2500 lines)'),
    );
  });

  it('caps the formatted output at 50 KB and names the offset to continue from', async () => {
    // 100 lines of 1000 characters: lines 1-50 take 50 240 bytes formatted, line 51 would pass 51 200.
    const file = writeFile(ws.root, 'wide.txt', `${'w'.repeat(1000)}\n`.repeat(100));
    expect(await read({ filePath: file })).toEqual(
      wrapped(file, numbered(1, 50, () => 'w'.repeat(1000)), '(Output capped at 50 KB. Showing lines 1-50. Use offset=50 to continue.)'),
    );
  });

  it('cuts a line over 2000 characters and suffixes it with [truncated]', async () => {
    expect(await read({ filePath: ws.files.longLine })).toEqual(
      wrapped(ws.files.longLine, `1: short\n2: ${'x'.repeat(2000)}[truncated]\n3: end`, '(End of file - total 3 lines)'),
    );
  });

  it('answers an empty file with no lines and a total of 0', async () => {
    expect(await read({ filePath: ws.files.empty })).toEqual(text(`<path>${ws.files.empty}</path>\n<type>file</type>\n<content>\n\n\n(End of file - total 0 lines)\n</content>`));
  });

  it('answers an offset past the end with an out-of-range error', async () => {
    expect(await read({ filePath: ws.files.normal, offset: 3 })).toEqual(text('Offset 3 is out of range for this file (3 lines)', true));
    expect(await read({ filePath: ws.files.empty, offset: 1 })).toEqual(text('Offset 1 is out of range for this file (0 lines)', true));
  });

  it('numbers CRLF lines like LF ones', async () => {
    expect(await read({ filePath: ws.files.crlf })).toEqual(wrapped(ws.files.crlf, '1: one\n2: two\n3: three', '(End of file - total 3 lines)'));
  });

  it('reads a notebook as the text of its JSON, as any file not named as an image or PDF', async () => {
    expect(await read({ filePath: ws.files.notebook })).toEqual(wrapped(ws.files.notebook, `1: ${NOTEBOOK_JSON}`, '(End of file - total 1 lines)'));
  });

  it('returns the content on every call of a session: the tool keeps no stubs', async () => {
    const expected = wrapped(ws.files.normal, '1: alpha\n2: beta\n3: gamma', '(End of file - total 3 lines)');
    expect(await read({ filePath: ws.files.normal }, { session: 's1' })).toEqual(expected);
    expect(await read({ filePath: ws.files.normal }, { session: 's1' })).toEqual(expected);
  });
});

describe('images and PDFs through the read tool', () => {
  it('returns an image as one image part of its base64 bytes', async () => {
    expect(await read({ filePath: ws.files.image })).toEqual({
      content: [{ type: 'image', mimeType: 'image/png', data: fs.readFileSync(ws.files.image).toString('base64') }],
      isError: false,
    });
  });

  it('returns a PDF as one document part of its base64 bytes', async () => {
    expect(await read({ filePath: ws.files.pdf })).toEqual({
      content: [{ type: 'document', mimeType: 'application/pdf', data: fs.readFileSync(ws.files.pdf).toString('base64') }],
      isError: false,
    });
  });

  it('returns a PDF of more than 10 pages whole too: the tool has no page selection', async () => {
    expect(await read({ filePath: ws.files.bigPdf, offset: 5, limit: 1 })).toEqual({
      content: [{ type: 'document', mimeType: 'application/pdf', data: fs.readFileSync(ws.files.bigPdf).toString('base64') }],
      isError: false,
    });
  });

  it('refuses an image over 5 MB on disk', async () => {
    const noise = Buffer.alloc(1400 * 1400 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const file = writeFile(ws.root, 'noise.png', await sharp(noise, { raw: { width: 1400, height: 1400, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer());
    const size = fs.statSync(file).size;
    expect(size).toBeGreaterThan(5 * 1024 * 1024);
    expect(await read({ filePath: file })).toEqual(text(`File too large: ${file} (${size} bytes). Images and PDFs are limited to 5 MB.`, true));
  });
});

describe('read tool errors', () => {
  it('answers a missing file with File not found and the similar paths', async () => {
    const typo = path.join(ws.root, 'normal.tx');
    expect(await read({ filePath: typo })).toEqual(text(`File not found: ${typo}\n\nDid you mean one of these?\n${ws.files.normal}`, true));
    const nowhere = path.join(ws.root, 'nothing-like-it', 'zzz.q');
    expect(await read({ filePath: nowhere })).toEqual(text(`File not found: ${nowhere}`, true));
  });

  it('refuses a directory', async () => {
    expect(await read({ filePath: ws.files.directory })).toEqual(text(`Cannot read directory: ${ws.files.directory}. Use a directory listing tool to see its entries.`, true));
  });

  it('refuses a file outside the workspace', async () => {
    expect(await read({ filePath: ws.outside })).toEqual(text(`Cannot read file outside the workspace: ${ws.outside}`, true));
  });

  it('refuses a relative path', async () => {
    expect(await read({ filePath: 'normal.txt' })).toEqual(text('File path must be absolute: normal.txt', true));
  });

  it('refuses a binary file', async () => {
    expect(await read({ filePath: ws.files.binary })).toEqual(text(`Cannot read binary file: ${ws.files.binary}`, true));
  });

  it('refuses a secret the sandbox denies', async () => {
    const secret = writeFile(ws.root, '.env', 'TOKEN=1\n');
    expect(await read({ filePath: secret })).toEqual(text(`Permission denied: ${secret}`, true));
  });

  it('answers invalid arguments in the tool framework words', async () => {
    expect(await read({ filePath: ws.files.normal, offset: -1 })).toEqual(
      text('The read tool was called with invalid arguments: offset: Too small: expected number to be >=0.\nPlease rewrite the input so it satisfies the expected schema.', true),
    );
    expect(await read({ path: ws.files.normal })).toEqual(
      text(
        'The read tool was called with invalid arguments: filePath: Invalid input: expected string, received undefined; input: Unrecognized key: "path".\n' +
          'Please rewrite the input so it satisfies the expected schema.',
        true,
      ),
    );
  });
});
