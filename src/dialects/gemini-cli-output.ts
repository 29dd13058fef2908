/**
 * What Gemini CLI's `read_file` answers (see `gemini-cli.ts`): its `ToolResult` (`llmContent`
 * for the model, `returnDisplay`, and `error` with its type) for a result, a refusal or a schema
 * failure. Text follows `processSingleFileContent`'s line model and truncation header. Texts are
 * in `gemini-cli-prose.ts`.
 */
import path from 'node:path';
import type { ReadError } from '../errors.js';
import type { ReadResult, TextResult } from '../result.js';
import * as prose from './gemini-cli-prose.js';
import { imagePart, pdfParts, text } from './parts.js';
import { relativeToRoots } from './roots.js';
import type { ContentPart, InputIssue, ToolOutput } from './tool.js';

/** The 0-based first line and the line count a call asks for. */
export interface Window {
  readonly first: number;
  readonly count: number;
}

/** A read as the call named it: its path, that path relative to the workspace, and its window. */
export interface Call {
  readonly absolute: string;
  readonly relative: string;
  readonly window: Window;
  readonly svg: boolean;
}

/** A `ToolResult` as the tool returns it: `llmContent` for the model, the whole result as `data`. */
function answer(content: ContentPart[], llmContent: unknown, returnDisplay: string, error?: { message: string; type: prose.ErrorType }): ToolOutput {
  const data = error === undefined ? { llmContent, returnDisplay } : { llmContent, returnDisplay, error };
  return { content, isError: error !== undefined, data };
}

function failure(llmContent: string, returnDisplay: string, message: string, type: prose.ErrorType): ToolOutput {
  return answer([text(llmContent)], llmContent, returnDisplay, { message, type });
}

/** A parameter the tool refuses, as `validateBuildAndExecute` answers it. */
export function refused(reason: string): ToolOutput {
  return failure(prose.invalidParameters(reason), reason, reason, prose.ERROR_TYPES.invalidParams);
}

function tooLarge(absolute: string, size: number): ToolOutput {
  const message = prose.TOO_LARGE.error(absolute, size);
  return failure(prose.couldNotRead(message), prose.TOO_LARGE.returnDisplay, message, prose.ERROR_TYPES.tooLarge);
}

/**
 * A text window in Gemini CLI's line model: the engine's lines plus, when the file ends with a
 * break (or is empty), one more empty line. Window ends past the engine's last line land on it.
 */
function textAnswer(result: TextResult, window: Window, relative: string): ToolOutput {
  const { first } = window;
  const engineTotal = result.totalLines ?? result.endLine;
  const total = engineTotal + (result.finalBreak || engineTotal === 0 ? 1 : 0);
  const start = Math.min(first, total);
  const budgetStop = result.truncated !== false && result.truncated.reason !== 'lines';
  const end = budgetStop ? result.endLine : Math.min(first + window.count, total);
  const shortened = result.cutLines > 0;
  // The empty last line adds the break that ends the line before it.
  const body = end > engineTotal && result.endLine >= result.startLine ? `${result.content}\n` : result.content;
  const windowed = start > 0 || end < total;
  const returnDisplay = prose.textDisplay(start + 1, end, total, relative, windowed, shortened);
  if (!windowed && !shortened) return answer([text(body)], body, returnDisplay);
  // The seed's arithmetic on `linesShown` [S, E]: the 0-based offset of the line after E.
  const [shownFrom, shownTo] = [start + 1, end];
  const nextOffset = first ? first + shownTo - shownFrom + 1 : shownTo;
  const llmContent = prose.truncationHeader(shownFrom, shownTo, total, nextOffset) + body;
  return answer([text(llmContent)], llmContent, returnDisplay);
}

