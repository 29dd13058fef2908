/**
 * The official MCP filesystem server's read tools (`read_text_file`, `read_media_file`,
 * `read_multiple_files`) over readpool: the same names, descriptions, schemas, texts and
 * `structuredContent` (as `data`), so a host swaps servers and nothing else. A read that covers
 * the whole file is byte-exact (BOM, CRLF, final newline); readpool's output budget, binary
 * refusal and confinement are its deliberate differences. Prose in `mcp-filesystem-prose.ts`.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { RenderSpec } from '../core/line-format.js';
import type { Engine } from '../engine.js';
import { ReadError } from '../errors.js';
import type { ReadRequest } from '../request.js';
import type { ReadResult, TextResult } from '../result.js';
import * as prose from './mcp-filesystem-prose.js';
import { text, textOutput, imagePart } from './parts.js';
import { isInsideRoots } from './roots.js';
import { jsonSchemaOf } from './json-schema.js';
import { defineTool, readFor, type InputIssue, type ToolContext, type ToolDefinition, type ToolOptions, type ToolOutput } from './tool.js';

// `z.object` strips unknown keys as the server's does; the JSON Schema still says they are not allowed.
const closed = { additionalProperties: false };
const textSchema = z
  .object({
    path: z.string(),
    tail: z.number().optional().describe(prose.TEXT_TOOL.tail),
    head: z.number().optional().describe(prose.TEXT_TOOL.head),
  })
  .meta(closed);
const mediaSchema = z.object({ path: z.string() }).meta(closed);
const multipleSchema = z.object({ paths: z.array(z.string()).min(1).describe(prose.MULTIPLE_TOOL.paths) }).meta(closed);
const mediaItem = z.union([
  z.strictObject({ type: z.enum(['image', 'audio']), data: z.string(), mimeType: z.string() }),
  z.strictObject({ type: z.literal('resource'), resource: z.strictObject({ uri: z.string(), mimeType: z.string().optional(), blob: z.string() }) }),
]);
const TEXT_OUTPUT = jsonSchemaOf(z.strictObject({ content: z.string() }), 'draft-07');
const MEDIA_OUTPUT = jsonSchemaOf(z.strictObject({ content: z.array(mediaItem) }), 'draft-07');

/** Raw lines, never cut for length (the server has no line cap): only the output budget stops them. */
export const RENDER: RenderSpec = { format: { numbered: false }, cutMarker: '', cut: 'budget' };

const ALL = Number.MAX_SAFE_INTEGER;
const EOL = { lf: '\n', crlf: '\r\n', cr: '\r' } as const;
type Mode = 'whole' | 'head' | 'tail';
type Window = { readonly mode: Mode; readonly offset: number; readonly limit: number };

/** head/tail as the server reads them: 0 is absent, a fraction counts as the lines it reaches, a negative gives "". */
function windowOf(input: { head?: number | undefined; tail?: number | undefined }): Window | 'nothing' {
  const { head = 0, tail = 0 } = input;
  if (tail !== 0) return tail < 0 ? 'nothing' : { mode: 'tail', offset: -Math.min(ALL, Math.max(1, Math.trunc(tail))), limit: Math.min(ALL, Math.max(1, Math.trunc(tail))) };
  if (head !== 0) return head < 0 ? 'nothing' : { mode: 'head', offset: 1, limit: Math.min(ALL, Math.ceil(head)) };
  return { mode: 'whole', offset: 1, limit: ALL };
}

/**
 * A text window as the server would answer it. A window from line 1 to the end is checked
 * against the file's size: the bytes left over are its final line break.
 */
function bodyOf(result: TextResult, mode: Mode): string {
  const eol = result.lineEnding === 'lf' || result.lineEnding === 'crlf' || result.lineEnding === 'cr' ? EOL[result.lineEnding] : '\n';
  const exact = result.encoding === 'utf-8' && result.lineEnding !== 'mixed';
  const fromStart = result.startLine === 1;
  const bom = result.bom && exact && fromStart ? '\uFEFF' : '';
  const asInFile = bom + (eol === '\n' ? result.content : result.content.replaceAll('\n', eol));
  const toEnd = result.truncated === false && result.cutLines === 0 && result.endLine === result.totalLines;
  const finalBreak = exact && fromStart && toEnd && result.size - Buffer.byteLength(asInFile) === Buffer.byteLength(eol);
  if (mode === 'whole') return finalBreak ? asInFile + eol : asInFile;
  // head splits on LF only: a CRLF line keeps its CR, and no line break follows the last line.
  if (mode === 'head') return eol === '\r\n' && (finalBreak || !toEnd) ? `${asInFile}\r` : asInFile;
  return bom + result.content + (finalBreak ? '\n' : ''); // tail turns CRLF into LF
}

