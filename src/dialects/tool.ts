/**
 * The one tool shape every dialect exports and every host adapter (MCP, AI SDK, CLI) translates:
 * plain data (name, description, JSON Schema) plus one `execute` function. Recoverable failures
 * are results with `isError: true`, worded as the dialect's own tool words them; only misuse of
 * the API (a non-object context, a foreign signal) throws.
 */
import type { z } from 'zod';
import type { Engine } from '../engine.js';
import { ReadError } from '../errors.js';
import type { ReadRequest } from '../request.js';
import type { ReadResult } from '../result.js';
import { jsonSchemaOf, type JsonSchema } from './json-schema.js';

/** One piece of what a tool returns to the model. */
export type ContentPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly mimeType: string; readonly data: string }
  | { readonly type: 'document'; readonly mimeType: 'application/pdf'; readonly data: string }
  | { readonly type: 'audio'; readonly mimeType: string; readonly data: string }
  /** A file's bytes as an embedded resource (MCP's `resource` with a `blob`), named by `uri`. */
  | { readonly type: 'resource'; readonly uri: string; readonly mimeType: string; readonly data: string };

/** What a tool answers: content for the model, whether it is an error, and structured data. */
export interface ToolOutput {
  readonly content: readonly ContentPart[];
  readonly isError: boolean;
  /** The dialect's structured payload (for example seed 002's `{ ok, data }` envelope). */
  readonly data?: unknown;
}

/** Per-call context a host passes with a tool call. */
export interface ToolContext {
  /** The agent's session: enables unchanged-file stubs and gives it its own queue lane. */
  readonly session?: string;
  readonly signal?: AbortSignal;
  /** What the model takes: `{ images: false }` describes images in words; `{ pdf: false }` renders PDF pages. */
  readonly accept?: { readonly images?: boolean; readonly pdf?: boolean };
  /**
   * Narrower roots for this call (canonical directories inside the engine's roots), such as an
   * MCP client's roots: a path that leads outside them is refused like one outside the workspace.
   */
  readonly roots?: readonly string[];
  /** Called as a call over many files progresses (files done, files in all). */
  readonly onProgress?: (done: number, total: number) => void;
}

export interface ToolDefinition {
  readonly name: string;
  /** Other names the original tool answers to (seed 004's `aliases`). */
  readonly aliases: readonly string[];
  /** The prompt a model reads: the original tool's description, verbatim where it is known. */
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /** The shape of `data`, when the original tool declares one (MCP's `outputSchema`). */
  readonly outputSchema?: JsonSchema;
  /** A short human-readable name (MCP's `title`). */
  readonly title: string;
  readonly annotations: { readonly readOnlyHint: true; readonly openWorldHint: false };
  execute(input: unknown, context?: ToolContext): Promise<ToolOutput>;
}

/** Options of `createTools`, for the dialects that have choices. */
export interface ToolOptions {
  /** `claude-code`: `'arrow'` (2.0's padded number and `→`, the default) or `'tab'` (2.1's `N\tline`). */
  readonly lineFormat?: 'arrow' | 'tab';
}

/** A schema violation, as the dialect words it back. */
export interface InputIssue {
  readonly path: readonly PropertyKey[];
  readonly code: string;
  readonly message: string;
}

/** Each issue as `field: message` (`input` for the input as a whole), in zod's own words. */
export function issueLines(issues: readonly InputIssue[]): string[] {
  return issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`);
}

/** What a dialect file supplies for one tool; `defineTool` turns it into a `ToolDefinition`. */
export interface DialectTool<S extends z.ZodType> {
  readonly name: string;
  readonly title: string;
  readonly aliases?: readonly string[];
  readonly description: string;
  readonly schema: S;
  /** Announce the input schema as this JSON Schema draft, `$schema` key included, as the original does. */
  readonly schemaDraft?: 'draft-07';
  /** The JSON Schema of `data`, when the original tool declares one. */
  readonly outputSchema?: JsonSchema;
  /** Input that fails the schema, answered in the dialect's own words. */
  readonly invalid: (issues: readonly InputIssue[], input: unknown) => ToolOutput;
  /** Runs a valid input; a `ReadError` it lets escape is answered by `fail`. */
  readonly run: (input: z.output<S>, context: ToolContext) => Promise<ToolOutput>;
  readonly fail: (error: ReadError, input: z.output<S>) => ToolOutput;
}

export function defineTool<S extends z.ZodType>(tool: DialectTool<S>): ToolDefinition {
  return {
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
    name: tool.name,
    aliases: tool.aliases ?? [],
    description: tool.description,
    inputSchema: jsonSchemaOf(tool.schema, tool.schemaDraft),
    title: tool.title,
    annotations: { readOnlyHint: true, openWorldHint: false },
    async execute(input: unknown, context: ToolContext = {}): Promise<ToolOutput> {
      if (typeof context !== 'object' || context === null) throw new TypeError('execute(input, context): context must be an object');
      const parsed = tool.schema.safeParse(input);
      if (!parsed.success) return tool.invalid(parsed.error.issues, input);
      try {
        return await tool.run(parsed.data, context);
      } catch (error) {
        if (error instanceof ReadError) return tool.fail(error, parsed.data);
        throw error;
      }
    },
  };
}

/**
 * A request with the call's session and accept folded in, read with the call's signal. Decoded
 * as UTF-8 unless it says otherwise: the tools the dialects stand in for read UTF-8 only, and
 * show other bytes as U+FFFD; readpool's own tool asks for `auto`.
 */
export function readFor(engine: Engine, request: ReadRequest, context: ToolContext): Promise<ReadResult> {
  const full: ReadRequest = { encoding: 'utf-8', ...request };
  if (context.session !== undefined) full.session = context.session;
  if (context.accept !== undefined) full.accept = { ...context.accept, ...request.accept };
  if (context.roots !== undefined) full.within = [...context.roots];
  return engine.read(full, context.signal === undefined ? {} : { signal: context.signal });
}
