/**
 * What Claude Code's Read answers (see `claude-code.ts`): a `ReadResult`, a `ReadError` and a
 * schema failure rendered into its content parts and its `data` (the file record Claude Code
 * keeps). Refusals carry `{ code }` as data. Texts are in `claude-code-prose.ts`.
 */
import path from 'node:path';
import type { ReadError } from '../errors.js';
import type { ReadResult } from '../result.js';
import * as prose from './claude-code-prose.js';
import { stringsOf } from './error-details.js';
import { imagePart, notebookParts, pdfParts, text, textOutput } from './parts.js';
import { parsePageRange } from './pdf-pages.js';
import type { InputIssue, ToolOutput } from './tool.js';

export const refuse = (message: string, code: string) => textOutput(message, true, { code });

/** A result for `absolute`; `pages` is the range the call asked for (already checked), if any. */
export function outputOf(result: ReadResult, pages: string | undefined, absolute: string): ToolOutput {
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
      const { pageCount } = result;
      const wanted = pages === undefined ? null : parsePageRange(pages);
      if (pages !== undefined && wanted !== null && wanted.last > pageCount) return refuse(prose.pdfRangePastEnd(pages, pageCount), 'invalid_request');
      const shown = result.pages;
      const lead = result.form === 'document' ? prose.pdfRead(absolute, result.size) : result.form === 'images' && shown !== null ? prose.pdfPages(absolute, shown.first, shown.last, pageCount) : result.note;
      const data = { type: 'pdf', file: { filePath: absolute, originalSize: result.size, pageCount, form: result.form, pages: shown } };
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

/** An engine refusal in Claude Code's words; `filePath` as the call gave it, `cwd` the first root. */
export function errorOutput(error: ReadError, filePath: string, cwd: string): ToolOutput {
  const { code, details } = error;
  if (code === 'not_found') {
    const [first] = stringsOf(details.suggestions);
    return refuse(prose.notFound(cwd, first === undefined ? null : path.resolve(cwd, first)), code);
  }
  if (code === 'is_directory') return refuse(prose.DIRECTORY, code);
  if (code === 'outside_root' || code === 'denied') return refuse(prose.DENIED, code);
  if (code === 'not_regular_file') return refuse(prose.deviceFile(filePath), code);
  if (code === 'binary_file') return refuse(prose.binaryFile(path.extname(filePath)), code);
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
export function invalid(issues: readonly InputIssue[], input: unknown): ToolOutput {
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
