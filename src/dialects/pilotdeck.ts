/**
 * Seed 004: PilotDeck's `read_file` (alias `Read`). `file_path` relative or absolute inside the
 * workspace, 1-based `offset`, `limit` (the whole file when absent), `pages` for PDFs; `N|line`
 * text; the seed's validateInput issues, unchanged-file stub, reminders, PDF rules and
 * model-capability fallbacks. Its `PilotDeckToolRuntimeError`s are results with `isError` whose
 * text is the message and whose `data` is `{ code, message }`. Texts are in `pilotdeck-prose.ts`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { RenderSpec } from '../core/line-format.js';
import type { Engine } from '../engine.js';
import { ReadError } from '../errors.js';
import { kindByName } from '../media/kind.js';
import type { ReadRequest } from '../request.js';
import type { NotebookResult, ReadResult, TextResult } from '../result.js';
import * as prose from './pilotdeck-prose.js';
import { text, textOutput, imagePart, notebookParts } from './parts.js';
import { binaryExtensionOf, isBlockedDevicePath } from './path-guards.js';
import { relativeToRoots } from './roots.js';
import { defineTool, readFor, type InputIssue, type ToolContext, type ToolDefinition, type ToolOptions, type ToolOutput } from './tool.js';

const schema = z.strictObject({
  file_path: z.string().describe(prose.PARAMETERS.file_path),
  offset: z.number().int().optional().describe(prose.PARAMETERS.offset),
  limit: z.number().int().optional().describe(prose.PARAMETERS.limit),
  pages: z.string().optional().describe(prose.PARAMETERS.pages),
});

type Input = z.output<typeof schema>;
type Kind = 'text' | 'image' | 'pdf' | 'notebook';

/** `N|line`; lines are never cut for length (the seed has no line cap), only the budget stops them. */
const LINES: RenderSpec = { format: { numbered: true, prefix: '', width: 0, separator: '|' }, cutMarker: '', cut: 'budget' };
const ALL_LINES = Number.MAX_SAFE_INTEGER;
const IMAGE_MIME: Readonly<Record<string, string>> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp', '.bmp': 'image/bmp', '.tif': 'image/tiff', '.tiff': 'image/tiff', '.avif': 'image/avif' };

/** A validateInput issue: its message as the text, `{ code: 'invalid_schema', path, message }` as data. */
const issue = (field: string, message: string) => textOutput(message, true, { code: 'invalid_schema', path: field, message });
/** A thrown `PilotDeckToolRuntimeError`. */
const runtime = (code: string, message: string) => textOutput(message, true, { code, message });

/** `parsePdfPageRange`: "3" or "1-5", 1-based, ascending; null otherwise. */
function parsePages(pages: string): { firstPage: number; lastPage: number } | null {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(pages);
  const firstPage = Number(match?.[1]);
  const lastPage = match?.[2] === undefined ? firstPage : Number(match[2]);
  return match === null || firstPage < 1 || lastPage < firstPage ? null : { firstPage, lastPage };
}

/** The seed's validateInput, in its order. */
function validate(input: Input, absolute: string): ToolOutput | null {
  if (input.offset !== undefined && input.offset < 1) return issue('offset', prose.OFFSET_BELOW_ONE);
  if (input.limit !== undefined && input.limit < 0) return issue('limit', prose.NEGATIVE_LIMIT);
  if (input.pages !== undefined) {
    const parsed = parsePages(input.pages);
    if (parsed === null) return issue('pages', prose.PAGES_FORMAT);
    if (parsed.lastPage - parsed.firstPage + 1 > prose.MAX_PDF_PAGES_PER_REQUEST) return issue('pages', prose.PAGES_TOO_MANY);
  }
  if (isBlockedDevicePath(absolute)) return issue('file_path', prose.DEVICE_FILE);
  if (binaryExtensionOf(absolute) !== null) return issue('file_path', prose.BINARY_FILE);
  return null;
}

function stub(relativePath: string, kind: Kind): ToolOutput {
  return textOutput(prose.FILE_UNCHANGED_STUB, false, { filePath: relativePath, kind, unchanged: true });
}