function withBudgetNotice(body: string, result: Pick<TextResult, 'truncated' | 'startLine' | 'endLine' | 'totalLines' | 'cutLines'>): string {
  if (result.truncated === false || result.truncated.reason === 'lines') return body;
  const notice = prose.describeBudgetStop({
    first: result.startLine,
    last: result.endLine,
    total: result.totalLines,
    unit: result.truncated.reason === 'bytes' ? 'byte' : 'token',
    cut: result.cutLines > 0,
  });
  return `${body}\n\n${notice}`;
}

/** The text a text tool answers for a result, or a failure message. */
function textOf(result: ReadResult, mode: Mode, absolute: string): { ok: boolean; text: string } {
  switch (result.kind) {
    case 'text':
      return { ok: true, text: withBudgetNotice(bodyOf(result, mode), result) };
    case 'pdf':
      return { ok: false, text: prose.describeMediaAsText(absolute, 'pdf') };
    case 'image':
    case 'description':
    case 'binary': // never: text reads do not allow binary
    case 'notebook': // never: notebooks are read with media: false
    case 'unchanged': // never: every read is fresh
      return { ok: false, text: prose.describeMediaAsText(absolute, 'image') };
  }
}

/** A path as the server resolves it: relative ones against the first allowed directory that holds them. */
function absoluteOf(requested: string, allowed: readonly string[]): string {
  if (path.isAbsolute(requested)) return path.resolve(requested);
  const base = allowed.find((root) => isInsideRoots([root], path.resolve(root, requested))) ?? allowed[0] ?? process.cwd();
  return path.resolve(base, requested);
}

function mediaOutput(result: ReadResult, absolute: string): ToolOutput {
  const mimeType = prose.MEDIA_TYPES[path.extname(result.path).toLowerCase()] ?? 'application/octet-stream';
  let data: string;
  switch (result.kind) {
    case 'image': {
      const item = { type: 'image', data: result.data, mimeType: result.mimeType };
      return { content: [imagePart(result)], isError: false, data: { content: [item] } };
    }
    case 'description':
      return { content: [text(result.text)], isError: false, data: { content: [] } };
    case 'pdf':
      if (result.data === null) return textOutput(prose.describeMediaAsText(absolute, 'pdf'), true);
      data = result.data;
      break;
    case 'binary':
      data = result.data;
      break;
    case 'text': {
      const exact = result.encoding === 'utf-8' && result.lineEnding !== 'mixed' && result.truncated === false;
      if (!exact) return textOutput(`Cannot read ${absolute} as media: it is text too large for readpool's output budget, or not plain UTF-8. Use read_text_file.`, true);
      data = Buffer.from(bodyOf(result, 'whole')).toString('base64');
      break;
    }
    case 'notebook': // never: notebooks are read with media: false
    case 'unchanged': // never: every read is fresh
      throw new Error(`read_media_file: unexpected ${result.kind} result`);
  }
  const type = mimeType.startsWith('image/') ? 'image' : mimeType.startsWith('audio/') ? 'audio' : 'resource';
  if (type === 'resource') {
    const uri = pathToFileURL(result.path).href;
    return { content: [{ type, uri, mimeType, data }], isError: false, data: { content: [{ type, resource: { uri, mimeType, blob: data } }] } };
  }
  return { content: [{ type, mimeType, data }], isError: false, data: { content: [{ type, data, mimeType }] } };
}

