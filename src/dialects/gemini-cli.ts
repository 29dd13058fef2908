/**
 * Seed 003: Gemini CLI's `read_file` (`absolute_path`, 0-based `offset`, `limit`). `data` is the
 * seed's `ToolResult` (`{ llmContent, returnDisplay, error? }`); the model reads `llmContent`.
 * Text follows `processSingleFileContent` (0.61.0): raw lines split on `\r?\n`, so a final
 * newline is an empty last line that counts (`a\nb\n` has 3); 2000 lines; lines over 2000
 * characters cut with `... [truncated]`; a window that leaves lines out, or cuts one, follows the
 * seed's header. Answers are rendered in `gemini-cli-output.ts`; texts and error types are the
 * seed's, in `gemini-cli-prose.ts`.
 */
import path from 'node:path';
import { z } from 'zod';
import type { RenderSpec } from '../core/line-format.js';
import type { Engine } from '../engine.js';
import { ReadError } from '../errors.js';
import type { ReadRequest } from '../request.js';
import { errorOutput, invalid, outputOf, refused, type Window } from './gemini-cli-output.js';
import * as prose from './gemini-cli-prose.js';
import { MAX_PAGES_PER_REQUEST } from './pdf-pages.js';
import { isInsideRoots, relativeToRoots, rootsOf } from './roots.js';
import { defineTool, readFor, type ToolDefinition, type ToolOptions } from './tool.js';

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
function windowOf(input: Input): Window {
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

/** The seed's `validateToolParams` after the schema: absolute, inside the workspace, offset, limit. */
function refusalOf(input: Input, roots: readonly string[]): string | null {
  if (!path.isAbsolute(input.absolute_path)) return prose.relativePath(input.absolute_path);
  if (!isInsideRoots(roots, input.absolute_path)) return prose.outsideWorkspace(roots);
  if (input.offset !== undefined && input.offset < 0) return prose.NEGATIVE_OFFSET;
  if (input.limit !== undefined && input.limit <= 0) return prose.NON_POSITIVE_LIMIT;
  return null;
}

/** A PDF too large to send whole is answered with its first pages as images (the engine's most). */
function pagesToRetry(error: unknown): string | null {
  if (!(error instanceof ReadError) || error.code !== 'invalid_request' || typeof error.details.pageCount !== 'number') return null;
  return `1-${Math.min(error.details.pageCount, MAX_PAGES_PER_REQUEST)}`;
}

export function createGeminiCliTools(engine: Engine, _options: ToolOptions = {}): ToolDefinition[] {
  return [
    defineTool({
      ...prose.TOOL,
      schema,
      invalid,
      run: async (input, context) => {
        const roots = rootsOf(engine, context);
        const refusal = refusalOf(input, roots);
        if (refusal !== null) return refused(refusal);
        const retry = (error: unknown) => {
          const pages = pagesToRetry(error);
          if (pages === null) throw error;
          return readFor(engine, requestOf(input, pages), context);
        };
        try {
          const result = await readFor(engine, requestOf(input), context).catch(retry);
          const call = { absolute: input.absolute_path, relative: relativeToRoots(roots, path.resolve(input.absolute_path)), window: windowOf(input), svg: isSvg(input.absolute_path) };
          return outputOf(result, call);
        } catch (error) {
          // Answered here, where the call's roots are known.
          if (error instanceof ReadError) return errorOutput(error, input.absolute_path, roots);
          throw error;
        }
      },
      fail: (error, input) => errorOutput(error, input.absolute_path, engine.roots),
    }),
  ];
}
