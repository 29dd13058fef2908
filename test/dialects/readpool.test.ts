/**
 * The native dialect through `createTools(engine, 'readpool')`: the exact text a model reads for
 * every situation the dialects share, written out as the README documents it. And the promise no
 * other read tool keeps: a line of any length can be read to its end, page by page, by character.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIALECT_NAMES, type ToolOutput } from '../../src/tools.js';
import { useDialectSuite } from '../support/dialect-suite.js';

const suite = useDialectSuite('readpool');
const { ws, read } = suite;

function textOf(output: ToolOutput): string {
  expect(output.content).toHaveLength(1);
  const [part] = output.content;
  if (part?.type !== 'text') throw new Error(`expected one text part, got ${JSON.stringify(output.content)}`);
  return part.text;
}

describe('the native tool definition', () => {
  it('is named read, read-only, with a JSON Schema generated from its zod schema', () => {
    expect(DIALECT_NAMES).toContain('readpool');
    expect(suite.tool.name).toBe('read');
    expect(suite.tool.title).toBe('Read file');
    expect(suite.tool.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(suite.tool.inputSchema).toMatchObject({
      type: 'object',
      required: ['path'],
      additionalProperties: false,
      properties: { path: { type: 'string' }, offset: { type: 'integer' }, column: { type: 'integer' } },
    });
    expect(JSON.stringify(suite.tool.inputSchema)).not.toContain('9007199254740991');
    expect(suite.tool.inputSchema).not.toHaveProperty('$schema');
  });
});

describe('text through the native dialect', () => {
  it('numbers a whole file N<TAB>line with no notice', async () => {
    const out = await read({ path: 'normal.txt' });
    expect(out.isError).toBe(false);
    expect(textOf(out)).toBe('1\talpha\n2\tbeta\n3\tgamma');
    expect(out.data).toMatchObject({ kind: 'text', startLine: 1, endLine: 3, totalLines: 3, truncated: false, encoding: 'utf-8' });
  });

  it('reads a window and names the next offset', async () => {
    expect(textOf(await read({ path: 'normal.txt', offset: 2, limit: 1 }))).toBe(
      '2\tbeta\n\n[Showing lines 2-2 of 3. Call read with offset=3 to continue.]',
    );
  });

  it('stops at 2000 lines by default with the exact total and next offset', async () => {
    const text = textOf(await read({ path: 'long.txt' }));
    expect(text.startsWith('1\tline 1\n2\tline 2\n')).toBe(true);
    expect(text.endsWith('2000\tline 2000\n\n[Showing lines 1-2000 of 2500. Call read with offset=2001 to continue.]')).toBe(true);
  });

  it('reads the end of a file with a negative offset', async () => {
    expect(textOf(await read({ path: 'long.txt', offset: -2 }))).toBe('2499\tline 2499\n2500\tline 2500');
  });

  it('cuts a long line, marks it, and names the call that reads it in full', async () => {
    expect(textOf(await read({ path: 'long-line.txt' }))).toBe(
      `1\tshort\n2\t${'x'.repeat(2000)} … [line cut after 2000 characters; the whole line is 5000 bytes]\n3\tend\n\n` +
        '[1 line was too long to show whole (over 2000 characters, or over the output budget) and cut where marked. ' +
        'To read line 2 in full, page by page, call read with offset=2, column=1.]',
    );
  });

  it('reads a long line by character from the column the notice names', async () => {
    expect(textOf(await read({ path: 'long-line.txt', offset: 2, column: 4001 }))).toBe(
      `2\t${'x'.repeat(1000)}\n\n[Showing characters 4001-5000 of line 2 of 3: the end of the line. Call read with offset=3 for the next line.]`,
    );
  });

  it('answers an empty file with a notice, not an error', async () => {
    const out = await read({ path: 'empty.txt' });
    expect(out.isError).toBe(false);
    expect(textOf(out)).toBe('[The file exists but is empty (0 lines).]');
  });

  it('answers an offset past the end with the call that shows the last lines', async () => {
    expect(textOf(await read({ path: 'normal.txt', offset: 10 }))).toBe(
      '[The file has 3 lines, so offset 10 is past the end. Call read with offset=1 to see the last lines.]',
    );
  });

  it('numbers CRLF lines like LF lines', async () => {
    expect(textOf(await read({ path: 'crlf.txt' }))).toBe('1\tone\n2\ttwo\n3\tthree');
  });
});

describe('failures through the native dialect are results, never throws', () => {
  it('answers a missing file with isError and similar names', async () => {
    const out = await read({ path: 'normal.md' });
    expect(out.isError).toBe(true);
    expect(textOf(out)).toBe('No file at "normal.md". Did you mean "normal.txt"? Call read with one of these paths.');
    expect(out.data).toMatchObject({ code: 'not_found' });
  });

  it('refuses a directory', async () => {
    expect(textOf(await read({ path: 'dir' }))).toBe(
      '"dir" is a directory, not a file. List its entries with a directory tool, then call read on a file inside it.',
    );
  });

  it('refuses a file outside the workspace', async () => {
    const out = await read({ path: ws.outside });
    expect(out.isError).toBe(true);
    expect(textOf(out)).toBe(
      `${JSON.stringify(ws.outside)} is outside the workspace (${ws.root}). Only files inside it can be read: call read with a path inside the workspace.`,
    );
  });

  it('refuses a binary file and names the opt-in', async () => {
    const out = await read({ path: 'data.bin' });
    expect(out.isError).toBe(true);
    expect(textOf(out)).toMatch(
      /^"data\.bin" is binary \(a NUL byte at offset 2; 8 bytes, sha256 [0-9a-f]{64}\)\. Call read again with allowBinary: true to receive it as base64, or use a tool made for this file type\.$/,
    );
    const raw = await read({ path: 'data.bin', allowBinary: true });
    expect(textOf(raw)).toMatch(/^\[data\.bin is binary: 8 bytes, sha256 [0-9a-f]{64}\. Its bytes follow as base64\.\]\nUlAAAQIDCkE=$/);
  });

  it('takes a number or a flag written as a string, as models sometimes send them, and refuses other strings', async () => {
    const asNumbers = await read({ path: 'normal.txt', offset: 2, limit: 1, fresh: true });
    const asText = await read({ path: 'normal.txt', offset: ' 2', limit: '1', fresh: 'true' });
    expect(asText.isError).toBe(false);
    expect(textOf(asText)).toBe(textOf(asNumbers));
    const wrong = await read({ path: 'normal.txt', limit: 'ten', fresh: 'yes' });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(/^Invalid read request: limit: .+; fresh: .+\. Fix these fields and call read again\.$/);
  });

  it('answers input that is not a read request in its own words', async () => {
    const out = await read({ file_path: 'normal.txt' });
    expect(out.isError).toBe(true);
    expect(textOf(out)).toMatch(/^Invalid read request: path: .+; input: Unrecognized key: "file_path"\. Fix these fields and call read again\.$/);
    expect(textOf(await read('normal.txt'))).toMatch(/^Invalid read request: input: .+\. Fix these fields and call read again\.$/);
  });
});

describe('media through the native dialect', () => {
  it('returns an image as an image part after its note', async () => {
    const out = await read({ path: 'image.png' });
    expect(out.isError).toBe(false);
    expect(out.content).toEqual([
      { type: 'text', text: '[64x48, served at full size; ' + `${fs.statSync(ws.files.image).size} bytes served of ${fs.statSync(ws.files.image).size}.]` },
      { type: 'image', mimeType: 'image/png', data: fs.readFileSync(ws.files.image).toString('base64') },
    ]);
  });

  it('returns a small PDF whole as a document part', async () => {
    const out = await read({ path: 'small.pdf' });
    expect(out.content).toEqual([
      { type: 'text', text: '[The whole PDF, 3 pages, as a document.]' },
      { type: 'document', mimeType: 'application/pdf', data: fs.readFileSync(ws.files.pdf).toString('base64') },
    ]);
  });

  it('asks for pages for a PDF over 10 pages, and renders the pages asked for', async () => {
    const refused = await read({ path: 'big.pdf' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^Invalid read request: pages: required for this PDF \(12 pages, \d+ bytes; .+\. Fix these fields and call read again\.$/);
    const out = await read({ path: 'big.pdf', pages: '2-3' });
    expect(out.content[0]).toEqual({ type: 'text', text: '[pages 2-3 of 12, rendered as images. Call read with pages: "4-12" for the next pages.]' });
    expect(out.content.slice(1).map((part) => part.type === 'image' && part.mimeType)).toEqual(['image/jpeg', 'image/jpeg']);
    // As models also write them: a range with an en dash, one page as a number; a list is refused in words.
    expect((await read({ path: 'big.pdf', pages: '2–3' })).content[0]).toEqual(out.content[0]);
    expect((await read({ path: 'big.pdf', pages: 4 })).content[0]).toEqual({ type: 'text', text: '[pages 4-4 of 12, rendered as images. Call read with pages: "5-12" for the next pages.]' });
    expect(textOf(await read({ path: 'big.pdf', pages: '2,3' }))).toBe('Invalid read request: pages: must be a page or a range, like "3" or "1-5". Fix these fields and call read again.');
  });

  it('renders a notebook as numbered cells', async () => {
    const text = textOf(await read({ path: 'notebook.ipynb' }));
    expect(text.split('\n')[0]).toMatch(/^1\t/);
    expect(text).toContain('# Title');
    expect(text).toContain('print(1 + 1)');
  });
});

describe('sessions through the native dialect', () => {
  it('answers a re-read with the unchanged stub, and fresh: true with the content', async () => {
    const first = await read({ path: 'normal.txt' }, { session: 'native-s1' });
    expect(textOf(first)).toBe('1\talpha\n2\tbeta\n3\tgamma');
    const again = await read({ path: 'normal.txt' }, { session: 'native-s1' });
    expect(textOf(again)).toMatch(
      /^\[normal\.txt is unchanged since you read all 3 lines at \d{4}-\d\d-\d\dT[\d:.]+Z\. Refer to that earlier result instead of reading it again\. If it is no longer in your context, call read with the same arguments and fresh: true\.\]$/,
    );
    expect(textOf(await read({ path: 'normal.txt', fresh: true }, { session: 'native-s1' }))).toBe('1\talpha\n2\tbeta\n3\tgamma');
  });
});

describe('a single-line file of 5 MB', () => {
  it('is read to its end by column, and the pieces concatenate back to the line', async () => {
    // Multi-byte characters and a surrogate pair at varied places, so pieces end anywhere.
    const unit = `${'abcdefghij'.repeat(9)}é漢😀,`;
    const line = unit.repeat(Math.ceil((5 * 1024 * 1024) / Buffer.byteLength(unit)));
    fs.writeFileSync(path.join(ws.root, 'bundle.min.js'), `${line}\n`);
    const pieces: string[] = [];
    let column: number | null = 1;
    let calls = 0;
    while (column !== null) {
      const out = await read({ path: 'bundle.min.js', offset: 1, column });
      calls++;
      const [body] = textOf(out).split('\n\n[');
      expect(body?.startsWith('1\t')).toBe(true);
      pieces.push((body ?? '').slice(2));
      const facts = out.data as { truncated: false | { reason: string; nextColumn?: number } };
      column = facts.truncated !== false && facts.truncated.reason === 'line-length' ? (facts.truncated.nextColumn ?? null) : null;
      expect(calls).toBeLessThan(200);
    }
    expect(pieces.join('')).toBe(line);
    // Each piece is as large as the 25 000-token budget allows, so a 5 MB line takes tens of calls.
    expect(calls).toBeGreaterThan(20);
    expect(calls).toBeLessThan(80);
  });
});
