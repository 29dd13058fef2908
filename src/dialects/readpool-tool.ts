/**
 * The native dialect as a tool: readpool's own `read`, the best of all the dialects. 1-based
 * offset and limit (negative offset for a tail), exact totals and the next call in every notice,
 * a token budget, long lines paged by character (`column`), PDF pages, unchanged-file stubs per
 * session, encodings reported. Its prose, shared with the engine, lives in `readpool.ts` (errors)
 * and `readpool-notices.ts` (notices).
 */
import { z } from 'zod';
import { DECODINGS, decodingOf } from '../core/sniff.js';
import type { Engine } from '../engine.js';
import type { ReadError } from '../errors.js';
import type { ReadRequest } from '../request.js';
import { textOutput } from './parts.js';
import { nativeOutput } from './readpool-output.js';
import { describeError, TOOL_NAME } from './readpool.js';
import { defineTool, issueLines, readFor, type ToolDefinition, type ToolOptions } from './tool.js';

const DESCRIPTION = `Reads a file from the workspace: text as numbered lines (\`N<TAB>line\`), images as images, PDFs as documents or page images, Jupyter notebooks as numbered cells with their outputs.

- path: relative to the workspace root, or absolute inside it. Files outside the workspace, secrets (.env, private keys) and devices cannot be read.
- By default the first 2000 lines are returned. offset (1-based) and limit select a window; a negative offset counts from the end (offset=-100: the last 100 lines).
- Output is capped by a token budget. When anything is left out, a notice at the end says exactly which call reads on (the next offset, or the next column of a long line).
- A line too long to show whole is cut and marked; read it in full, page by page, with offset=N and column=1 (then the column the notice gives).
- PDFs of more than 10 pages need pages (for example "1-5", at most 20 pages a call).
- Re-reading content you already hold in this session returns a short "unchanged" notice instead of the content; pass fresh: true if it is no longer in your context.
- Binary files are refused unless allowBinary is true (then returned as base64).
- Files in legacy encodings (GBK, Shift_JIS, Windows-1252...) are decoded; the notice names the encoding.
- You can read several files in parallel.`;

const TOOL = { name: TOOL_NAME, title: 'Read file', description: DESCRIPTION } as const;

/**
 * A number or a flag as models sometimes write them, in a string (`"10"`, `"true"`): taken as
 * the number or the flag, where the tool would refuse the call for a turn's worth of nothing.
 * The schema a model reads is unchanged (number, boolean, string); anything else is refused.
 */
const WHOLE_TEXT = /^\s*-?\d{1,15}\s*$/;
const asNumber = (value: unknown): unknown => (typeof value === 'string' && WHOLE_TEXT.test(value) ? Number(value) : value);
const asFlag = (value: unknown): unknown => (value === 'true' ? true : value === 'false' ? false : value);
const whole = () => z.preprocess(asNumber, z.number().int());
const flag = () => z.preprocess(asFlag, z.boolean());
/** Pages as models also write them: one page as a number (`3`), a range with a dash of prose (`"1–5"`). */
const asPages = (value: unknown): unknown =>
  typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : typeof value === 'string' ? value.replace(/[\u2012-\u2015\u2212]/g, '-') : value;

const schema = z.strictObject({
  path: z.string().describe('The file to read: relative to the workspace root, or absolute inside it.'),
  offset: whole()
    .optional()
    .describe('First line to return, 1-based (default 1). Negative counts from the end: -100 returns the last 100 lines.'),
  limit: whole().optional().describe('Most lines to return (default 2000).'),
  column: whole()
    .optional()
    .describe('Read line `offset` from this character on (1-based), as much as the budget allows: for lines too long to show whole.'),
  pages: z.preprocess(asPages, z.string()).optional().describe('PDF pages to return, like "3" or "1-5" (at most 20). Needed for PDFs over 10 pages.'),
  fresh: flag().optional().describe('Return the content even if this session read it before and it is unchanged.'),
  allowBinary: flag().optional().describe('Return a binary file (NUL bytes) as base64 instead of refusing it.'),
  // A label of one of the names (GBK, latin1, UTF-8...) is taken as that name; the schema shows the names.
  encoding: z
    .preprocess((value) => decodingOf(value) ?? value, z.enum(DECODINGS))
    .optional()
    .describe('How to decode a file that is not UTF-8: auto (default) recognises GB18030, Big5, Shift_JIS, EUC-KR, Windows-1252 and other legacy encodings; name one when you know it.'),
});

type Input = z.output<typeof schema>;

function requestOf(input: Input): ReadRequest {
  const request: ReadRequest = { path: input.path };
  if (input.offset !== undefined) request.offset = input.offset;
  if (input.limit !== undefined) request.limit = input.limit;
  if (input.column !== undefined) request.column = input.column;
  if (input.pages !== undefined) request.pages = input.pages;
  if (input.fresh !== undefined) request.fresh = input.fresh;
  if (input.allowBinary !== undefined) request.allowBinary = input.allowBinary;
  request.encoding = input.encoding ?? 'auto';
  return request;
}

export function createReadpoolTools(engine: Engine, _options: ToolOptions = {}): ToolDefinition[] {
  return [
    defineTool({
      ...TOOL,
      schema,
      invalid: (issues, input) =>
        textOutput(
          describeError('invalid_request', { issues: issueLines(issues) }, subjectOf(input)),
          true,
          { code: 'invalid_request' },
        ),
      run: async (input, context) => nativeOutput(await readFor(engine, requestOf(input), context)),
      fail: (error: ReadError) => textOutput(error.message, true, { code: error.code, details: error.details }),
    }),
  ];
}

function subjectOf(input: unknown): string {
  const path = typeof input === 'object' && input !== null ? (input as { path?: unknown }).path : undefined;
  return typeof path === 'string' ? path : '(no path)';
}
