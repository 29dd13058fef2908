/**
 * Seed 001's Read (Claude Code 2.0.14) through `createTools(engine, 'claude-code')`: the seed's
 * prompt, `cat -n` lines as 2.0 rendered them (and 2.1's `N\tline` as an option), the 2000-line
 * default, cut long lines, the `<system-reminder>` warnings, Claude Code's error texts, media as
 * content parts, and the unchanged-file stub of a session.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTools, DIALECT_NAMES, type ToolContext } from '../../src/tools.js';
import { useDialectSuite } from '../support/dialect-suite.js';
import { lineRange } from '../support/dialect-workspace.js';
import { writeFile } from '../support/temp-dir.js';

const suite = useDialectSuite('claude-code');
const { ws, read } = suite;

/** The text of an answer, and whether it is an error. */
async function textOf(input: unknown, context: ToolContext = {}): Promise<[string, boolean]> {
  const out = await read(input, context);
  expect(out.content).toHaveLength(1);
  const [part] = out.content;
  return [part?.type === 'text' ? part.text : `(${String(part?.type)} part)`, out.isError];
}

/** `cat -n` as Claude Code 2.0 rendered it: the number right-aligned to 6, then `→`. */
function arrow(first: number, last: number, line: (n: number) => string): string {
  return lineRange(first, last, (n) => `${String(n).padStart(6)}→${line(n)}`);
}

const DESCRIPTION =
  'Reads a file from the local filesystem. You can access any file directly by using this tool.\n' +
  'Assume this tool is able to read all files on the machine. If the User provides a path to a file assume that path is valid. It is okay to read a file that does not exist; an error will be returned.\n' +
  '\n' +
  'Usage:\n' +
  '- The file_path parameter must be an absolute path, not a relative path\n' +
  '- By default, it reads up to 2000 lines starting from the beginning of the file\n' +
  "- You can optionally specify a line offset and limit (especially handy for long files), but it's recommended to read the whole file by not providing these parameters\n" +
  '- Any lines longer than 2000 characters will be truncated\n' +
  '- Results are returned using cat -n format, with line numbers starting at 1\n' +
  '- This tool allows Claude Code to read images (eg PNG, JPG, etc). When reading an image file the contents are presented visually as Claude Code is a multimodal LLM.\n' +
  '- This tool can read PDF files (.pdf). PDFs are processed page by page, extracting both text and visual content for analysis.\n' +
  '- This tool can read Jupyter notebooks (.ipynb files) and returns all cells with their outputs, combining code, text, and visualizations.\n' +
  '- This tool can only read files, not directories. To read a directory, use an ls command via the Bash tool.\n' +
  '- You can call multiple tools in a single response. It is always better to speculatively read multiple potentially useful files in parallel.\n' +
  '- You will regularly be asked to read screenshots. If the user provides a path to a screenshot, ALWAYS use this tool to view the file at the path. This tool will work with all temporary file paths.\n' +
  '- If you read a file that exists but has empty contents you will receive a system reminder warning in place of file contents.';

describe('the Read tool definition', () => {
  it('is named Read and carries the seed prompt verbatim, its variables filled', () => {
    expect(DIALECT_NAMES).toContain('claude-code');
    expect(suite.tool.name).toBe('Read');
    expect(suite.tool.aliases).toEqual([]);
    expect(suite.tool.description).toBe(DESCRIPTION);
  });

  it("takes file_path, offset and limit as Claude Code declares them, plus 2.1's pages, and nothing else", () => {
    expect(suite.tool.inputSchema).toEqual({
      type: 'object',
      properties: {
        file_path: { type: 'string', description: 'The absolute path to the file to read' },
        offset: { type: 'number', description: 'The line number to start reading from. Only provide if the file is too large to read at once' },
        limit: { type: 'number', description: 'The number of lines to read. Only provide if the file is too large to read at once.' },
        pages: {
          type: 'string',
          description: 'Page range for PDF files (e.g., "1-5", "3", "10-20"). Only applicable to PDF files. Maximum 20 pages per request.',
        },
      },
      required: ['file_path'],
      additionalProperties: false,
    });
  });
});

