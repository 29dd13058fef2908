/**
 * The official MCP filesystem server's read tools (`read_text_file`, `read_media_file`,
 * `read_multiple_files`) over readpool: the same names, descriptions, schemas, texts and
 * `structuredContent` (as `data`), so a host swaps servers and nothing else. A read that covers
 * the whole file is byte-exact (BOM, CRLF, final newline); readpool's output budget, binary
 * refusal and confinement are its deliberate differences. Text answers are in
 * `mcp-filesystem-text.ts`, media in `mcp-filesystem-media.ts`, paths against the allowed
 * directories in `mcp-filesystem-roots.ts`, prose in `mcp-filesystem-prose.ts`.
 */
import { z } from 'zod';
import type { Engine } from '../engine.js';
import { ReadError } from '../errors.js';
import type { ReadRequest } from '../request.js';
import { jsonSchemaOf, type JsonSchema } from './json-schema.js';
import { mediaOutput } from './mcp-filesystem-media.js';
import * as prose from './mcp-filesystem-prose.js';
import { absoluteOf, failureText } from './mcp-filesystem-roots.js';
import { ALL, RENDER, textOf, windowOf } from './mcp-filesystem-text.js';
import { textOutput } from './parts.js';
import { isInsideRoots, rootsOf } from './roots.js';
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

/** One of the server's tools: its draft-07 schemas, the SDK's schema failures, its failure texts. */
function serverTool<S extends z.ZodType>(
  tool: { readonly name: string; readonly title: string; readonly description: string; readonly aliases?: readonly string[] },
  schemas: { readonly input: S; readonly output: JsonSchema },
  run: (input: z.output<S>, context: ToolContext) => Promise<ToolOutput>,
  fail: (error: ReadError, input: z.output<S>) => string,
): ToolDefinition {
  return defineTool({
    ...tool,
    schema: schemas.input,
    schemaDraft: 'draft-07',
    outputSchema: schemas.output,
    invalid: (issues, input) => invalid(tool.name, issues, input),
    run,
    fail: (error, input) => textOutput(fail(error, input), true),
  });
}

export function createMcpFilesystemTools(engine: Engine, _options: ToolOptions = {}): ToolDefinition[] {
  const failure = (error: ReadError, requested: string, context: ToolContext) => failureText(error, requested, rootsOf(engine, context));
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
  const textTool = serverTool(
    prose.TEXT_TOOL,
    { input: textSchema, output: TEXT_OUTPUT },
    (input, context) =>
      answered(input.path, context, async () => {
        const absolute = absoluteOf(input.path, rootsOf(engine, context));
        if (input.head && input.tail) {
          if (!isInsideRoots(rootsOf(engine, context), absolute)) throw new ReadError('outside_root', 'outside', { throughLink: false });
          return textOutput(prose.BOTH_HEAD_AND_TAIL, true);
        }
        const window = windowOf(input);
        const result = await read({ path: input.path, ...(window === 'nothing' ? { limit: 1 } : { offset: window.offset, limit: window.limit }) }, context);
        const answer = window === 'nothing' ? { ok: true, text: '' } : textOf(result, window.mode, absolute);
        return answer.ok ? textOutput(answer.text, false, { content: answer.text }) : textOutput(answer.text, true);
      }),
    (error, input) => failure(error, input.path, {}),
  );
  const mediaTool = serverTool(
    prose.MEDIA_TOOL,
    { input: mediaSchema, output: MEDIA_OUTPUT },
    (input, context) =>
      answered(input.path, context, async () =>
        mediaOutput(await read({ path: input.path, limit: ALL, allowBinary: true, accept: { pdf: true } }, context), absoluteOf(input.path, rootsOf(engine, context))),
      ),
    (error, input) => failure(error, input.path, {}),
  );
  const multipleTool = serverTool(
    prose.MULTIPLE_TOOL,
    { input: multipleSchema, output: TEXT_OUTPUT },
    async (input, context) => {
      let done = 0;
      const entries = await Promise.all(
        input.paths.map(async (requested) => {
          let entry: string;
          try {
            const answer = textOf(await read({ path: requested, limit: ALL }, context), 'whole', absoluteOf(requested, rootsOf(engine, context)));
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
    (error, input) => failure(error, input.paths[0] ?? '', {}),
  );
  return [textTool, mediaTool, multipleTool];
}
