/**
 * Seed 004's `read_file` (PilotDeck) through `createTools(engine, 'pilotdeck')`: its name, alias,
 * description and schema verbatim, `N|line` text, the seed's validateInput issues, runtime errors
 * as `{ code, message }`, reminders, the unchanged-file stub, PDF rules and model-capability
 * fallbacks. Every expected text is the seed's template, written out.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIALECT_NAMES, type ToolOutput } from '../../src/tools.js';
import { useDialectSuite } from '../support/dialect-suite.js';
import { lineRange } from '../support/dialect-workspace.js';
import { writeFile } from '../support/temp-dir.js';

const suite = useDialectSuite('pilotdeck');
const { ws, read } = suite;

function text(value: string, data: unknown, isError = false): ToolOutput {
  return { content: [{ type: 'text', text: value }], isError, data };
}

/** A thrown PilotDeckToolRuntimeError, as the dialect answers it. */
function runtimeError(code: string, message: string): ToolOutput {
  return text(message, { code, message }, true);
}

/** A validateInput issue. */
function issue(path: string, message: string): ToolOutput {
  return text(message, { code: 'invalid_schema', path, message }, true);
}

const DESCRIPTION =
  'Reads a file from the current workspace. You can access workspace files directly by using this tool.\n' +
  'If the User provides a path to a file, assume that path is valid as long as it resolves inside the current workspace. ' +
  'It is okay to read a file that does not exist; an error will be returned.\n\nUsage:\n' +
  '- The file_path parameter may be a workspace-relative path or an absolute path, but it must resolve inside the current workspace\n' +
  '- By default, offset is 1 and the tool reads from the beginning of the file\n' +
  "- You can optionally specify offset and limit (especially handy for long files), but it's recommended to read the whole file by not providing these parameters\n" +
  '- Results are returned using cat -n format, with line numbers starting at 1\n' +
  '- This tool allows PilotDeck to read images (eg PNG, JPG, etc). When reading an image file the contents are presented visually when the current model supports image input\n' +
  '- This tool can read PDF files (.pdf). For large PDFs, provide the pages parameter to validate specific page ranges (e.g., pages: "1-5"). Maximum 20 pages per request\n' +
  '- This tool can read Jupyter notebooks (.ipynb files) and returns a text rendering of notebook cells and outputs\n' +
  '- This tool can only read files, not directories\n' +
  '- If you read a file that exists but has empty contents you will receive a system reminder warning in place of file contents';

describe('the read_file tool definition', () => {
  it('is named read_file with the alias Read and the seed description verbatim', () => {
    expect(DIALECT_NAMES).toContain('pilotdeck');
    expect(suite.tool.name).toBe('read_file');
    expect(suite.tool.aliases).toEqual(['Read']);
    expect(suite.tool.description).toBe(DESCRIPTION);
  });

  it('has the seed input schema: integers, pages, no other keys', () => {
    expect(suite.tool.inputSchema).toEqual({
      type: 'object',
      required: ['file_path'],
      additionalProperties: false,
      properties: {
        file_path: { type: 'string', description: 'The relative or absolute path to the file to read. The path must resolve inside the current workspace.' },
        offset: { type: 'integer', description: 'The 1-based line number to start reading from. Only provide if the file is too large to read at once.' },
        limit: { type: 'integer', description: 'The number of lines to read. Only provide if the file is too large to read at once.' },
        pages: {
          type: 'string',
          description: 'Page range for PDF files (e.g., "1-5", "3", "10-20"). Only applicable to PDF files. Maximum 20 pages per request.',
        },
      },
    });
  });
});