describe('text through Read', () => {
  it('numbers a whole file as cat -n did in 2.0: six columns, then an arrow', async () => {
    expect(await textOf({ file_path: ws.files.normal })).toEqual(['     1→alpha\n     2→beta\n     3→gamma', false]);
  });

  it('summarises the read in data as Claude Code\'s file record', async () => {
    expect((await read({ file_path: ws.files.normal, offset: 2, limit: 1 })).data).toEqual({
      type: 'text',
      file: { filePath: ws.files.normal, startLine: 2, numLines: 1, totalLines: 3, truncated: true },
    });
  });

  it('reads a window from a 1-based offset, treating offset 0 as line 1', async () => {
    expect(await textOf({ file_path: ws.files.normal, offset: 2, limit: 1 })).toEqual(['     2→beta', false]);
    expect(await textOf({ file_path: ws.files.normal, offset: 0, limit: 2 })).toEqual(['     1→alpha\n     2→beta', false]);
  });

  it('resolves a relative path against the workspace root', async () => {
    expect(await textOf({ file_path: 'normal.txt', limit: 1 })).toEqual(['     1→alpha', false]);
  });

  it('reads up to 2000 lines by default and says nothing of the rest, as the prompt announces', async () => {
    expect(await textOf({ file_path: ws.files.long })).toEqual([arrow(1, 2000, (n) => `line ${n}`), false]);
  });

  it('continues a long file from an offset to its end', async () => {
    expect(await textOf({ file_path: ws.files.long, offset: 2401 })).toEqual([arrow(2401, 2500, (n) => `line ${n}`), false]);
  });

  it('cuts a page at the 25000-token cap and prepends the PARTIAL view reminder', async () => {
    // 2000 lines of 100 characters (202 000 bytes, about 50 500 tokens); 925 rendered lines take
    // 99 899 characters, within 25 000 tokens of four characters, and the 926th would pass it.
    const file = writeFile(ws.root, 'wide.txt', `${'w'.repeat(100)}\n`.repeat(2000));
    const reminder =
      '<system-reminder>[Truncated: PARTIAL view — showing lines 1-925 of 2000 total (50500 tokens, cap 25000). ' +
      'Call Read with offset=926 limit=925 for the next page, or Grep to find a specific section. ' +
      'Do NOT answer from this page alone if the answer may be further in the file.]</system-reminder>';
    expect(await textOf({ file_path: file })).toEqual([`${reminder}\n${arrow(1, 925, () => 'w'.repeat(100))}`, false]);
  });

  it('cuts a line longer than 2000 characters at 2000', async () => {
    expect(await textOf({ file_path: ws.files.longLine })).toEqual([`     1→short\n     2→${'x'.repeat(2000)}\n     3→end`, false]);
  });

  it('numbers CRLF lines like LF ones', async () => {
    expect(await textOf({ file_path: ws.files.crlf })).toEqual(['     1→one\n     2→two\n     3→three', false]);
  });

  it('answers an empty file with the empty-contents system reminder', async () => {
    expect(await textOf({ file_path: ws.files.empty })).toEqual([
      '<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>',
      false,
    ]);
  });

  it('answers an offset past the end with the shorter-than-offset system reminder', async () => {
    expect(await textOf({ file_path: ws.files.normal, offset: 10 })).toEqual([
      '<system-reminder>Warning: the file exists but is shorter than the provided offset (10). The file has 3 lines.</system-reminder>',
      false,
    ]);
  });

  it("numbers lines as 2.1 does, N and a tab, with lineFormat: 'tab'", async () => {
    const [tab] = createTools(suite.engine, 'claude-code', { lineFormat: 'tab' });
    expect(await tab?.execute({ file_path: ws.files.normal })).toEqual({
      content: [{ type: 'text', text: '1\talpha\n2\tbeta\n3\tgamma' }],
      isError: false,
      data: { type: 'text', file: { filePath: ws.files.normal, startLine: 1, numLines: 3, totalLines: 3, truncated: false } },
    });
  });

  it('answers a second identical read in a session with the unchanged-file stub', async () => {
    const file = writeFile(ws.root, 'stub.txt', 'one\ntwo\n');
    expect(await textOf({ file_path: file }, { session: 's1' })).toEqual(['     1→one\n     2→two', false]);
    expect(await read({ file_path: file }, { session: 's1' })).toEqual({
      content: [{ type: 'text', text: 'Wasted call — file unchanged since your last Read. Refer to that earlier tool_result instead.' }],
      isError: false,
      data: { type: 'file_unchanged', file: { filePath: file } },
    });
  });
});

