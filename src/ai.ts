/**
 * `readpool/ai`: a dialect's tools for the Vercel AI SDK (`ai`, an optional peer dependency).
 * Each tool validates its own input and answers as the dialect's original tool does; images and
 * PDF documents go back to the model as image and file content, not as base64 inside JSON.
 *
 * @example
 * import { generateText } from 'ai';
 * import { createEngine } from 'readpool';
 * import { aiTools } from 'readpool/ai';
 * const engine = await createEngine({ root: process.cwd() });
 * const result = await generateText({ model, tools: aiTools(engine, 'claude-code', { session: 'agent-7' }), prompt });
 */
import { jsonSchema, tool, type JSONSchema7, type ToolSet } from 'ai';
import type { Engine } from './engine.js';
import type { ContentPart, ToolContext, ToolOptions, ToolOutput } from './dialects/tool.js';
import { createTools, type DialectName } from './tools.js';

export interface AiToolOptions extends ToolOptions {
  /** The agent's session: unchanged-file stubs and its own queue lane. */
  readonly session?: string;
  /** What the model takes (`{ images: false }` describes images in words). */
  readonly accept?: ToolContext['accept'];
}

type ModelPart =
  | { type: 'text'; text: string }
  | { type: 'image-data'; data: string; mediaType: string }
  | { type: 'file-data'; data: string; mediaType: string; filename?: string };

function modelPart(part: ContentPart): ModelPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image-data', data: part.data, mediaType: part.mimeType };
    case 'document':
      return { type: 'file-data', data: part.data, mediaType: part.mimeType, filename: 'document.pdf' };
    case 'audio':
      return { type: 'file-data', data: part.data, mediaType: part.mimeType };
    case 'resource':
      return { type: 'file-data', data: part.data, mediaType: part.mimeType, filename: part.uri.slice(part.uri.lastIndexOf('/') + 1) };
  }
}

/** What the model reads of an output: the content parts, or the error's text. */
export function modelOutputOf(output: ToolOutput): { type: 'error-text'; value: string } | { type: 'content'; value: ModelPart[] } {
  if (output.isError) {
    return { type: 'error-text', value: output.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n') };
  }
  return { type: 'content', value: output.content.map(modelPart) };
}

/** The tools of `dialect` over `engine`, keyed by tool name, for `generateText`/`streamText`. */
export function aiTools(engine: Engine, dialect: DialectName, options: AiToolOptions = {}): ToolSet {
  const context: ToolContext = {
    ...(options.session === undefined ? {} : { session: options.session }),
    ...(options.accept === undefined ? {} : { accept: options.accept }),
  };
  const tools: ToolSet = {};
  for (const definition of createTools(engine, dialect, options)) {
    tools[definition.name] = tool({
      description: definition.description,
      inputSchema: jsonSchema<unknown>(definition.inputSchema as JSONSchema7),
      execute: (input, { abortSignal }) => definition.execute(input, abortSignal === undefined ? context : { ...context, signal: abortSignal }),
      toModelOutput: ({ output }) => modelOutputOf(output),
    });
  }
  return tools;
}
