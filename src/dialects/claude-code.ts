/**
 * Seed 001: Claude Code's Read (2.0.14). `file_path` (absolute; a relative one resolves against
 * the first root), 1-based `offset` (0 and negatives read from line 1), `limit` (2000 lines by
 * default); `cat -n` lines as 2.0 rendered them (`     1→line`), or 2.1's `1\tline` with
 * `lineFormat: 'tab'`; lines over 2000 characters cut; the `<system-reminder>` warnings for empty
 * files and offsets past the end; images, PDFs (with 2.1's `pages`) and notebooks as content
 * parts. A page the token cap cut short starts with 2.1's PARTIAL view reminder. Texts are in
 * `claude-code-prose.ts`.
 */
import path from 'node:path';
import { z } from 'zod';
import type { RenderSpec } from '../core/line-format.js';
import type { Engine } from '../engine.js';
import { ReadError } from '../errors.js';
import type { ReadRequest } from '../request.js';
import type { ReadResult } from '../result.js';
import * as prose from './claude-code-prose.js';
import { text, textOutput, imagePart, notebookParts, pdfParts } from './parts.js';
import { binaryExtensionOf, isBlockedDevicePath } from './path-guards.js';
import { defineTool, readFor, type InputIssue, type ToolContext, type ToolDefinition, type ToolOptions, type ToolOutput } from './tool.js';

const schema = z.strictObject({
  file_path: z.string().describe(prose.PARAMETERS.file_path),
  offset: z.number().optional().describe(prose.PARAMETERS.offset),
  limit: z.number().optional().describe(prose.PARAMETERS.limit),
  pages: z.string().optional().describe(prose.PARAMETERS.pages),
});

type Input = z.output<typeof schema>;

/** 2.0: the number right-aligned to 6 characters, then `→`. 2.1: `N\tline`. Cut lines carry no marker. */
const ARROW: RenderSpec = { format: { numbered: true, prefix: '', width: 6, separator: '→' }, cutMarker: '' };
const TAB: RenderSpec = { format: { numbered: true, prefix: '', width: 0, separator: '\t' }, cutMarker: '' };
/** Notebook cells are shown as cells, not as `cat -n` lines. */
const CELLS: RenderSpec = { format: { numbered: false }, cutMarker: '' };

const MAX_LINE = Number.MAX_SAFE_INTEGER;
const MAX_PAGES = 20;
const MAX_WHOLE_PDF_PAGES = 10;

/** The 1-based window Claude Code reads: offsets below 1 start at line 1, limits below 1 take the default. */
function windowOf(input: Input): { offset: number; limit: number } {
  const whole = (value: number | undefined) => (value === undefined || !(value >= 1) ? null : Math.min(Math.floor(value), MAX_LINE));
  return { offset: whole(input.offset) ?? 1, limit: whole(input.limit) ?? prose.DEFAULT_READ_LINES };
}

function requestOf(input: Input, render: RenderSpec, pages: string | undefined): ReadRequest {
  const { offset, limit } = windowOf(input);
  const request: ReadRequest = { path: input.file_path, offset, limit, maxTokens: prose.MAX_OUTPUT_TOKENS, render: /\.ipynb$/i.test(input.file_path) ? CELLS : render };
  if (pages !== undefined) request.pages = pages;
  return request;
}

/** `pages` as "3" or "1-5": its range, or the refusal Claude Code answers. */
function pagesOf(pages: string): { first: number; last: number } | string {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(pages);
  const first = Number(match?.[1]);
  const last = match?.[2] === undefined ? first : Number(match[2]);
  if (match === null || first < 1 || last < first) return prose.pdfBadRange(pages);
  return last - first + 1 > MAX_PAGES ? prose.pdfRangeTooLong : { first, last };
}

const refuse = (message: string, code: string) => textOutput(message, true, { code });

function outputOf(result: ReadResult, input: Input, absolute: string): ToolOutput {
  switch (result.kind) {
    case 'text': {
      const { startLine, endLine, truncated } = result;
      const totalLines = result.totalLines ?? endLine;
      const data = { type: 'text', file: { filePath: absolute, startLine, numLines: Math.max(0, endLine - startLine + 1), totalLines, truncated: truncated !== false } };
      if (endLine < startLine) return textOutput(totalLines === 0 ? prose.EMPTY_FILE : prose.pastEnd(startLine, totalLines), false, data);
      if (truncated === false || truncated.reason === 'lines') return textOutput(result.content, false, data);
      const reminder = prose.partialView(startLine, endLine, totalLines, Math.ceil(result.size / 4));
      return textOutput(`${reminder}\n${result.content}`, false, data);
    }
    case 'unchanged':
      return textOutput(prose.UNCHANGED, false, { type: 'file_unchanged', file: { filePath: absolute } });
    case 'image': {
      const { mimeType, bytes, width, height, originalWidth, originalHeight } = result;
      const data = { type: 'image', file: { filePath: absolute, type: mimeType, originalSize: result.size, bytes, width, height, originalWidth, originalHeight } };
      return { content: [imagePart(result)], isError: false, data };
    }
    case 'description':
      return textOutput(result.text, false, { type: 'image', file: { filePath: absolute, originalSize: result.size } });
    case 'pdf': {
      const { pageCount, pages } = result;
      const wanted = input.pages === undefined ? null : pagesOf(input.pages);
      if (typeof wanted === 'object' && wanted !== null && wanted.last > pageCount) return refuse(prose.pdfRangePastEnd(input.pages ?? '', pageCount), 'invalid_request');
      const lead = result.form === 'document' ? prose.pdfRead(absolute, result.size) : result.form === 'images' && pages !== null ? prose.pdfPages(absolute, pages.first, pages.last, pageCount) : result.note;
      const data = { type: 'pdf', file: { filePath: absolute, originalSize: result.size, pageCount, form: result.form, pages } };
      return { content: [text(lead), ...pdfParts(result)], isError: false, data };
    }
    case 'notebook': {
      const { startLine, endLine, totalLines, cells } = result;
      const data = { type: 'notebook', file: { filePath: absolute, cells, startLine, numLines: Math.max(0, endLine - startLine + 1), totalLines } };
      return { content: notebookParts(result, result.content), isError: false, data };
    }
    case 'binary': // never: reads do not allow binary
      return refuse(prose.binaryFile(path.extname(absolute)), 'binary_file');
  }
}