describe('errors through Read', () => {
  it('answers a missing file with "File does not exist." and the working directory', async () => {
    expect(await read({ file_path: ws.missing })).toEqual({
      content: [{ type: 'text', text: `File does not exist. Note: your current working directory is ${ws.root}.` }],
      isError: true,
      data: { code: 'not_found' },
    });
  });

  it('suggests a file with the same name and another extension', async () => {
    expect(await textOf({ file_path: path.join(ws.root, 'normal.md') })).toEqual([
      `File does not exist. Note: your current working directory is ${ws.root}. Did you mean ${ws.files.normal}?`,
      true,
    ]);
  });

  it('refuses a directory with an EISDIR error', async () => {
    expect(await textOf({ file_path: ws.files.directory })).toEqual(['EISDIR: illegal operation on a directory, read', true]);
  });

  it('refuses a file outside the workspace as denied by the permission settings', async () => {
    expect(await textOf({ file_path: ws.outside })).toEqual(['File is in a directory that is denied by your permission settings.', true]);
  });

  it('refuses a binary file by its extension', async () => {
    expect(await textOf({ file_path: ws.files.binary })).toEqual([
      'This tool cannot read binary files. The file appears to be a binary .bin file. Please use appropriate tools for binary file analysis.',
      true,
    ]);
  });

  it('refuses a file whose bytes are binary under a text name', async () => {
    const file = writeFile(ws.root, 'nul.txt', Buffer.from([0x61, 0x00, 0x62, 0x0a]));
    expect(await textOf({ file_path: file })).toEqual([
      'This tool cannot read binary files. The file appears to be a binary .txt file. Please use appropriate tools for binary file analysis.',
      true,
    ]);
  });

  it('refuses a device file that would never end', async () => {
    expect(await textOf({ file_path: '/dev/zero' })).toEqual(["Cannot read '/dev/zero': this device file would block or produce infinite output.", true]);
  });

  it('answers input that fails the schema as Claude Code formats an InputValidationError', async () => {
    expect(await textOf({ offset: 'x' })).toEqual([
      'InputValidationError: Read failed due to the following issues:\n' +
        'The required parameter `file_path` is missing\n' +
        'The parameter `offset` type is expected as `number` but provided as `string`',
      true,
    ]);
    expect(await textOf({ file_path: ws.files.normal, length: 3 })).toEqual([
      'InputValidationError: Read failed due to the following issue:\nAn unexpected parameter `length` was provided',
      true,
    ]);
  });
});

describe('media through Read', () => {
  it('returns an image as one image part of its bytes', async () => {
    expect(await read({ file_path: ws.files.image })).toEqual({
      content: [{ type: 'image', mimeType: 'image/png', data: fs.readFileSync(ws.files.image).toString('base64') }],
      isError: false,
      data: {
        type: 'image',
        file: { filePath: ws.files.image, type: 'image/png', originalSize: fs.statSync(ws.files.image).size, bytes: fs.statSync(ws.files.image).size, width: 64, height: 48, originalWidth: 64, originalHeight: 48 },
      },
    });
  });

  it('returns a short PDF whole, as a document after the PDF file read line', async () => {
    const out = await read({ file_path: ws.files.pdf });
    expect(out.content).toEqual([
      { type: 'text', text: `PDF file read: ${ws.files.pdf} (1.5KB)` },
      { type: 'document', mimeType: 'application/pdf', data: fs.readFileSync(ws.files.pdf).toString('base64') },
    ]);
    expect(out.isError).toBe(false);
  });

  it('returns the pages asked for as images', async () => {
    const page = { type: 'image', mimeType: 'image/jpeg', data: expect.any(String) as unknown };
    expect(await read({ file_path: ws.files.pdf, pages: '2-3' })).toEqual({
      content: [{ type: 'text', text: `PDF pages extracted: 2 page(s) from ${ws.files.pdf} (pages 2-3 of 3).` }, page, page],
      isError: false,
      data: { type: 'pdf', file: { filePath: ws.files.pdf, originalSize: fs.statSync(ws.files.pdf).size, pageCount: 3, form: 'images', pages: { first: 2, last: 3 } } },
    });
  });

  it('requires pages for a PDF of more than 10 pages', async () => {
    expect(await textOf({ file_path: ws.files.bigPdf })).toEqual([
      'This PDF has 12 pages, which is too many to read at once. Use the pages parameter to read specific page ranges (e.g., pages: "1-5"). Maximum 20 pages per request.',
      true,
    ]);
  });

  it('refuses a page range past the end, a malformed one and one of more than 20 pages', async () => {
    expect(await textOf({ file_path: ws.files.pdf, pages: '2-5' })).toEqual(['PDF page range 2-5 exceeds the detected page count (3).', true]);
    expect(await textOf({ file_path: ws.files.pdf, pages: 'first' })).toEqual(['Invalid PDF page range: first.', true]);
    expect(await textOf({ file_path: ws.files.bigPdf, pages: '1-21' })).toEqual(['pages exceeds the maximum of 20 pages per request.', true]);
  });

  it('renders a notebook as its cells and outputs, without line numbers', async () => {
    expect(await textOf({ file_path: ws.files.notebook })).toEqual([
      '[cell 1: markdown]\n# Title\nSome text\n[cell 2: code, code]\nprint(1 + 1)\n[output: stdout]\n2',
      false,
    ]);
  });
});