/** Text or a notebook's rendering: numbered lines, or a reminder; over the token budget an error. */
function linesOutput(result: TextResult | NotebookResult, input: Input, kind: 'text' | 'notebook'): ToolOutput {
  const { relativePath, startLine, content } = result;
  const totalLines = result.totalLines ?? result.endLine;
  const endLine = input.limit === 0 ? startLine - 1 : result.endLine;
  if ((result.truncated !== false && result.truncated.reason !== 'lines') || result.cutLines > 0) {
    return runtime('result_too_large', prose.overTokenBudget(relativePath));
  }
  const data = { filePath: relativePath, kind, startLine, endLine, totalLines, truncated: startLine > 1 || endLine < totalLines };
  if (result.kind === 'notebook') {
    return { content: notebookParts(result, endLine >= startLine ? content : ''), isError: false, data: { ...data, cellCount: result.cells } };
  }
  if (endLine >= startLine) return textOutput(content, false, data);
  return textOutput(totalLines === 0 ? prose.EMPTY_FILE : prose.pastEnd(input.offset ?? 1, totalLines), false, data);
}

function imageOutput(result: ReadResult, mimeType: string): ToolOutput {
  if (result.kind === 'unchanged') return stub(result.relativePath, 'image');
  if (result.kind === 'description') {
    return textOutput(prose.imageUnsupported(result.relativePath, result.size, mimeType), false, { filePath: result.relativePath, kind: 'image', modelSupportsImage: false });
  }
  if (result.kind !== 'image') throw new Error(`pilotdeck: unexpected ${result.kind} result for an image`);
  const data = { filePath: result.relativePath, kind: 'image', mimeType: result.mimeType, bytes: result.bytes, originalBytes: result.originalBytes };
  return { content: [imagePart(result)], isError: false, data };
}

/** A context without the session: reads that only learn a PDF's facts leave no mark to stub. */
function sessionless(context: ToolContext): ToolContext {
  const rest = { ...context };
  delete (rest as { session?: string }).session;
  return rest;
}

async function pdfOutput(engine: Engine, input: Input, context: ToolContext): Promise<ToolOutput> {
  const supportsPdf = context.accept?.pdf !== false;
  const supportsImage = context.accept?.images !== false;
  const probe = await readFor(engine, { path: input.file_path, pages: '1', accept: { images: false, pdf: false } }, sessionless(context));
  if (probe.kind !== 'pdf') throw new Error(`pilotdeck: unexpected ${probe.kind} result for a PDF`);
  const { relativePath, size, pageCount } = probe;
  const render = async (pages: string | undefined): Promise<ReadResult> =>
    readFor(engine, { path: input.file_path, ...(pages === undefined ? {} : { pages }), accept: { images: true, pdf: pages === undefined } }, context);
  const parsed = input.pages === undefined ? null : parsePages(input.pages);
  if (input.pages !== undefined && parsed !== null) {
    if (parsed.lastPage > pageCount) return runtime('invalid_tool_input', prose.pdfRangePastEnd(input.pages, pageCount));
    if (!supportsImage) return textOutput(prose.pdfPagesNoImages(relativePath, size, pageCount), false, { filePath: relativePath, kind: 'pdf', modelSupportsImage: false, pageCount });
    const result = await render(input.pages);
    if (result.kind === 'unchanged') return stub(relativePath, 'pdf');
    if (result.kind !== 'pdf') throw new Error(`pilotdeck: unexpected ${result.kind} result for a PDF`);
    const { firstPage, lastPage } = parsed;
    const data = { filePath: relativePath, kind: 'pdf', pdfPagesRendered: true, pageCount, requestedPages: input.pages, renderedPages: { firstPage, lastPage }, truncated: false };
    return { content: [text(prose.pdfPagesExtracted(relativePath, firstPage, lastPage, pageCount)), ...result.images.map(imagePart)], isError: false, data };
  }
  if (pageCount > prose.PDF_AT_MENTION_INLINE_THRESHOLD) return runtime('invalid_tool_input', prose.pdfTooManyPages(pageCount));
  if (!supportsPdf || size > prose.PDF_EXTRACT_SIZE_THRESHOLD) {
    if (!supportsImage) {
      return textOutput(prose.pdfNoPdfNoImages(relativePath, size, pageCount), false, { filePath: relativePath, kind: 'pdf', modelSupportsPdf: false, modelSupportsImage: false, pageCount });
    }
    const lastPage = Math.min(pageCount, prose.MAX_PDF_PAGES_PER_REQUEST);
    const result = await render(`1-${lastPage}`);
    if (result.kind === 'unchanged') return stub(relativePath, 'pdf');
    if (result.kind !== 'pdf') throw new Error(`pilotdeck: unexpected ${result.kind} result for a PDF`);
    const degradeReason = supportsPdf ? prose.DEGRADE_SIZE : prose.DEGRADE_NO_PDF;
    const data = { filePath: relativePath, kind: 'pdf', modelSupportsPdf: supportsPdf, pdfPagesRendered: true, degradeReason, pageCount, renderedPages: { firstPage: 1, lastPage }, truncated: false };
    return { content: [text(prose.pdfPagesRendered(relativePath, 1, lastPage, pageCount, degradeReason)), ...result.images.map(imagePart)], isError: false, data };
  }
  const result = await render(undefined);
  if (result.kind === 'unchanged') return stub(relativePath, 'pdf');
  if (result.kind !== 'pdf' || result.data === null) throw new Error('pilotdeck: expected the whole PDF as a document');
  const data = { filePath: relativePath, kind: 'pdf', bytes: size, pageCount };
  return { content: [text(prose.pdfRead(relativePath, size, pageCount)), { type: 'document', mimeType: 'application/pdf', data: result.data }], isError: false, data };
}

