import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
/**
 * The MCP filesystem server's read tools through `createTools(engine, 'mcp-filesystem')`: the
 * server's names, schemas and exact texts (its `structuredContent` as `data`), and readpool's
 * deliberate differences (an output budget, binary refusal, media served within limits). The
 * engine's byte budget is lowered to 16 KiB so that `long.txt` (24 KiB) shows the cut.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECT_NAMES, type ToolDefinition, type ToolOutput } from '../../src/tools.js';
import { useDialectSuite } from '../support/dialect-suite.js';
import { longLines } from '../support/dialect-workspace.js';

const suite = useDialectSuite('mcp-filesystem', {
  engine: { maxBytes: 16_384 },
  toolNames: ['read_text_file', 'read_media_file', 'read_multiple_files'],
});
const { ws } = suite;
let readText: ToolDefinition;
let readMedia: ToolDefinition;
let readMultiple: ToolDefinition;

beforeAll(() => {
  [readText, readMedia, readMultiple] = suite.tools as [ToolDefinition, ToolDefinition, ToolDefinition];
});

/** A successful text answer: the text once as content, once as `structuredContent`. */
function answered(text: string): ToolOutput {
  return { content: [{ type: 'text', text }], isError: false, data: { content: text } };
}

/** A failure: the thrown message as the only text, no structured content. */
function failed(text: string): ToolOutput {
  return { content: [{ type: 'text', text }], isError: true };
}

