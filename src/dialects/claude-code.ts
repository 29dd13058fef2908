/**
 * Seed 001: Claude Code's Read (2.0.14). `file_path` (absolute; a relative one resolves against
 * the first root), 1-based `offset` (0 and negatives read from line 1), `limit` (2000 lines by
 * default); `cat -n` lines as 2.0 rendered them (`     1→line`), or 2.1's `1\tline` with
 * `lineFormat: 'tab'`; lines over 2000 characters cut; the `<system-reminder>` warnings for empty
 * files and offsets past the end; images, PDFs (with 2.1's `pages`) and notebooks as content
 * parts. A page the token cap cut short starts with 2.1's PARTIAL view reminder. Answers are
 * rendered in `claude-code-output.ts`, their texts are in `claude-code-prose.ts`.
 */
import { z } from 'zod';
import type { RenderSpec } from '../core/line-format.js';
import type { Engine } from '../engine.js';
import { ReadError } from '../errors.js';
import type { ReadRequest } from '../request.js';
import { errorOutput, invalid, outputOf, refuse } from './claude-code-output.js';
import * as prose from './claude-code-prose.js';
import { binaryExtensionOf, isBlockedDevicePath } from './path-guards.js';
import { MAX_PAGES_PER_REQUEST, parsePageRange } from './pdf-pages.js';
import { resolveInRoots, rootsOf } from './roots.js';
import { defineTool, readFor, type ToolDefinition, type ToolOptions } from './tool.js';

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
  const range = parsePageRange(pages);
  if (range === null) return prose.pdfBadRange(pages);
  return range.last - range.first + 1 > MAX_PAGES_PER_REQUEST ? prose.pdfRangeTooLong : range;
}

export function createClaudeCodeTools(engine: Engine, options: ToolOptions = {}): ToolDefinition[] {
  const render = options.lineFormat === 'tab' ? TAB : ARROW;
  return [
    defineTool({
      ...prose.TOOL,
      schema,
      invalid,
      run: async (input, context) => {
        const roots = rootsOf(engine, context);
        const absolute = resolveInRoots(roots, input.file_path);
        if (isBlockedDevicePath(absolute)) return refuse(prose.deviceFile(input.file_path), 'not_regular_file');
        const extension = binaryExtensionOf(absolute);
        if (extension !== null) return refuse(prose.binaryFile(extension), 'binary_file');
        const wanted = input.pages === undefined ? null : pagesOf(input.pages);
        if (typeof wanted === 'string') return refuse(wanted, 'invalid_request');
        try {
          return outputOf(await readFor(engine, requestOf(input, render, input.pages), context), input.pages, absolute);
        } catch (error) {
          if (!(error instanceof ReadError)) throw error;
          const pageCount = error.code === 'invalid_request' ? error.details.pageCount : undefined;
          if (typeof pageCount !== 'number') return errorOutput(error, input.file_path, roots[0] ?? '');
          if (input.pages !== undefined) return refuse(prose.pdfRangePastEnd(input.pages, pageCount), 'invalid_request');
          if (pageCount > MAX_WHOLE_PDF_PAGES) return refuse(prose.pdfTooManyPages(pageCount), 'invalid_request');
          // A short PDF too large to send whole: its pages as images.
          return outputOf(await readFor(engine, requestOf(input, render, `1-${pageCount}`), context), input.pages, absolute);
        }
      },
      fail: (error, input) => errorOutput(error, input.file_path, engine.roots[0] ?? ''),
    }),
  ];
}
