/**
 * `readpool serve`: one engine behind an MCP server, over stdio (the default) or streamable
 * HTTP. Logs go to stderr only. stdin closing (stdio), SIGINT or SIGTERM shut it down cleanly:
 * calls in flight are answered, the engine is closed, and the process exits 0.
 */
import { createRequire } from 'node:module';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Engine } from '../engine.js';
import type { ToolDefinition } from '../dialects/tool.js';
import type { HttpOptions } from './http.js';
import { createSession } from './session.js';

/** How long a shutdown waits for calls in flight before it closes the engine anyway. */
const DRAIN_MS = 10_000;

export interface ServeOptions {
  readonly engine: Engine;
  readonly tools: readonly ToolDefinition[];
  /** Streamable HTTP on this port (0: any free port); null for stdio. See `HttpOptions` for the rest. */
  readonly http: Pick<HttpOptions, 'port' | 'host' | 'token' | 'maxSessions' | 'sessionIdleMs'> | null;
  readonly log?: (line: string) => void;
}

export interface RunningServer {
  /** The HTTP port bound, or null on stdio. */
  readonly port: number | null;
  /** Resolves once the server has shut down (the engine closed). */
  readonly closed: Promise<void>;
  shutdown(reason: string): Promise<void>;
  /**
   * Logs the line that says the server is serving, with its URL over HTTP (what a client
   * waits for), once the caller has wired what the process does on a signal: a client that
   * sends SIGTERM as soon as it reads the line must find the clean shutdown in place.
   */
  announce(): void;
}

// By the package's own name, not a relative path: the build bundles this module into a chunk
// that sits elsewhere in dist than the source's place suggests.
const VERSION = (createRequire(import.meta.url)('readpool/package.json') as { version: string }).version;

export async function serve(options: ServeOptions): Promise<RunningServer> {
  const log = options.log ?? ((line: string) => void process.stderr.write(`readpool: ${line}\n`));
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  };
  const sessionOptions = { engine: options.engine, tools: options.tools, version: VERSION, log, track };
  let stopTransport: () => Promise<void>;
  let port: number | null = null;
  let banner: string;
  const { threads } = options.engine.stats();
  const threadCount = `${threads} text thread${threads === 1 ? '' : 's'}`;
  if (options.http === null) {
    const { server } = createSession(sessionOptions);
    const transport = new StdioServerTransport();
    await server.connect(transport);
    stopTransport = () => server.close();
    banner = `serving MCP over stdio (${threadCount})`;
  } else {
    // Loaded only here: the SDK's HTTP transport and node:http took about 25 ms of every stdio
    // server's start, on the way to its first answer.
    const { serveHttp } = await import('./http.js');
    const http = await serveHttp({ ...sessionOptions, ...options.http });
    port = http.port;
    stopTransport = () => http.close();
    banner = `serving MCP over HTTP at http://${options.http.host}:${port}/mcp (${threadCount})`;
  }
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let shuttingDown: Promise<void> | null = null;
  const shutdown = (reason: string): Promise<void> => {
    shuttingDown ??= (async () => {
      log(`shutting down (${reason}): answering ${inFlight.size} call(s) in flight`);
      await Promise.race([Promise.allSettled([...inFlight]), delay(DRAIN_MS)]);
      // The SDK writes a call's answer a few ticks after the call settles: let it out first.
      await new Promise((resolve) => setImmediate(resolve));
      await stopTransport().catch(() => undefined);
      await options.engine.close();
      resolveClosed();
    })();
    return shuttingDown;
  };
  return { port, closed, shutdown, announce: () => log(banner) };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Wires a running server to the process: signals and (on stdio) stdin closing shut it down. */
export function shutdownOnExit(server: RunningServer, stdio: boolean): void {
  const stop = (reason: string) => void server.shutdown(reason).then(() => process.exit(0));
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  if (stdio) {
    process.stdin.once('end', () => stop('stdin closed'));
    process.stdin.once('close', () => stop('stdin closed'));
    // A client that went away mid-call leaves its answer nowhere to go: an unheard EPIPE would
    // crash the server. The client is gone, so shut down as if it had closed stdin.
    process.stdout.on('error', (error: NodeJS.ErrnoException) => stop(`stdout ${error.code ?? 'error'}`));
  }
}