/** Schema failures as the MCP SDK answers them (zod 3 wording, one issue a line). */
function invalid(tool: string, issues: readonly InputIssue[], input: unknown): ToolOutput {
  const lines = issues.map((issue) => {
    let value: unknown = input;
    for (const key of issue.path) value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
    const received = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    const field = issue.path.length === 0 ? 'object' : issue.path.length > 1 ? 'string' : String(issue.path[0]);
    const expected = ({ path: 'string', head: 'number', tail: 'number', paths: 'array' } as Record<string, string>)[field] ?? field;
    const message = prose.describeIssue(issue.code, expected, received);
    const at = issue.path.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`)).join('');
    return at === '' ? message : `${message} at ${at}`;
  });
  return textOutput(prose.invalidArguments(tool, lines), true);
}

export function createMcpFilesystemTools(engine: Engine, _options: ToolOptions = {}): ToolDefinition[] {
  const allowed = (context: ToolContext) => context.roots ?? engine.roots;
  const failure = (error: ReadError, requested: string, context: ToolContext) => {
    const roots = allowed(context);
    return prose.describeFailure(error, absoluteOf(requested, roots), roots);
  };
  // A notebook is a file like any other to the server: its JSON as text, its bytes as a resource.
  const read = (request: ReadRequest, context: ToolContext) =>
    readFor(engine, { fresh: true, render: RENDER, ...(/\.ipynb$/i.test(request.path) ? { media: false } : {}), ...request }, context);
  // Failures are answered here, where the call's roots are known, rather than by `fail`.
  const answered = async (requested: string, context: ToolContext, run: () => Promise<ToolOutput>) => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof ReadError) return textOutput(failure(error, requested, context), true);
      throw error;
    }
  };
  const textTool = defineTool({
    ...prose.TEXT_TOOL,
    schema: textSchema,
    schemaDraft: 'draft-07',
    outputSchema: TEXT_OUTPUT,
    invalid: (issues, input) => invalid(prose.TEXT_TOOL.name, issues, input),
    run: (input, context) =>
      answered(input.path, context, async () => {
        const absolute = absoluteOf(input.path, allowed(context));
        if (input.head && input.tail) {
          if (!isInsideRoots(allowed(context), absolute)) throw new ReadError('outside_root', 'outside', { throughLink: false });
          return textOutput(prose.BOTH_HEAD_AND_TAIL, true);
        }
        const window = windowOf(input);
        const result = await read({ path: input.path, ...(window === 'nothing' ? { limit: 1 } : { offset: window.offset, limit: window.limit }) }, context);
        const answer = window === 'nothing' ? { ok: true, text: '' } : textOf(result, window.mode, absolute);
        return answer.ok ? textOutput(answer.text, false, { content: answer.text }) : textOutput(answer.text, true);
      }),
    fail: (error, input) => textOutput(failure(error, input.path, {}), true),
  });
  const mediaTool = defineTool({
    ...prose.MEDIA_TOOL,
    schema: mediaSchema,
    schemaDraft: 'draft-07',
    outputSchema: MEDIA_OUTPUT,
    invalid: (issues, input) => invalid(prose.MEDIA_TOOL.name, issues, input),
    run: (input, context) =>
      answered(input.path, context, async () =>
        mediaOutput(await read({ path: input.path, limit: ALL, allowBinary: true, accept: { pdf: true } }, context), absoluteOf(input.path, allowed(context))),
      ),
    fail: (error, input) => textOutput(failure(error, input.path, {}), true),
  });
  const multipleTool = defineTool({
    ...prose.MULTIPLE_TOOL,
    schema: multipleSchema,
    schemaDraft: 'draft-07',
    outputSchema: TEXT_OUTPUT,
    invalid: (issues, input) => invalid(prose.MULTIPLE_TOOL.name, issues, input),
    run: async (input, context) => {
      let done = 0;
      const entries = await Promise.all(
        input.paths.map(async (requested) => {
          let entry: string;
          try {
            const answer = textOf(await read({ path: requested, limit: ALL }, context), 'whole', absoluteOf(requested, allowed(context)));
            entry = answer.ok ? `${requested}:\n${answer.text}\n` : `${requested}: Error - ${answer.text}`;
          } catch (error) {
            if (!(error instanceof ReadError)) throw error;
            entry = `${requested}: Error - ${failure(error, requested, context)}`;
          }
          context.onProgress?.(++done, input.paths.length);
          return entry;
        }),
      );
      const joined = entries.join('\n---\n');
      return textOutput(joined, false, { content: joined });
    },
    fail: (error, input) => textOutput(failure(error, input.paths[0] ?? '', {}), true),
  });
  return [textTool, mediaTool, multipleTool];
}
