/**
 * Seed 004: PilotDeck's `read_file` (alias `Read`). `file_path` relative or absolute inside the
 * workspace, 1-based `offset`, `limit` (the whole file when absent), `pages` for PDFs; `N|line`
 * text; the seed's validateInput issues, unchanged-file stub, reminders, PDF rules and
 * model-capability fallbacks. Its `PilotDeckToolRuntimeError`s are results with `isError` whose
 * text is the message and whose `data` is `{ code, message }`. Answers are rendered in
 * `pilotdeck-output.ts` and `pilotdeck-pdf.ts`, their texts are in `pilotdeck-prose.ts`.
 */
import { z } from 'zod';
import type { RenderSpec } from '../core/line-format.js';
import type { Engine } from '../engine.js';
import { ReadError } from '../errors.js';
import { kindByName } from '../media/kind.js';
import type { ReadRequest } from '../request.js';
import { binaryExtensionOf, isBlockedDevicePath } from './path-guards.js';
import { parsePageRange } from './pdf-pages.js';
import { errorOutput, imageMimeOf, imageOutput, invalid, issue, linesOutput, runtime, stub, type Kind } from './pilotdeck-output.js';
import { pdfOutput } from './pilotdeck-pdf.js';
import * as prose from './pilotdeck-prose.js';
import { resolveInRoots, rootsOf } from './roots.js';
import { defineTool, readFor, type ToolDefinition, type ToolOptions, type ToolOutput } from './tool.js';

const schema = z.strictObject({
  file_path: z.string().describe(prose.PARAMETERS.file_path),
  offset: z.number().int().optional().describe(prose.PARAMETERS.offset),
  limit: z.number().int().optional().describe(prose.PARAMETERS.limit),
  pages: z.string().optional().describe(prose.PARAMETERS.pages),
});

type Input = z.output<typeof schema>;

/** `N|line`; lines are never cut for length (the seed has no line cap), only the budget stops them. */
const LINES: RenderSpec = { format: { numbered: true, prefix: '', width: 0, separator: '|' }, cutMarker: '', cut: 'budget' };
const ALL_LINES = Number.MAX_SAFE_INTEGER;

/** The seed's validateInput, in its order. */
function validate(input: Input, absolute: string): ToolOutput | null {
  if (input.offset !== undefined && input.offset < 1) return issue('offset', prose.OFFSET_BELOW_ONE);
  if (input.limit !== undefined && input.limit < 0) return issue('limit', prose.NEGATIVE_LIMIT);
  if (input.pages !== undefined) {
    const parsed = parsePageRange(input.pages);
    if (parsed === null) return issue('pages', prose.PAGES_FORMAT);
    if (parsed.last - parsed.first + 1 > prose.MAX_PDF_PAGES_PER_REQUEST) return issue('pages', prose.PAGES_TOO_MANY);
  }
  if (isBlockedDevicePath(absolute)) return issue('file_path', prose.DEVICE_FILE);
  if (binaryExtensionOf(absolute) !== null) return issue('file_path', prose.BINARY_FILE);
  return null;
}

export function createPilotdeckTools(engine: Engine, _options: ToolOptions = {}): ToolDefinition[] {
  return [
    defineTool({
      ...prose.TOOL,
      schema,
      invalid,
      run: async (input, context) => {
        const roots = rootsOf(engine, context);
        const absolute = resolveInRoots(roots, input.file_path);
        const refused = validate(input, absolute);
        if (refused !== null) return refused;
        const kind: Kind = kindByName(absolute) ?? 'text';
        try {
          if (kind === 'pdf') return await pdfOutput(engine, input.file_path, input.pages, context);
          if (kind === 'image') return imageOutput(await readFor(engine, { path: input.file_path }, context), imageMimeOf(absolute));
          const limit = input.limit === undefined ? ALL_LINES : Math.max(1, input.limit);
          const request: ReadRequest = { path: input.file_path, offset: input.offset ?? 1, limit, maxTokens: prose.MAX_TEXT_TOKENS, render: LINES, media: kind === 'notebook' };
          const result = await readFor(engine, request, context);
          if (result.kind === 'unchanged') return stub(result.relativePath, kind);
          if (result.kind !== 'text' && result.kind !== 'notebook') throw new Error(`pilotdeck: unexpected ${result.kind} result for ${kind}`);
          return linesOutput(result, input, kind === 'notebook' ? 'notebook' : 'text');
        } catch (error) {
          if (error instanceof ReadError) return errorOutput(error, { filePath: input.file_path, pages: input.pages }, roots, kind);
          throw error;
        }
      },
      fail: (error) => runtime(error.code, error.message),
    }),
  ];
}
