#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { createEngine } from './engine.js';
import { ReadError } from './errors.js';
import { DEFAULTS, type EngineOptions } from './options.js';
import type { ReadRequest } from './request.js';
import { runServe, SERVE_USAGE } from './cli/serve-command.js';

const USAGE = `usage: readpool read PATH [--offset N] [--limit N] [--column N] [--root DIR] [--max-tokens N]
                     [--max-bytes N] [--json] [--sha256] [--allow-binary]

  PATH            file to read, relative to the root or absolute inside it
  --offset N      first line to show, 1-based (default 1); negative counts from the end:
                  --offset=-100 shows the last 100 lines
  --limit N       most lines to show (default ${DEFAULTS.defaultLimit})
  --column N      read line --offset from character N on (1-based): for lines too long to show whole
  --root DIR      workspace the read is confined to (default: the current directory)
  --max-tokens N  cap on the estimated tokens of the output (default ${DEFAULTS.maxTokens})
  --max-bytes N   cap on the bytes of the output (default ${DEFAULTS.maxBytes})
  --json          print the whole result (or error) as JSON
  --sha256        also compute the sha256 of the file
  --allow-binary  return files with NUL bytes as base64 instead of refusing them

Exit status: 0 on success, 1 when the read fails (the error code is printed), 2 on bad usage.

${SERVE_USAGE}`;

function usageError(message: string): never {
  process.stderr.write(`readpool: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function wholeNumber(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^-?\d+$/.test(text)) usageError(`--${name} must be a whole number (received ${JSON.stringify(text)})`);
  return Number(text);
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'serve') return runServe(argv.slice(1), usageError);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        offset: { type: 'string' },
        limit: { type: 'string' },
        column: { type: 'string' },
        root: { type: 'string' },
        'max-tokens': { type: 'string' },
        'max-bytes': { type: 'string' },
        json: { type: 'boolean', default: false },
        sha256: { type: 'boolean', default: false },
        'allow-binary': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    usageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [command, file, ...extra] = positionals;
  if (command !== 'read') usageError(command === undefined ? 'missing command' : `unknown command ${JSON.stringify(command)}`);
  if (file === undefined) usageError('read needs a PATH');
  if (extra.length > 0) usageError(`unexpected arguments: ${extra.join(' ')}`);

  const request: ReadRequest = { path: file };
  const offset = wholeNumber('offset', values.offset);
  const limit = wholeNumber('limit', values.limit);
  if (offset !== undefined) request.offset = offset;
  if (limit !== undefined) request.limit = limit;
  const column = wholeNumber('column', values.column);
  if (column !== undefined) request.column = column;
  if (values.sha256) request.hash = 'sha256';
  if (values['allow-binary']) request.allowBinary = true;

  const maxTokens = wholeNumber('max-tokens', values['max-tokens']);
  const maxBytes = wholeNumber('max-bytes', values['max-bytes']);
  const options: EngineOptions = { root: values.root ?? process.cwd(), threads: 1 };
  if (maxTokens !== undefined) options.maxTokens = maxTokens;
  if (maxBytes !== undefined) options.maxBytes = maxBytes;

  let engine;
  try {
    engine = await createEngine(options);
  } catch (error) {
    usageError(error instanceof Error ? error.message : String(error));
  }
  try {
    const result = await engine.read(request);
    if (values.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else if (result.kind === 'binary') process.stdout.write(`${result.data}\n`);
    else if (result.kind === 'unchanged') process.stdout.write(`${result.stub}\n`);
    else if (result.kind === 'image') process.stdout.write(`${result.note}\n${result.mimeType};base64,${result.data}\n`);
    else if (result.kind === 'description') process.stdout.write(`${result.text}\n`);
    else if (result.kind === 'pdf') process.stdout.write(`${result.note}\n${result.text ?? `(${result.form}: use --json for the base64 data)`}\n`);
    else {
      const parts = [result.content, result.notice].filter((part) => part !== null && part !== '');
      process.stdout.write(parts.length > 0 ? `${parts.join('\n\n')}\n` : '');
    }
    return 0;
  } catch (error) {
    if (!(error instanceof ReadError)) throw error;
    if (values.json) process.stdout.write(`${JSON.stringify({ error: error.toJSON() }, null, 2)}\n`);
    process.stderr.write(`readpool: ${error.code}: ${error.message}\n`);
    return 1;
  } finally {
    await engine.close();
  }
}

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    process.stderr.write(`readpool: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
