/**
 * The `gemini-cli` dialect (seed 003: Gemini CLI's read_file with `absolute_path` and a 0-based
 * `offset`) through `createTools(engine, 'gemini-cli')`. Every expected text is written out from
 * the seed's template and messages and from `processSingleFileContent`'s line model (a split on
 * `\r?\n`, so a final newline is an empty last line that counts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIALECT_NAMES, type ToolOutput } from '../../src/tools.js';
import { useDialectSuite } from '../support/dialect-suite.js';
import { lineRange, NOTEBOOK } from '../support/dialect-workspace.js';
import { writeFile } from '../support/temp-dir.js';

let bigLog: string;
let huge: string;
let linkOut: string;
let svg: string;
let bigSvg: string;

const BIG_LOG_LINES = 120_000;

const suite = useDialectSuite('gemini-cli', {
  engine: { settleMs: 0 },
  prepare: (ws) => {
    // Over 1 MiB, so the engine records a line index and later pages start with a seek.
    bigLog = writeFile(ws.root, 'big.log', Array.from({ length: BIG_LOG_LINES }, (_, i) => `row ${i + 1}\n`).join(''));
    huge = writeFile(ws.root, 'huge.txt', '');
    fs.truncateSync(huge, 21 * 1024 * 1024);
    svg = writeFile(ws.root, 'icon.svg', `<svg>\n<g d="${'q'.repeat(3000)}"/>\n</svg>\n`);
    bigSvg = writeFile(ws.root, 'big.svg', `<svg>\n${'<g/>\n'.repeat(230_000)}</svg>\n`);
    linkOut = path.join(ws.root, 'link-out.txt');
    fs.symlinkSync(ws.outside, linkOut);
  },
});
const { ws, read } = suite;

/** A successful text answer: the model reads `llmContent`, and `data` is the seed's ToolResult. */
function textAnswer(llmContent: string, returnDisplay: string): ToolOutput {
  return { content: [{ type: 'text', text: llmContent }], isError: false, data: { llmContent, returnDisplay } };
}

function errorAnswer(llmContent: string, returnDisplay: string, message: string, type: string): ToolOutput {
  return { content: [{ type: 'text', text: llmContent }], isError: true, data: { llmContent, returnDisplay, error: { message, type } } };
}

function invalidParams(reason: string): ToolOutput {
  return errorAnswer(`Error: Invalid parameters provided. Reason: ${reason}`, reason, reason, 'invalid_tool_params');
}

/** The seed's truncation header, as its template reads. */
function header(start: number, end: number, total: number, nextOffset: number): string {
  return (
    '\nIMPORTANT: The file content has been truncated.\n' +
    `Status: Showing lines ${start}-${end} of ${total} total lines.\n` +
    "Action: To read more of the file, you can use the 'offset' and 'limit' parameters in a subsequent 'read_file' call. " +
    `For example, to read the next section of the file, use offset: ${nextOffset}.\n` +
    '\n--- FILE CONTENT (truncated) ---\n'
  );
}

function lines(from: number, to: number, name = 'line'): string {
  return lineRange(from, to, (n) => `${name} ${n}`);
}