/** An SVG as its text, whole; one over 1 MB is skipped, and one over the output budget has the header. */
function svgAnswer(result: TextResult, window: Window, relative: string): ToolOutput {
  if (result.size > prose.SVG.maxBytes) return answer([text(prose.SVG.skipped(relative))], prose.SVG.skipped(relative), prose.SVG.skippedDisplay(relative));
  if (result.truncated !== false) return textAnswer(result, { ...window, first: 0 }, relative);
  const body = result.finalBreak ? `${result.content}\n` : result.content;
  return answer([text(body)], body, prose.SVG.display(relative));
}

/** Not an error to Gemini CLI: a text that says the content cannot be shown. */
function binaryAnswer(relative: string): ToolOutput {
  return answer([text(prose.BINARY.llmContent(relative))], prose.BINARY.llmContent(relative), prose.BINARY.returnDisplay(relative));
}

function inline(part: { mimeType: string; data: string }) {
  return { inlineData: { data: part.data, mimeType: part.mimeType } };
}

export function outputOf(result: ReadResult, call: Call): ToolOutput {
  const { relative } = call;
  if (result.kind !== 'unchanged' && result.size > prose.MAX_FILE_BYTES) return tooLarge(call.absolute, result.size);
  switch (result.kind) {
    case 'text':
      return call.svg ? svgAnswer(result, call.window, relative) : textAnswer(result, call.window, relative);
    case 'image':
      return answer([imagePart(result)], inline(result), prose.mediaDisplay('image', relative));
    case 'description':
      return answer([text(result.text)], result.text, prose.mediaDisplay('image', relative));
    case 'pdf': {
      const parts = pdfParts(result);
      const last = result.pages?.last ?? result.pageCount;
      const llmContent = result.form === 'document' && result.data !== null ? inline({ mimeType: 'application/pdf', data: result.data }) : result.form === 'images' ? result.images.map(inline) : result.text;
      const note = result.form === 'images' && last < result.pageCount ? [text(prose.pdfPagesShown(relative, last, result.pageCount))] : [];
      return answer([...note, ...parts], llmContent, prose.mediaDisplay('pdf', relative));
    }
    case 'binary': // never: reads do not allow binary
      return binaryAnswer(relative);
    case 'notebook': // never: notebooks are read as text, and every read is fresh
    case 'unchanged':
      throw new Error(`gemini-cli: unexpected ${result.kind} result`);
  }
}

/** An engine refusal in the seed's words, keyed as the seed maps `processSingleFileContent`'s errors. */
export function errorOutput(error: ReadError, absolute: string, roots: readonly string[]): ToolOutput {
  const { code, details } = error;
  const relative = relativeToRoots(roots, path.resolve(absolute));
  const size = typeof details.size === 'number' ? details.size : 0;
  if (code === 'not_found') return failure(prose.NOT_FOUND.llmContent, prose.NOT_FOUND.returnDisplay, prose.NOT_FOUND.error(absolute), prose.ERROR_TYPES.notFound);
  if (code === 'is_directory') return failure(prose.DIRECTORY.llmContent, prose.DIRECTORY.returnDisplay, prose.DIRECTORY.error(absolute), prose.ERROR_TYPES.invalidParams);
  // Through a symbolic link: the workspace check resolves links too.
  if (code === 'outside_root') return refused(prose.outsideWorkspace(roots));
  if (code === 'denied') return refused(prose.ignored(absolute));
  if (code === 'file_too_large' || (code === 'binary_file' && size > prose.MAX_FILE_BYTES)) return tooLarge(absolute, size);
  if (code === 'binary_file') return binaryAnswer(relative);
  const reason = prose.failureReason(code, details);
  const message = prose.readFailure(absolute, reason);
  return failure(prose.couldNotRead(message), prose.readFailure(relative, reason), message, prose.ERROR_TYPES.readFailure);
}

/** The first schema failure, as the seed's validator words it. */
export function invalid(issues: readonly InputIssue[], input: unknown): ToolOutput {
  const key = issues[0]?.path[0];
  const object = typeof input === 'object' && input !== null && !Array.isArray(input);
  const field = object && key !== undefined ? String(key) : null;
  return refused(prose.schemaIssue(field, field !== null && (input as Record<string, unknown>)[field] === undefined));
}