/** An engine refusal in Claude Code's words. */
function errorOutput(error: ReadError, input: Input, roots: readonly string[]): ToolOutput {
  const { code, details } = error;
  const cwd = roots[0] ?? '';
  if (code === 'not_found') {
    const [first] = Array.isArray(details.suggestions) ? details.suggestions.filter((s): s is string => typeof s === 'string') : [];
    return refuse(prose.notFound(cwd, first === undefined ? null : path.resolve(cwd, first)), code);
  }
  if (code === 'is_directory') return refuse(prose.DIRECTORY, code);
  if (code === 'outside_root' || code === 'denied') return refuse(prose.DENIED, code);
  if (code === 'not_regular_file') return refuse(prose.deviceFile(input.file_path), code);
  if (code === 'binary_file') return refuse(prose.binaryFile(path.extname(input.file_path)), code);
  if (code === 'file_too_large' && typeof details.size === 'number' && typeof details.limit === 'number' && details.limitName !== 'maxImagePixels') {
    return refuse(prose.tooLarge(details.size, details.limit), code);
  }
  // The rest (unreadable, corrupt or encrypted media, timeouts) in the engine's own words.
  return refuse(error.message, code);
}

/** A value's type as a schema failure names it: never "object" for null, nor "number" for NaN. */
function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isNaN(value)) return 'nan';
  if (typeof value === 'number' && !Number.isFinite(value)) return 'infinity';
  return typeof value;
}

/** A schema failure as Claude Code's `formatZodError` words it. */
function invalid(issues: readonly InputIssue[], input: unknown): ToolOutput {
  const given = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const lines = issues.flatMap((issue) => {
    const keys = (issue as { keys?: unknown }).keys;
    if (issue.code === 'unrecognized_keys' && Array.isArray(keys)) return keys.map((key) => prose.unexpectedParameter(String(key)));
    const name = issue.path.map(String).join('.');
    const value = given[name];
    if (issue.path.length === 0) return [prose.wrongType('input', 'object', typeName(input))];
    if (value === undefined) return [prose.missingParameter(name)];
    const expected = name === 'file_path' || name === 'pages' ? 'string' : 'number';
    return [prose.wrongType(name, expected, typeName(value))];
  });
  return refuse(prose.inputValidation(lines), 'invalid_request');
}

export function createClaudeCodeTools(engine: Engine, options: ToolOptions = {}): ToolDefinition[] {
  const render = options.lineFormat === 'tab' ? TAB : ARROW;
  const rootsOf = (context: ToolContext) => context.roots ?? engine.roots;
  return [
    defineTool({
      name: prose.TOOL_NAME,
      title: 'Read',
      description: prose.DESCRIPTION,
      schema,
      invalid,
      run: async (input, context) => {
        const roots = rootsOf(context);
        const absolute = path.resolve(roots[0] ?? '/', input.file_path);
        if (isBlockedDevicePath(absolute)) return refuse(prose.deviceFile(input.file_path), 'not_regular_file');
        const extension = binaryExtensionOf(absolute);
        if (extension !== null) return refuse(prose.binaryFile(extension), 'binary_file');
        const wanted = input.pages === undefined ? null : pagesOf(input.pages);
        if (typeof wanted === 'string') return refuse(wanted, 'invalid_request');
        try {
          return outputOf(await readFor(engine, requestOf(input, render, input.pages), context), input, absolute);
        } catch (error) {
          if (!(error instanceof ReadError)) throw error;
          const pageCount = error.code === 'invalid_request' ? error.details.pageCount : undefined;
          if (typeof pageCount !== 'number') return errorOutput(error, input, roots);
          if (input.pages !== undefined) return refuse(prose.pdfRangePastEnd(input.pages, pageCount), 'invalid_request');
          if (pageCount > MAX_WHOLE_PDF_PAGES) return refuse(prose.pdfTooManyPages(pageCount), 'invalid_request');
          // A short PDF too large to send whole: its pages as images.
          return outputOf(await readFor(engine, requestOf(input, render, `1-${pageCount}`), context), input, absolute);
        }
      },
      fail: (error, input) => errorOutput(error, input, engine.roots),
    }),
  ];
}