describe('text through read_file', () => {
  it('numbers a whole file N|line and describes the range in data', async () => {
    expect(await read({ file_path: ws.files.normal })).toEqual(
      text('1|alpha\n2|beta\n3|gamma', { filePath: 'normal.txt', kind: 'text', startLine: 1, endLine: 3, totalLines: 3, truncated: false }),
    );
  });

  it('reads a workspace-relative path and a window from a 1-based offset', async () => {
    expect(await read({ file_path: 'normal.txt', offset: 2, limit: 1 })).toEqual(
      text('2|beta', { filePath: 'normal.txt', kind: 'text', startLine: 2, endLine: 2, totalLines: 3, truncated: true }),
    );
  });

  it('reads the whole file by default: no 2000-line window', async () => {
    const lines = lineRange(1, 2500, (n) => `${n}|line ${n}`);
    expect(await read({ file_path: 'long.txt' })).toEqual(
      text(lines, { filePath: 'long.txt', kind: 'text', startLine: 1, endLine: 2500, totalLines: 2500, truncated: false }),
    );
  });

  it('shows a long line whole: the seed cuts no line for its length', async () => {
    expect(await read({ file_path: 'long-line.txt' })).toEqual(
      text(`1|short\n2|${'x'.repeat(5000)}\n3|end`, { filePath: 'long-line.txt', kind: 'text', startLine: 1, endLine: 3, totalLines: 3, truncated: false }),
    );
  });

  it('refuses output over the text token budget with the seed error, and reads a smaller portion', async () => {
    writeFile(ws.root, 'wide.txt', `${'w'.repeat(100)}\n`.repeat(2000));
    expect(await read({ file_path: 'wide.txt' })).toEqual(
      runtimeError('result_too_large', 'File content from wide.txt exceeds the text token budget. Use offset and limit to read a smaller portion.'),
    );
    expect(await read({ file_path: 'wide.txt', offset: 1999 })).toEqual(
      text(`1999|${'w'.repeat(100)}\n2000|${'w'.repeat(100)}`, { filePath: 'wide.txt', kind: 'text', startLine: 1999, endLine: 2000, totalLines: 2000, truncated: true }),
    );
  });

  it('numbers CRLF lines like LF ones', async () => {
    expect((await read({ file_path: 'crlf.txt' })).content).toEqual([{ type: 'text', text: '1|one\n2|two\n3|three' }]);
  });

  it('answers an empty file with the empty-contents reminder', async () => {
    expect(await read({ file_path: 'empty.txt' })).toEqual(
      text('<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>', {
        filePath: 'empty.txt', kind: 'text', startLine: 1, endLine: 0, totalLines: 0, truncated: false,
      }),
    );
  });

  it('answers an offset past the end, and a limit of 0, with the shorter-than-offset reminder', async () => {
    expect(await read({ file_path: 'normal.txt', offset: 10 })).toEqual(
      text('<system-reminder>Warning: the file exists but is shorter than the provided offset (10). The file has 3 lines.</system-reminder>', {
        filePath: 'normal.txt', kind: 'text', startLine: 10, endLine: 9, totalLines: 3, truncated: true,
      }),
    );
    expect((await read({ file_path: 'normal.txt', limit: 0 })).content).toEqual([
      { type: 'text', text: '<system-reminder>Warning: the file exists but is shorter than the provided offset (1). The file has 3 lines.</system-reminder>' },
    ]);
  });

  it('answers a second identical read in a session with the unchanged-file stub', async () => {
    writeFile(ws.root, 'stub.txt', 'one\ntwo\n');
    expect((await read({ file_path: 'stub.txt' }, { session: 's1' })).content).toEqual([{ type: 'text', text: '1|one\n2|two' }]);
    expect(await read({ file_path: 'stub.txt' }, { session: 's1' })).toEqual(
      text('File unchanged since the last read. Refer to the earlier read_file result instead of re-reading it.', { filePath: 'stub.txt', kind: 'text', unchanged: true }),
    );
  });
});

describe('validateInput and runtime errors of read_file', () => {
  it('rejects an offset below 1, a negative limit and malformed or oversized page ranges with the seed issues', async () => {
    expect(await read({ file_path: 'normal.txt', offset: 0 })).toEqual(issue('offset', 'offset must be a 1-based line number (>= 1).'));
    expect(await read({ file_path: 'normal.txt', limit: -1 })).toEqual(issue('limit', 'limit must be greater than or equal to 0.'));
    expect(await read({ file_path: 'small.pdf', pages: 'first' })).toEqual(issue('pages', 'pages must use formats like "1-5" or "3".'));
    expect(await read({ file_path: 'big.pdf', pages: '1-21' })).toEqual(issue('pages', 'pages exceeds the maximum of 20 pages per request.'));
  });

  it('rejects device files and binary extensions before reading', async () => {
    expect(await read({ file_path: '/dev/zero' })).toEqual(issue('file_path', 'device files that block or stream infinitely are not readable.'));
    expect(await read({ file_path: 'data.bin' })).toEqual(issue('file_path', 'binary files are not supported by read_file.'));
    expect(await read({ file_path: 'archive.zip' })).toEqual(issue('file_path', 'binary files are not supported by read_file.'));
  });

  it('rejects a file whose bytes are binary under a text name with the same issue', async () => {
    writeFile(ws.root, 'nul.txt', Buffer.from([0x61, 0x00, 0x62, 0x0a]));
    expect(await read({ file_path: 'nul.txt' })).toEqual(issue('file_path', 'binary files are not supported by read_file.'));
  });

  it('answers input that fails the schema with the field and the reason', async () => {
    expect(await read({ file_path: 'normal.txt', offset: 1.5 })).toEqual(issue('offset', 'offset: Invalid input: expected int, received number'));
  });

  it('answers a missing file, a directory and a path outside the workspace as runtime errors', async () => {
    expect(await read({ file_path: 'missing.txt' })).toEqual(runtimeError('file_not_found', 'File not found: missing.txt.'));
    expect(await read({ file_path: 'normal.md' })).toEqual(runtimeError('file_not_found', 'File not found: normal.md. Did you mean normal.txt?'));
    expect(await read({ file_path: 'dir' })).toEqual(runtimeError('not_a_file', 'Path is a directory, not a file: dir.'));
    expect(await read({ file_path: ws.outside })).toEqual(runtimeError('path_outside_workspace', `Path ${ws.outside} resolves outside the current workspace.`));
  });
});

