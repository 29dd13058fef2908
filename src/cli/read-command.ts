/**
 * `readpool read PATH`: one read through the engine, printed for a person (numbered lines and the
 * notice; media described or written to `--out`), or as JSON. With `--dialect NAME`, what that
 * dialect's tool returns for `--input JSON` (PATH fills the tool's first required field).
 */
import { parseArgs } from 'node:util';
import { DECODINGS, decodingOf } from '../core/sniff.js';
import { createEngine } from '../engine.js';
import { ReadError } from '../errors.js';
import type { EngineOptions } from '../options.js';
import type { ReadRequest } from '../request.js';
import type { ToolDefinition } from '../dialects/tool.js';
import { DIALECT_NAMES, isDialectName } from '../dialect-names.js';
import { errorText, wholeNumber, type UsageError } from './args.js';
import { printOutput } from './output.js';
import { print } from './print.js';

export const READ_OPTIONS = {
  offset: { type: 'string' },
  limit: { type: 'string' },
  column: { type: 'string' },
  pages: { type: 'string' },
  root: { type: 'string', multiple: true },
  'max-tokens': { type: 'string' },
  'max-bytes': { type: 'string' },
  json: { type: 'boolean', default: false },
  sha256: { type: 'boolean', default: false },
  'allow-binary': { type: 'boolean', default: false },
  encoding: { type: 'string' },
  out: { type: 'string' },
  dialect: { type: 'string' },
  tool: { type: 'string' },
  input: { type: 'string' },
} as const;

export async function runRead(argv: readonly string[], usageError: UsageError): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, options: READ_OPTIONS });
  } catch (error) {
    usageError(errorText(error));
  }
  const { values, positionals } = parsed;
  const [file, ...extra] = positionals;
  if (extra.length > 0) usageError(`unexpected arguments: ${extra.join(' ')}`);
  if (file === undefined && values.dialect === undefined) usageError('read needs a PATH');
  // One read: a small file is answered on this thread, and no worker starts unless it is needed.
  const options: EngineOptions = { roots: values.root ?? [process.cwd()], threads: 1, startThreads: 'when-needed' };
  const maxTokens = wholeNumber('max-tokens', values['max-tokens'], usageError);
  const maxBytes = wholeNumber('max-bytes', values['max-bytes'], usageError);
  if (maxTokens !== undefined) options.maxTokens = maxTokens;
  if (maxBytes !== undefined) options.maxBytes = maxBytes;
  const dialect = values.dialect;
  if (dialect !== undefined && !isDialectName(dialect)) usageError(`--dialect must be one of ${DIALECT_NAMES.join(', ')} (received ${JSON.stringify(dialect)})`);
  const extraInput = values.input === undefined ? {} : parseInput(values.input, usageError);

  let engine;
  try {
    engine = await createEngine(options);
  } catch (error) {
    usageError(errorText(error));
  }
  try {
    if (dialect !== undefined) {
      const { createTools } = await import('../tools.js');
      const tool = pickTool(createTools(engine, dialect), values.tool, usageError);
      const output = await tool.execute(file === undefined ? extraInput : { [firstField(tool)]: file, ...extraInput });
      if (values.json) print(`${JSON.stringify(output, null, 2)}\n`);
      else printOutput(output, values.out ?? null);
      return output.isError ? 1 : 0;
    }
    const result = await engine.read(nativeRequest(file ?? '', values, usageError));
    if (values.json) print(`${JSON.stringify(result, null, 2)}\n`);
    else printOutput((await import('../dialects/readpool-output.js')).nativeOutput(result), values.out ?? null);
    return 0;
  } catch (error) {
    if (!(error instanceof ReadError)) throw error;
    if (values.json) print(`${JSON.stringify({ error: error.toJSON() }, null, 2)}\n`);
    print(`readpool: ${error.code}: ${error.message}\n`, 2);
    return 1;
  } finally {
    await engine.close();
  }
}

type ReadValues = Partial<Record<'offset' | 'limit' | 'column' | 'pages' | 'encoding', string>> & { sha256: boolean; 'allow-binary': boolean };

function nativeRequest(file: string, values: ReadValues, usageError: UsageError): ReadRequest {
  const request: ReadRequest = { path: file };
  const offset = wholeNumber('offset', values.offset, usageError);
  const limit = wholeNumber('limit', values.limit, usageError);
  const column = wholeNumber('column', values.column, usageError);
  if (offset !== undefined) request.offset = offset;
  if (limit !== undefined) request.limit = limit;
  if (column !== undefined) request.column = column;
  if (values.pages !== undefined) request.pages = values.pages;
  if (values.sha256) request.hash = 'sha256';
  if (values['allow-binary']) request.allowBinary = true;
  if (values.encoding !== undefined) {
    const decoding = decodingOf(values.encoding);
    if (decoding === null) usageError(`--encoding must be one of ${DECODINGS.join(', ')}, or a label of one (GBK, latin1, Shift-JIS...)`);
    request.encoding = decoding;
  }
  return request;
}

function pickTool(tools: readonly ToolDefinition[], name: string | undefined, usageError: UsageError): ToolDefinition {
  const tool = name === undefined ? tools[0] : tools.find((candidate) => candidate.name === name);
  if (tool === undefined) usageError(`--tool must be one of ${tools.map((candidate) => candidate.name).join(', ')}`);
  return tool;
}

/** The field PATH fills: the tool's first required string property (its path, as every read tool has). */
function firstField(tool: ToolDefinition): string {
  const required = Array.isArray(tool.inputSchema.required) ? (tool.inputSchema.required as unknown[]) : [];
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: unknown }>;
  const field = required.find((name): name is string => typeof name === 'string' && properties[name]?.type === 'string');
  return field ?? 'path';
}

function parseInput(json: string, usageError: UsageError): Record<string, unknown> {
  let input: unknown;
  try {
    input = JSON.parse(json);
  } catch (error) {
    usageError(`--input must be a JSON object (${errorText(error)})`);
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) usageError('--input must be a JSON object');
  return input as Record<string, unknown>;
}
