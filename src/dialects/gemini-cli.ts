/**
 * Seed 003: Gemini CLI's `read_file` (`absolute_path`, 0-based `offset`, `limit`). `data` is the
 * seed's `ToolResult` (`{ llmContent, returnDisplay, error? }`); the model reads `llmContent`.
 * Text follows `processSingleFileContent` (0.61.0): raw lines split on `\r?\n`, so a final
 * newline is an empty last line that counts (`a\nb\n` has 3); 2000 lines; lines over 2000
 * characters cut with `... [truncated]`; a window that leaves lines out, or cuts one, follows the
 * seed's header. Texts and error types are the seed's, in `gemini-cli-prose.ts`.
 */
import path from 'node:path';
import { z } from 'zod';
import type { RenderSpec } from '../core/line-format.js';
import type { Engine } from '../engine.js';
import { ReadError } from '../errors.js';
import type { ReadRequest } from '../request.js';
import type { ReadResult, TextResult } from '../result.js';
import * as prose from './gemini-cli-prose.js';
import { text, imagePart, pdfParts } from './parts.js';
import { isInsideRoots, relativeToRoots } from './roots.js';
import { defineTool, readFor, type ContentPart, type InputIssue, type ToolContext, type ToolDefinition, type ToolOptions, type ToolOutput } from './tool.js';

// `z.object`, not strict: the seed's schema allows other keys, and they are ignored.
const schema = z.object({
  absolute_path: z.string().describe(prose.PARAMETERS.absolute_path),
  offset: z.number().optional().describe(prose.PARAMETERS.offset),
  limit: z.number().optional().describe(prose.PARAMETERS.limit),
});

type Input = z.output<typeof schema>;

export const RENDER: RenderSpec = { format: { numbered: false }, cutMarker: '... [truncated]' };
/** SVG is sent whole, as the file's text: no line is cut for its length, only the output budget stops it. */
const SVG_RENDER: RenderSpec = { format: { numbered: false }, cutMarker: '', cut: 'budget' };
const isSvg = (file: string) => /\.svg$/i.test(file);

const DEFAULT_LIMIT = 2000;
const MAX_LINE = Number.MAX_SAFE_INTEGER;

/** The 0-based first line and the line count a valid input asks for (fractions count down). */
function windowOf(input: Input): { first: number; count: number } {
  const first = Math.min(Math.floor(input.offset ?? 0), MAX_LINE - 1);
  return { first, count: Math.min(Math.max(1, Math.floor(input.limit ?? DEFAULT_LIMIT)), MAX_LINE) };
}

function requestOf(input: Input, pages?: string): ReadRequest {
  const { first, count } = windowOf(input);
  // A notebook is text to Gemini CLI; images and PDFs are media, as their names say.
  const request: ReadRequest = isSvg(input.absolute_path)
    ? { path: input.absolute_path, limit: MAX_LINE, fresh: true, render: SVG_RENDER }
    : { path: input.absolute_path, offset: first + 1, limit: count, fresh: true, render: RENDER };
  if (/\.ipynb$/i.test(input.absolute_path)) request.media = false;
  if (pages !== undefined) request.pages = pages;
  return request;
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
function refused(reason: string): ToolOutput {
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
function textAnswer(result: TextResult, input: Input, relative: string): ToolOutput {
  const { first } = windowOf(input);
  const engineTotal = result.totalLines ?? result.endLine;
  const total = engineTotal + (result.finalBreak || engineTotal === 0 ? 1 : 0);
  const start = Math.min(first, total);
  const budgetStop = result.truncated !== false && result.truncated.reason !== 'lines';
  const end = budgetStop ? result.endLine : Math.min(first + windowOf(input).count, total);
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
function svgAnswer(result: TextResult, input: Input, relative: string): ToolOutput {
  if (result.size > prose.SVG.maxBytes) return answer([text(prose.SVG.skipped(relative))], prose.SVG.skipped(relative), prose.SVG.skippedDisplay(relative));
  if (result.truncated !== false) return textAnswer(result, { ...input, offset: 0 }, relative);
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

function outputOf(result: ReadResult, input: Input, relative: string): ToolOutput {
  if (result.kind !== 'unchanged' && result.size > prose.MAX_FILE_BYTES) return tooLarge(input.absolute_path, result.size);
  switch (result.kind) {
    case 'text':
      return isSvg(input.absolute_path) ? svgAnswer(result, input, relative) : textAnswer(result, input, relative);
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
function errorOutput(error: ReadError, input: Input, roots: readonly string[]): ToolOutput {
  const { code, details } = error;
  const absolute = input.absolute_path;
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

/** The seed's `validateToolParams` after the schema: absolute, inside the workspace, offset, limit. */
function refusalOf(input: Input, roots: readonly string[]): string | null {
  if (!path.isAbsolute(input.absolute_path)) return prose.relativePath(input.absolute_path);
  if (!isInsideRoots(roots, input.absolute_path)) return prose.outsideWorkspace(roots);
  if (input.offset !== undefined && input.offset < 0) return prose.NEGATIVE_OFFSET;
  if (input.limit !== undefined && input.limit <= 0) return prose.NON_POSITIVE_LIMIT;
  return null;
}

/** The first schema failure, as the seed's validator words it. */
function invalid(issues: readonly InputIssue[], input: unknown): ToolOutput {
  const key = issues[0]?.path[0];
  const object = typeof input === 'object' && input !== null && !Array.isArray(input);
  const field = object && key !== undefined ? String(key) : null;
  return refused(prose.schemaIssue(field, field !== null && (input as Record<string, unknown>)[field] === undefined));
}

/** A PDF too large to send whole is answered with its first pages as images (the engine's most). */
function pagesToRetry(error: unknown): string | null {
  if (!(error instanceof ReadError) || error.code !== 'invalid_request' || typeof error.details.pageCount !== 'number') return null;
  return `1-${Math.min(error.details.pageCount, 20)}`;
}

export function createGeminiCliTools(engine: Engine, _options: ToolOptions = {}): ToolDefinition[] {
  const rootsOf = (context: ToolContext) => context.roots ?? engine.roots;
  return [
    defineTool({
      name: prose.TOOL_NAME,
      title: prose.TITLE,
      description: prose.DESCRIPTION,
      schema,
      invalid,
      run: async (input, context) => {
        const roots = rootsOf(context);
        const refusal = refusalOf(input, roots);
        if (refusal !== null) return refused(refusal);
        const retry = (error: unknown) => {
          const pages = pagesToRetry(error);
          if (pages === null) throw error;
          return readFor(engine, requestOf(input, pages), context);
        };
        try {
          const result = await readFor(engine, requestOf(input), context).catch(retry);
          return outputOf(result, input, relativeToRoots(roots, path.resolve(input.absolute_path)));
        } catch (error) {
          // Answered here, where the call's roots are known.
          if (error instanceof ReadError) return errorOutput(error, input, roots);
          throw error;
        }
      },
      fail: (error, input) => errorOutput(error, input, engine.roots),
    }),
  ];
}