describe('the gemini-cli tool definition', () => {
  it('is read_file with the seed description and parameter schema, verbatim', () => {
    expect(DIALECT_NAMES).toContain('gemini-cli');
    expect(suite.tool.name).toBe('read_file');
    expect(suite.tool.title).toBe('ReadFile');
    expect(suite.tool.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(suite.tool.description).toBe(
      "Reads and returns the content of a specified file. If the file is large, the content will be truncated. The tool's response will clearly indicate if truncation has occurred and will provide details on how to read more of the file using the 'offset' and 'limit' parameters. Handles text, images (PNG, JPG, GIF, WEBP, SVG, BMP), and PDF files. For text files, it can read specific line ranges.",
    );
    expect(suite.tool.inputSchema).toEqual({
      type: 'object',
      properties: {
        absolute_path: {
          type: 'string',
          description:
            "The absolute path to the file to read (e.g., '/home/user/project/file.txt'). Relative paths are not supported. You must provide an absolute path.",
        },
        offset: {
          type: 'number',
          description:
            "Optional: For text files, the 0-based line number to start reading from. Requires 'limit' to be set. Use for paginating through large files.",
        },
        limit: {
          type: 'number',
          description:
            "Optional: For text files, maximum number of lines to read. Use with 'offset' to paginate through large files. If omitted, reads the entire file (if feasible, up to a default limit).",
        },
      },
      required: ['absolute_path'],
    });
  });
});

describe('text through the gemini-cli dialect', () => {
  it('returns a whole small file raw, its final newline kept, with no header and an empty returnDisplay', async () => {
    expect(await read({ absolute_path: ws.files.normal })).toEqual(textAnswer('alpha\nbeta\ngamma\n', ''));
  });

  it('heads a window with the truncation header; the final newline is a fourth, empty line in the total', async () => {
    expect(await read({ absolute_path: ws.files.normal, offset: 1, limit: 1 })).toEqual(
      textAnswer(`${header(2, 2, 4, 2)}beta`, 'Read lines 2-2 of 4 from normal.txt'),
    );
  });

  it('calls any window that starts after line 1 truncated, even one that reaches the end', async () => {
    expect(await read({ absolute_path: ws.files.normal, offset: 1 })).toEqual(
      textAnswer(`${header(2, 4, 4, 4)}beta\ngamma\n`, 'Read lines 2-4 of 4 from normal.txt'),
    );
  });

  it('stops at 2000 lines and names the 0-based offset of the next one', async () => {
    expect(await read({ absolute_path: ws.files.long })).toEqual(
      textAnswer(`${header(1, 2000, 2501, 2000)}${lines(1, 2000)}`, 'Read lines 1-2000 of 2501 from long.txt'),
    );
  });

  it('reads the next page from that offset, with the seed arithmetic offset + end - start + 1', async () => {
    expect(await read({ absolute_path: ws.files.long, offset: 2000, limit: 2000 })).toEqual(
      textAnswer(`${header(2001, 2501, 2501, 2501)}${lines(2001, 2500)}\n`, 'Read lines 2001-2501 of 2501 from long.txt'),
    );
  });

  it('cuts a line over 2000 characters with "... [truncated]" and says some lines were shortened', async () => {
    expect(await read({ absolute_path: ws.files.longLine })).toEqual(
      textAnswer(
        `${header(1, 4, 4, 4)}short\n${'x'.repeat(2000)}... [truncated]\nend\n`,
        'Read all 4 lines from long-line.txt (some lines were shortened)',
      ),
    );
  });

  it('returns an empty file as an empty text, not truncated', async () => {
    expect(await read({ absolute_path: ws.files.empty })).toEqual(textAnswer('', ''));
  });

  it('answers an offset past the end with the header alone, its range inverted as the seed computes it', async () => {
    expect(await read({ absolute_path: ws.files.normal, offset: 10, limit: 5 })).toEqual(
      textAnswer(header(5, 4, 4, 10), 'Read lines 5-4 of 4 from normal.txt'),
    );
  });

  it('turns CRLF line ends into LF', async () => {
    expect(await read({ absolute_path: ws.files.crlf })).toEqual(textAnswer('one\ntwo\nthree\n', ''));
  });

  it('reads a notebook as its raw JSON text', async () => {
    expect(await read({ absolute_path: ws.files.notebook })).toEqual(textAnswer(JSON.stringify(NOTEBOOK), ''));
  });

  it('returns an SVG whole as its text, long lines uncut, whatever the window', async () => {
    const whole = `<svg>\n<g d="${'q'.repeat(3000)}"/>\n</svg>\n`;
    expect(await read({ absolute_path: svg })).toEqual(textAnswer(whole, 'Read SVG as text: icon.svg'));
    expect(await read({ absolute_path: svg, offset: 1, limit: 1 })).toEqual(textAnswer(whole, 'Read SVG as text: icon.svg'));
  });

  it('skips an SVG over 1 MB, not as an error', async () => {
    expect(await read({ absolute_path: bigSvg })).toEqual(
      textAnswer('Cannot display content of SVG file larger than 1MB: big.svg', 'Skipped large SVG file (>1MB): big.svg'),
    );
  });

  it('pages through a large file with the same total on every page, the first read and the seeks after it', async () => {
    const expected = textAnswer(
      `${header(100_001, 100_003, BIG_LOG_LINES + 1, 100_003)}${lines(100_001, 100_003, 'row')}`,
      `Read lines 100001-100003 of ${BIG_LOG_LINES + 1} from big.log`,
    );
    expect(await read({ absolute_path: bigLog, offset: 100_000, limit: 3 })).toEqual(expected);
    expect(await read({ absolute_path: bigLog, offset: 100_000, limit: 3 })).toEqual(expected);
    expect(await read({ absolute_path: bigLog, offset: BIG_LOG_LINES - 1, limit: 5 })).toEqual(
      textAnswer(`${header(BIG_LOG_LINES, BIG_LOG_LINES + 1, BIG_LOG_LINES + 1, BIG_LOG_LINES + 1)}row ${BIG_LOG_LINES}\n`, `Read lines 120000-120001 of 120001 from big.log`),
    );
  });

  it('has no unchanged-file stubs: a session reading a file twice gets its content twice', async () => {
    const first = await read({ absolute_path: ws.files.normal }, { session: 's1' });
    const second = await read({ absolute_path: ws.files.normal }, { session: 's1' });
    expect(first).toEqual(textAnswer('alpha\nbeta\ngamma\n', ''));
    expect(second).toEqual(first);
  });
});

describe('failures through the gemini-cli dialect', () => {
  it('answers a missing file with FILE_NOT_FOUND and the seed text', async () => {
    expect(await read({ absolute_path: ws.missing })).toEqual(
      errorAnswer(
        'Could not read file because no file was found at the specified path.',
        'File not found.',
        `File not found: ${ws.missing}`,
        'file_not_found',
      ),
    );
  });

  it('answers a directory as invalid parameters with the seed text', async () => {
    expect(await read({ absolute_path: ws.files.directory })).toEqual(
      errorAnswer(
        'Could not read file because the provided path is a directory, not a file.',
        'Path is a directory.',
        `Path is a directory, not a file: ${ws.files.directory}`,
        'invalid_tool_params',
      ),
    );
  });

  it('refuses a file outside the workspace, naming the workspace directories', async () => {
    expect(await read({ absolute_path: ws.outside })).toEqual(invalidParams(`File path must be within one of the workspace directories: ${ws.root}`));
  });

  it('refuses a link inside the workspace that leads outside it the same way', async () => {
    expect(await read({ absolute_path: linkOut })).toEqual(invalidParams(`File path must be within one of the workspace directories: ${ws.root}`));
  });

  it('answers a binary file with the "cannot display" text, not as an error', async () => {
    expect(await read({ absolute_path: ws.files.binary })).toEqual({
      content: [{ type: 'text', text: 'Cannot display content of binary file: data.bin' }],
      isError: false,
      data: { llmContent: 'Cannot display content of binary file: data.bin', returnDisplay: 'Skipped binary file: data.bin' },
    });
  });

  it('refuses a file over 20 MB with FILE_TOO_LARGE, its size in MB', async () => {
    const message = `File size exceeds the 20MB limit: ${huge} (21.00MB)`;
    expect(await read({ absolute_path: huge })).toEqual(
      errorAnswer(`Could not read file. ${message}`, 'File size exceeds the 20MB limit.', message, 'file_too_large'),
    );
  });
});

describe('invalid input through the gemini-cli dialect', () => {
  it('refuses a relative path in the seed words', async () => {
    expect(await read({ absolute_path: 'normal.txt' })).toEqual(
      invalidParams('File path must be absolute, but was relative: normal.txt. You must provide an absolute path.'),
    );
  });

  it('refuses a negative offset and a limit below 1', async () => {
    expect(await read({ absolute_path: ws.files.normal, offset: -1 })).toEqual(invalidParams('Offset must be a non-negative number'));
    expect(await read({ absolute_path: ws.files.normal, limit: 0 })).toEqual(invalidParams('Limit must be a positive number'));
  });

  it('words schema failures as its JSON Schema validator does', async () => {
    expect(await read({})).toEqual(invalidParams("params must have required property 'absolute_path'"));
    expect(await read({ absolute_path: ws.files.normal, offset: '2' })).toEqual(invalidParams('params/offset must be number'));
    expect(await read('normal.txt')).toEqual(invalidParams('params must be object'));
  });
});

describe('media through the gemini-cli dialect', () => {
  it('returns an image whole as an image part, and as inlineData in llmContent', async () => {
    const data = fs.readFileSync(ws.files.image).toString('base64');
    expect(await read({ absolute_path: ws.files.image })).toEqual({
      content: [{ type: 'image', mimeType: 'image/png', data }],
      isError: false,
      data: { llmContent: { inlineData: { data, mimeType: 'image/png' } }, returnDisplay: 'Read image file: image.png' },
    });
  });

  it('returns a small PDF whole as a document part', async () => {
    const data = fs.readFileSync(ws.files.pdf).toString('base64');
    expect(await read({ absolute_path: ws.files.pdf })).toEqual({
      content: [{ type: 'document', mimeType: 'application/pdf', data }],
      isError: false,
      data: { llmContent: { inlineData: { data, mimeType: 'application/pdf' } }, returnDisplay: 'Read pdf file: small.pdf' },
    });
  });

  it('returns a PDF too large to send whole as one image a page', async () => {
    // The pages' JPEG bytes are the renderer's; their shape is the dialect's.
    const jpeg: unknown = expect.any(String);
    const page = { type: 'image', mimeType: 'image/jpeg', data: jpeg };
    const inline = { inlineData: { data: jpeg, mimeType: 'image/jpeg' } };
    expect(await read({ absolute_path: ws.files.bigPdf })).toEqual({
      content: Array.from({ length: 12 }, () => page),
      isError: false,
      data: { llmContent: Array.from({ length: 12 }, () => inline), returnDisplay: 'Read pdf file: big.pdf' },
    });
  });
});