describe('media through read_file', () => {
  it('returns an image as an image part, with its sizes in data', async () => {
    const size = fs.statSync(ws.files.image).size;
    expect(await read({ file_path: 'image.png' })).toEqual({
      content: [{ type: 'image', mimeType: 'image/png', data: fs.readFileSync(ws.files.image).toString('base64') }],
      isError: false,
      data: { filePath: 'image.png', kind: 'image', mimeType: 'image/png', bytes: size, originalBytes: size },
    });
  });

  it('describes an image in the seed words for a model that takes no images', async () => {
    const size = fs.statSync(ws.files.image).size;
    expect(await read({ file_path: 'image.png' }, { accept: { images: false } })).toEqual(
      text(`[Image file: image.png, ${size} bytes, image/png. Current model does not support image input.]`, { filePath: 'image.png', kind: 'image', modelSupportsImage: false }),
    );
  });

  it('refuses an image that cannot be decoded with the seed corruption error', async () => {
    writeFile(ws.root, 'broken.png', 'not a png at all');
    expect(await read({ file_path: 'broken.png' })).toEqual(
      runtimeError('invalid_tool_input', 'Image file appears truncated or corrupted (16 bytes). Cannot decode.'),
    );
  });

  it('returns a short PDF whole after the PDF file read line', async () => {
    const size = fs.statSync(ws.files.pdf).size;
    expect(await read({ file_path: 'small.pdf' })).toEqual({
      content: [
        { type: 'text', text: `PDF file read: small.pdf (${size} bytes, 3 pages)` },
        { type: 'document', mimeType: 'application/pdf', data: fs.readFileSync(ws.files.pdf).toString('base64') },
      ],
      isError: false,
      data: { filePath: 'small.pdf', kind: 'pdf', bytes: size, pageCount: 3 },
    });
  });

  it('renders the pages asked for as images after the PDF pages extracted line', async () => {
    const page = { type: 'image', mimeType: 'image/jpeg', data: expect.any(String) as unknown };
    expect(await read({ file_path: 'big.pdf', pages: '11-12' })).toEqual({
      content: [{ type: 'text', text: 'PDF pages extracted: 2 page(s) from big.pdf (pages 11-12 of 12).' }, page, page],
      isError: false,
      data: {
        filePath: 'big.pdf', kind: 'pdf', pdfPagesRendered: true, pageCount: 12, requestedPages: '11-12',
        renderedPages: { firstPage: 11, lastPage: 12 }, truncated: false,
      },
    });
  });

  it('requires pages for a PDF of more than 10 pages, and refuses a range past its end', async () => {
    expect(await read({ file_path: 'big.pdf' })).toEqual(
      runtimeError(
        'invalid_tool_input',
        'This PDF has 12 pages, which is too many to read at once. Use the pages parameter to read specific page ranges (e.g., pages: "1-5"). Maximum 20 pages per request.',
      ),
    );
    expect(await read({ file_path: 'small.pdf', pages: '2-5' })).toEqual(runtimeError('invalid_tool_input', 'PDF page range 2-5 exceeds the detected page count (3).'));
  });

  it('renders a PDF as page images for a model that takes images but no PDFs', async () => {
    const page = { type: 'image', mimeType: 'image/jpeg', data: expect.any(String) as unknown };
    expect(await read({ file_path: 'small.pdf' }, { accept: { pdf: false } })).toEqual({
      content: [{ type: 'text', text: '[PDF pages rendered from small.pdf: 1-3 of 3 (model does not support PDF input).]' }, page, page, page],
      isError: false,
      data: {
        filePath: 'small.pdf', kind: 'pdf', modelSupportsPdf: false, pdfPagesRendered: true, degradeReason: 'model does not support PDF input',
        pageCount: 3, renderedPages: { firstPage: 1, lastPage: 3 }, truncated: false,
      },
    });
  });

  it('says in the seed words what a model that takes neither PDFs nor images cannot see', async () => {
    const size = fs.statSync(ws.files.pdf).size;
    expect(await read({ file_path: 'small.pdf' }, { accept: { pdf: false, images: false } })).toEqual(
      text(`[PDF file: small.pdf, ${size} bytes, 3 pages. Current model does not support PDF input or image input.]`, {
        filePath: 'small.pdf', kind: 'pdf', modelSupportsPdf: false, modelSupportsImage: false, pageCount: 3,
      }),
    );
    expect(await read({ file_path: 'small.pdf', pages: '1' }, { accept: { images: false } })).toEqual(
      text(`[PDF file: small.pdf, ${size} bytes, 3 pages. Current model does not support image input; cannot render requested pages.]`, {
        filePath: 'small.pdf', kind: 'pdf', modelSupportsImage: false, pageCount: 3,
      }),
    );
  });

  it('renders a notebook as numbered N|line text with its cell count', async () => {
    expect(await read({ file_path: 'notebook.ipynb' })).toEqual(
      text('1|[cell 1: markdown]\n2|# Title\n3|Some text\n4|[cell 2: code, code]\n5|print(1 + 1)\n6|[output: stdout]\n7|2', {
        filePath: 'notebook.ipynb', kind: 'notebook', startLine: 1, endLine: 7, totalLines: 7, truncated: false, cellCount: 2,
      }),
    );
  });
});
