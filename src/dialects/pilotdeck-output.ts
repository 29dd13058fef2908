/**
 * What PilotDeck's `read_file` answers (see `pilotdeck.ts`): validateInput issues (`{ code:
 * 'invalid_schema', path, message }`), thrown `PilotDeckToolRuntimeError`s (`{ code, message }`),
 * the unchanged-file stub, numbered lines and their reminders, images, and engine refusals as the
 * seed's path resolution and checks answer them. PDFs are in `pilotdeck-pdf.ts`; texts in
 * `pilotdeck-prose.ts`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ReadError } from '../errors.js';
import type { NotebookResult, ReadResult, TextResult } from '../result.js';
import { stringsOf } from './error-details.js';
import { imagePart, notebookParts, textOutput } from './parts.js';
import * as prose from './pilotdeck-prose.js';
import { relativeToRoots, resolveInRoots } from './roots.js';
import type { InputIssue, ToolOutput } from './tool.js';

export type Kind = 'text' | 'image' | 'pdf' | 'notebook';

const IMAGE_MIME: Readonly<Record<string, string>> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp', '.bmp': 'image/bmp', '.tif': 'image/tiff', '.tiff': 'image/tiff', '.avif': 'image/avif' };

/** The MIME type the seed names an image by, from its extension. */
export function imageMimeOf(file: string): string {
  return IMAGE_MIME[path.extname(file).toLowerCase()] ?? 'image';
}

/** A validateInput issue: its message as the text, `{ code: 'invalid_schema', path, message }` as data. */
export const issue = (field: string, message: string) => textOutput(message, true, { code: 'invalid_schema', path: field, message });
/** A thrown `PilotDeckToolRuntimeError`. */
export const runtime = (code: string, message: string) => textOutput(message, true, { code, message });

export function stub(relativePath: string, kind: Kind): ToolOutput {
  return textOutput(prose.FILE_UNCHANGED_STUB, false, { filePath: relativePath, kind, unchanged: true });
}

/** Text or a notebook's rendering: numbered lines, or a reminder; over the token budget an error. */
export function linesOutput(result: TextResult | NotebookResult, asked: { readonly offset?: number | undefined; readonly limit?: number | undefined }, kind: 'text' | 'notebook'): ToolOutput {
  const { relativePath, startLine, content } = result;
  const totalLines = result.totalLines ?? result.endLine;
  const endLine = asked.limit === 0 ? startLine - 1 : result.endLine;
  if ((result.truncated !== false && result.truncated.reason !== 'lines') || result.cutLines > 0) {
    return runtime('result_too_large', prose.overTokenBudget(relativePath));
  }
  const data = { filePath: relativePath, kind, startLine, endLine, totalLines, truncated: startLine > 1 || endLine < totalLines };
  if (result.kind === 'notebook') {
    return { content: notebookParts(result, endLine >= startLine ? content : ''), isError: false, data: { ...data, cellCount: result.cells } };
  }
  if (endLine >= startLine) return textOutput(content, false, data);
  return textOutput(totalLines === 0 ? prose.EMPTY_FILE : prose.pastEnd(asked.offset ?? 1, totalLines), false, data);
}

export function imageOutput(result: ReadResult, mimeType: string): ToolOutput {
  if (result.kind === 'unchanged') return stub(result.relativePath, 'image');
  if (result.kind === 'description') {
    return textOutput(prose.imageUnsupported(result.relativePath, result.size, mimeType), false, { filePath: result.relativePath, kind: 'image', modelSupportsImage: false });
  }
  if (result.kind !== 'image') throw new Error(`pilotdeck: unexpected ${result.kind} result for an image`);
  const data = { filePath: result.relativePath, kind: 'image', mimeType: result.mimeType, bytes: result.bytes, originalBytes: result.originalBytes };
  return { content: [imagePart(result)], isError: false, data };
}

/** An engine refusal as the seed's path resolution and checks answer it. */
export async function errorOutput(error: ReadError, asked: { readonly filePath: string; readonly pages: string | undefined }, roots: readonly string[], kind: Kind): Promise<ToolOutput> {
  const absolute = resolveInRoots(roots, asked.filePath);
  const relative = relativeToRoots(roots, absolute);
  const { code, details } = error;
  if (code === 'outside_root') return runtime(prose.PATH_CODES.outside, prose.outsideWorkspace(asked.filePath));
  if (code === 'not_found') return runtime(prose.PATH_CODES.notFound, prose.notFound(relative, stringsOf(details.suggestions)));
  if (code === 'is_directory') return runtime(prose.PATH_CODES.directory, prose.directory(relative));
  if (code === 'not_regular_file') return issue('file_path', prose.DEVICE_FILE);
  if (code === 'binary_file') return issue('file_path', prose.BINARY_FILE);
  if (code === 'invalid_request' && typeof details.pageCount === 'number' && asked.pages !== undefined) {
    return runtime('invalid_tool_input', prose.pdfRangePastEnd(asked.pages, details.pageCount));
  }
  if (code === 'corrupt_media' && kind === 'image') {
    if (details.reason === 'cannot-fit-budget') return runtime('result_too_large', prose.imageOverBudget(imageMimeOf(absolute)));
    const bytes = await fs.stat(absolute).then((stat) => stat.size, () => 0);
    return runtime('invalid_tool_input', prose.imageCorrupt(bytes));
  }
  return runtime(code, error.message);
}

/** The first schema failure: the field and zod's reason. */
export function invalid(issues: readonly InputIssue[]): ToolOutput {
  const first = issues[0];
  const field = first === undefined || first.path.length === 0 ? 'input' : first.path.map(String).join('.');
  return issue(field, `${field}: ${first?.message ?? 'invalid input'}`);
}