/** An engine refusal as the seed's path resolution and checks answer it. */
async function errorOutput(error: ReadError, input: Input, roots: readonly string[], kind: Kind): Promise<ToolOutput> {
  const absolute = path.resolve(roots[0] ?? '/', input.file_path);
  const relative = relativeToRoots(roots, absolute);
  const { code, details } = error;
  if (code === 'outside_root') return runtime(prose.PATH_CODES.outside, prose.outsideWorkspace(input.file_path));
  if (code === 'not_found') {
    const suggestions = Array.isArray(details.suggestions) ? details.suggestions.filter((s): s is string => typeof s === 'string') : [];
    return runtime(prose.PATH_CODES.notFound, prose.notFound(relative, suggestions));
  }
  if (code === 'is_directory') return runtime(prose.PATH_CODES.directory, prose.directory(relative));
  if (code === 'not_regular_file') return issue('file_path', prose.DEVICE_FILE);
  if (code === 'binary_file') return issue('file_path', prose.BINARY_FILE);
  if (code === 'invalid_request' && typeof details.pageCount === 'number' && input.pages !== undefined) {
    return runtime('invalid_tool_input', prose.pdfRangePastEnd(input.pages, details.pageCount));
  }
  if (code === 'corrupt_media' && kind === 'image') {
    const mimeType = IMAGE_MIME[path.extname(absolute).toLowerCase()] ?? 'image';
    if (details.reason === 'cannot-fit-budget') return runtime('result_too_large', prose.imageOverBudget(mimeType));
    const bytes = await fs.stat(absolute).then((stat) => stat.size, () => 0);
    return runtime('invalid_tool_input', prose.imageCorrupt(bytes));
  }
  return runtime(code, error.message);
}

function invalid(issues: readonly InputIssue[]): ToolOutput {
  const first = issues[0];
  const field = first === undefined || first.path.length === 0 ? 'input' : first.path.map(String).join('.');
  return issue(field, `${field}: ${first?.message ?? 'invalid input'}`);
}

export function createPilotdeckTools(engine: Engine, _options: ToolOptions = {}): ToolDefinition[] {
  const rootsOf = (context: ToolContext) => context.roots ?? engine.roots;
  return [
    defineTool({
      name: prose.TOOL_NAME,
      title: 'Read file',
      aliases: prose.ALIASES,
      description: prose.DESCRIPTION,
      schema,
      invalid,
      run: async (input, context) => {
        const roots = rootsOf(context);
        const absolute = path.resolve(roots[0] ?? '/', input.file_path);
        const refused = validate(input, absolute);
        if (refused !== null) return refused;
        const kind: Kind = kindByName(absolute) ?? 'text';
        try {
          if (kind === 'pdf') return await pdfOutput(engine, input, context);
          if (kind === 'image') return imageOutput(await readFor(engine, { path: input.file_path }, context), IMAGE_MIME[path.extname(absolute).toLowerCase()] ?? 'image');
          const limit = input.limit === undefined ? ALL_LINES : Math.max(1, input.limit);
          const request: ReadRequest = { path: input.file_path, offset: input.offset ?? 1, limit, maxTokens: prose.MAX_TEXT_TOKENS, render: LINES, media: kind === 'notebook' };
          const result = await readFor(engine, request, context);
          if (result.kind === 'unchanged') return stub(result.relativePath, kind);
          if (result.kind !== 'text' && result.kind !== 'notebook') throw new Error(`pilotdeck: unexpected ${result.kind} result for ${kind}`);
          return linesOutput(result, input, kind === 'notebook' ? 'notebook' : 'text');
        } catch (error) {
          if (error instanceof ReadError) return errorOutput(error, input, roots, kind);
          throw error;
        }
      },
      fail: (error) => runtime(error.code, error.message),
    }),
  ];
}
