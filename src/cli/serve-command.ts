/**
 * `readpool serve [--root DIR]... [--dialect NAME] [--http PORT] [--host ADDR] [--max-sessions N]
 * [--session-idle SECONDS] [--threads N] [--cores N]`: the MCP server. stdio by default; streamable HTTP with `--http`, on
 * 127.0.0.1 unless `--host` says otherwise, with a bearer token when `READPOOL_TOKEN` is set.
 */
import { parseArgs } from 'node:util';
import { createEngine } from '../engine.js';
import { serve, shutdownOnExit, type ServeOptions } from '../mcp/serve.js';
import { createTools, DIALECT_NAMES, isDialectName } from '../tools.js';
import { DEFAULTS, MAX_CORES, MAX_SESSION_COUNT, MAX_THREADS } from '../options.js';
import { countOption, errorText, type UsageError } from './args.js';

export { SERVE_USAGE } from './serve-usage.js';

/** A week: a sane bound on how long a session may sit idle. */
const MAX_IDLE_SECONDS = 7 * 24 * 3600;

/** Runs the server until it is shut down; returns the exit status, or throws a usage error. */
export async function runServe(argv: readonly string[], usageError: UsageError): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        root: { type: 'string', multiple: true },
        dialect: { type: 'string', default: 'readpool' },
        http: { type: 'string' },
        host: { type: 'string', default: '127.0.0.1' },
        'max-sessions': { type: 'string' },
        'session-idle': { type: 'string' },
        threads: { type: 'string' },
        cores: { type: 'string' },
      },
    }));
  } catch (error) {
    usageError(errorText(error));
  }
  const dialect = values.dialect;
  if (!isDialectName(dialect)) usageError(`--dialect must be one of ${DIALECT_NAMES.join(', ')} (received ${JSON.stringify(dialect)})`);
  const maxSessions = countOption('max-sessions', values['max-sessions'], MAX_SESSION_COUNT, usageError);
  const idleSeconds = countOption('session-idle', values['session-idle'], MAX_IDLE_SECONDS, usageError);
  let http: ServeOptions['http'] = null;
  if (values.http !== undefined) {
    const port = Number(values.http);
    if (!/^\d+$/.test(values.http) || port > 65535) usageError(`--http must be a port number (received ${JSON.stringify(values.http)})`);
    http = {
      port,
      host: values.host,
      token: process.env.READPOOL_TOKEN || null,
      ...(maxSessions === undefined ? {} : { maxSessions }),
      ...(idleSeconds === undefined ? {} : { sessionIdleMs: idleSeconds * 1000 }),
    };
  } else if (maxSessions !== undefined || idleSeconds !== undefined) {
    usageError('--max-sessions and --session-idle apply to --http only: over stdio the one session lasts as long as its connection');
  }
  const threads = countOption('threads', values.threads, MAX_THREADS, usageError);
  const cores = countOption('cores', values.cores, MAX_CORES, usageError);
  let engine;
  try {
    engine = await createEngine({
      roots: values.root ?? [process.cwd()],
      ...(threads === undefined ? {} : { threads }),
      ...(cores === undefined ? {} : { cores }),
      // The ledger keeps the stubs of every session the server may hold.
      ...(maxSessions === undefined ? {} : { maxSessions: Math.max(maxSessions, DEFAULTS.maxSessions) }),
    });
  } catch (error) {
    usageError(errorText(error));
  }
  const server = await serve({ engine, tools: createTools(engine, dialect), http });
  shutdownOnExit(server, http === null);
  server.announce();
  await server.closed;
  return 0;
}