describe('the tool definitions', () => {
  it("are the server's three read tools, with its titles, descriptions and schemas", () => {
    expect(DIALECT_NAMES).toContain('mcp-filesystem');
    expect(readText.description).toBe(
      "Read the complete contents of a file from the file system as text. Handles various text encodings and provides detailed error messages if the file cannot be read. Use this tool when you need to examine the contents of a single file. Use the 'head' parameter to read only the first N lines of a file, or the 'tail' parameter to read only the last N lines of a file. Operates on the file as text regardless of extension. Only works within allowed directories.",
    );
    expect(readText.title).toBe('Read Text File');
    expect(readText.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(readText.inputSchema).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string' },
        tail: { type: 'number', description: 'If provided, returns only the last N lines of the file' },
        head: { type: 'number', description: 'If provided, returns only the first N lines of the file' },
      },
      required: ['path'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    });
    expect(readText.outputSchema).toEqual({
      type: 'object',
      properties: { content: { type: 'string' } },
      required: ['content'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    });
    expect(readMedia.description).toBe(
      'Read a file and return it as a base64-encoded content block with its MIME type. Image and audio files are returned as image/audio content; any other file type is returned as an embedded resource. Only works within allowed directories.',
    );
    expect(readMedia.inputSchema).toEqual({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false, $schema: 'http://json-schema.org/draft-07/schema#' });
    expect(readMultiple.description).toBe(
      "Read the contents of multiple files simultaneously. This is more efficient than reading files one by one when you need to analyze or compare multiple files. Each file's content is returned with its path as a reference. Failed reads for individual files won't stop the entire operation. Only works within allowed directories.",
    );
    expect(readMultiple.inputSchema).toEqual({
      type: 'object',
      properties: {
        paths: {
          type: 'array',
          items: { type: 'string' },
          minItems: 1,
          description: 'Array of file paths to read. Each path must be a string pointing to a valid file within allowed directories.',
        },
      },
      required: ['paths'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    });
  });
});

describe('read_text_file', () => {
  it('returns a whole file byte for byte, final newline included', async () => {
    expect(await readText.execute({ path: ws.files.normal })).toEqual(answered('alpha\nbeta\ngamma\n'));
  });

  it('resolves a relative path against the allowed directory', async () => {
    expect(await readText.execute({ path: 'normal.txt' })).toEqual(answered('alpha\nbeta\ngamma\n'));
  });

  it('keeps CRLF line endings in a whole read, as the server does', async () => {
    expect(await readText.execute({ path: 'crlf.txt' })).toEqual(answered('one\r\ntwo\r\nthree\r\n'));
  });

  it('returns the first N lines for head, without a trailing newline and with CR kept', async () => {
    expect(await readText.execute({ path: 'long.txt', head: 3 })).toEqual(answered('line 1\nline 2\nline 3'));
    expect(await readText.execute({ path: 'crlf.txt', head: 2 })).toEqual(answered('one\r\ntwo\r'));
    expect(await readText.execute({ path: 'normal.txt', head: 10 })).toEqual(answered('alpha\nbeta\ngamma'));
  });

  it('returns the last N lines for tail, the final newline kept when the window reaches the start', async () => {
    expect(await readText.execute({ path: 'long.txt', tail: 2 })).toEqual(answered('line 2499\nline 2500'));
    expect(await readText.execute({ path: 'normal.txt', tail: 10 })).toEqual(answered('alpha\nbeta\ngamma\n'));
    expect(await readText.execute({ path: 'crlf.txt', tail: 5 })).toEqual(answered('one\ntwo\nthree\n'));
  });

  it('reads the whole file for head 0 or tail 0 and nothing for a negative count', async () => {
    expect(await readText.execute({ path: 'normal.txt', head: 0 })).toEqual(answered('alpha\nbeta\ngamma\n'));
    expect(await readText.execute({ path: 'normal.txt', tail: 0 })).toEqual(answered('alpha\nbeta\ngamma\n'));
    expect(await readText.execute({ path: 'normal.txt', head: -1 })).toEqual(answered(''));
  });

  it('cuts a file over the output budget and says how to read on with tail', async () => {
    expect(await readText.execute({ path: 'long.txt' })).toEqual(
      answered(
        `${longLines(1, 1749)}\nl\n\n[readpool: output capped at its byte budget; showing lines 1-1750 of 2500 (line 1750 cut short). ` +
          'read_text_file has no offset: call it with tail: 750 for the lines after these (capped the same way), or search the file for the part you need.]',
      ),
    );
  });

  it('shows a long line whole, having no line cap', async () => {
    expect(await readText.execute({ path: 'long-line.txt' })).toEqual(answered(`short\n${'x'.repeat(5000)}\nend\n`));
  });

  it('returns an empty string for an empty file', async () => {
    expect(await readText.execute({ path: 'empty.txt' })).toEqual(answered(''));
    expect(await readText.execute({ path: 'empty.txt', tail: 3 })).toEqual(answered(''));
  });

  it('answers a head past the end of the file with every line', async () => {
    expect(await readText.execute({ path: 'normal.txt', head: 100 })).toEqual(answered('alpha\nbeta\ngamma'));
  });

  it('answers a missing file with Node ENOENT text', async () => {
    expect(await readText.execute({ path: 'missing.txt' })).toEqual(failed(`ENOENT: no such file or directory, open '${ws.missing}'`));
  });

  it('answers a directory with Node EISDIR text', async () => {
    expect(await readText.execute({ path: 'dir' })).toEqual(failed('EISDIR: illegal operation on a directory, read'));
  });

  it('refuses a path outside the allowed directories in the server words', async () => {
    const expected = failed(`Access denied - path outside allowed directories: ${ws.outside} not in ${ws.root}`);
    expect(await readText.execute({ path: ws.outside })).toEqual(expected);
    expect(await readText.execute({ path: '../outside.txt' })).toEqual(expected);
  });

  it('refuses a binary file instead of returning its bytes as text', async () => {
    expect(await readText.execute({ path: 'data.bin' })).toEqual(
      failed(`Cannot read ${ws.files.binary} as text: it is binary (a NUL byte at offset 2, 8 bytes). Use read_media_file to get its bytes as base64.`),
    );
  });

  it('points an image and a PDF to read_media_file', async () => {
    expect(await readText.execute({ path: 'image.png' })).toEqual(
      failed(`Cannot read ${ws.files.image} as text: it is an image. Use read_media_file to get it as base64.`),
    );
    expect(await readText.execute({ path: 'small.pdf' })).toEqual(
      failed(`Cannot read ${ws.files.pdf} as text: it is a PDF. Use read_media_file to get it as base64.`),
    );
  });

  it('returns a notebook as its JSON text, as any other file', async () => {
    expect(await readText.execute({ path: 'notebook.ipynb' })).toEqual(answered(fs.readFileSync(ws.files.notebook, 'utf8')));
  });

  it('never answers with an unchanged stub: the server has none', async () => {
    const first = await readText.execute({ path: 'normal.txt' }, { session: 's1' });
    const second = await readText.execute({ path: 'normal.txt' }, { session: 's1' });
    expect(first).toEqual(answered('alpha\nbeta\ngamma\n'));
    expect(second).toEqual(answered('alpha\nbeta\ngamma\n'));
  });

  it('refuses head and tail together with the server message', async () => {
    expect(await readText.execute({ path: 'normal.txt', head: 1, tail: 1 })).toEqual(failed('Cannot specify both head and tail parameters simultaneously'));
  });

  it('answers invalid input as the MCP SDK does', async () => {
    expect(await readText.execute({ path: 'normal.txt', head: '2' })).toEqual(
      failed('MCP error -32602: Input validation error: Invalid arguments for tool read_text_file: Expected number, received string at head'),
    );
    expect(await readText.execute({})).toEqual(failed('MCP error -32602: Input validation error: Invalid arguments for tool read_text_file: Required at path'));
  });
});

describe('read_media_file', () => {
  it('returns an image as image content with its MIME type, twice as the server does', async () => {
    const out = await readMedia.execute({ path: 'image.png' });
    const data = (out.content[0] as { data: string }).data;
    expect(data.startsWith('iVBORw0KGgo')).toBe(true);
    expect(out).toEqual({
      content: [{ type: 'image', mimeType: 'image/png', data }],
      isError: false,
      data: { content: [{ type: 'image', data, mimeType: 'image/png' }] },
    });
  });

  it('returns any other file as an embedded octet-stream resource named by its file URL', async () => {
    const uri = `file://${ws.files.binary}`;
    const blob = 'UlAAAQIDCkE=';
    expect(await readMedia.execute({ path: 'data.bin' })).toEqual({
      content: [{ type: 'resource', uri, mimeType: 'application/octet-stream', data: blob }],
      isError: false,
      data: { content: [{ type: 'resource', resource: { uri, mimeType: 'application/octet-stream', blob } }] },
    });
    const text = 'YWxwaGEKYmV0YQpnYW1tYQo=';
    expect((await readMedia.execute({ path: 'normal.txt' })).data).toEqual({
      content: [{ type: 'resource', resource: { uri: `file://${ws.files.normal}`, mimeType: 'application/octet-stream', blob: text } }],
    });
  });

  it('returns a PDF of up to 10 pages as a resource and refuses a larger one', async () => {
    const out = await readMedia.execute({ path: 'small.pdf' });
    expect(out.isError).toBe(false);
    expect(out.content).toEqual([
      { type: 'resource', uri: `file://${ws.files.pdf}`, mimeType: 'application/octet-stream', data: expect.stringMatching(/^JVBERi0/) as unknown },
    ]);
    expect(await readMedia.execute({ path: 'big.pdf' })).toEqual(
      failed(`Cannot read ${ws.files.bigPdf} as media: readpool returns a PDF whole only up to 10 pages and 3 MiB, and read_media_file cannot ask for pages`),
    );
  });

  it('returns a notebook as an embedded resource of its bytes, as any other file', async () => {
    const output = await readMedia.execute({ path: 'notebook.ipynb' });
    const blob = fs.readFileSync(ws.files.notebook).toString('base64');
    expect(output.isError).toBe(false);
    expect(output.data).toEqual({ content: [{ type: 'resource', resource: { uri: pathToFileURL(ws.files.notebook).href, mimeType: 'application/octet-stream', blob } }] });
  });

  it('answers missing, directory and outside paths as read_text_file does', async () => {
    expect(await readMedia.execute({ path: 'missing.txt' })).toEqual(failed(`ENOENT: no such file or directory, open '${ws.missing}'`));
    expect(await readMedia.execute({ path: 'dir' })).toEqual(failed('EISDIR: illegal operation on a directory, read'));
    expect(await readMedia.execute({ path: ws.outside })).toEqual(
      failed(`Access denied - path outside allowed directories: ${ws.outside} not in ${ws.root}`),
    );
  });
});

describe('read_multiple_files', () => {
  it('joins path-headed contents and per-file errors with ---, in the order asked', async () => {
    const text =
      'normal.txt:\nalpha\nbeta\ngamma\n\n' +
      '\n---\n' +
      `dir: Error - EISDIR: illegal operation on a directory, read` +
      '\n---\n' +
      `${ws.missing}: Error - ENOENT: no such file or directory, open '${ws.missing}'` +
      '\n---\n' +
      `${ws.outside}: Error - Access denied - path outside allowed directories: ${ws.outside} not in ${ws.root}` +
      '\n---\n' +
      'empty.txt:\n\n';
    expect(await readMultiple.execute({ paths: ['normal.txt', 'dir', ws.missing, ws.outside, 'empty.txt'] })).toEqual(answered(text));
  });

  it('reports a binary file as a per-file error', async () => {
    expect(await readMultiple.execute({ paths: ['data.bin'] })).toEqual(
      answered(`data.bin: Error - Cannot read ${ws.files.binary} as text: it is binary (a NUL byte at offset 2, 8 bytes). Use read_media_file to get its bytes as base64.`),
    );
  });

  it('answers an empty list as the MCP SDK does', async () => {
    expect(await readMultiple.execute({ paths: [] })).toEqual(
      failed('MCP error -32602: Input validation error: Invalid arguments for tool read_multiple_files: Array must contain at least 1 element(s) at paths'),
    );
  });
});
