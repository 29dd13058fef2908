/**
 * Streamable HTTP for the MCP server: bound to loopback unless told otherwise, with the Host and
 * Origin checks that stop DNS rebinding, an optional bearer token, and one transport (and one
 * readpool session) per MCP session. A session left idle (no request and no stream open) for
 * `sessionIdleMs` is closed, so that clients that vanish without ending theirs are not kept
 * forever; a request naming a session the server does not hold is answered 404, on which the
 * protocol has a client start a new one.
 */
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createSession, type SessionOptions } from './session.js';

export interface HttpOptions extends SessionOptions {
  readonly port: number;
  readonly host: string;
  /** Required as `Authorization: Bearer <token>` when set. */
  readonly token: string | null;
  /** How long a session may stay idle before it is closed (default `SESSION_IDLE_MS`). */
  readonly sessionIdleMs?: number;
}

/** A session is closed after this long with no request in flight and no stream open. */
export const SESSION_IDLE_MS = 30 * 60_000;
/** How often idle sessions are looked for, at most. */
const SWEEP_MS = 60_000;

/** A session's transport, and whether it is in use: responses open, and when the last one ended. */
interface Live {
  readonly transport: StreamableHTTPServerTransport;
  open: number;
  lastSeen: number;
}

/** Largest request body accepted: a tool call is small. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** A body this many times over the limit is not read to its end: the connection is cut. */
const DISCARD_FACTOR = 16;
/** How long a shutdown lets open connections finish writing. */
const CLOSE_GRACE_MS = 2_000;

export interface HttpServer {
  /** The port bound (useful with port 0). */
  readonly port: number;
  close(): Promise<void>;
}

export async function serveHttp(options: HttpOptions): Promise<HttpServer> {
  const sessions = new Map<string, Live>();
  const idleMs = options.sessionIdleMs ?? SESSION_IDLE_MS;
  let port = options.port;
  const hostsAllowed = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `${options.host}:${port}`]);
  const originsAllowed = () => new Set([...hostsAllowed()].map((host) => `http://${host}`));

  const refuse = (res: http.ServerResponse, status: number, message: string, code = -32000) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(
      JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }),
    );
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/mcp') return refuse(res, 404, 'Not found: the MCP endpoint is /mcp.');
      if (!hostsAllowed().has(req.headers.host ?? '')) return refuse(res, 403, `Forbidden: Host ${JSON.stringify(req.headers.host ?? '')} is not this server.`);
      const origin = req.headers.origin;
      if (origin !== undefined && !originsAllowed().has(origin)) return refuse(res, 403, `Forbidden: Origin ${JSON.stringify(origin)} is not allowed.`);
      if (options.token !== null && !bearerMatches(req.headers.authorization, options.token)) {
        res.setHeader('www-authenticate', 'Bearer');
        return refuse(res, 401, 'Unauthorized: send Authorization: Bearer <READPOOL_TOKEN>.');
      }
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      if (body instanceof Error) return refuse(res, 400, `Bad request: ${body.message}`);
      const id = req.headers['mcp-session-id'];
      const live = typeof id === 'string' ? sessions.get(id) : undefined;
      let transport = live?.transport;
      if (transport === undefined) {
        if (id !== undefined) {
          return refuse(res, 404, 'Session not found: it was ended, closed after being idle, or began before this server started. Start a new session with an initialize request that sends no Mcp-Session-Id.', -32001);
        }
        if (!isInitializeRequest(body)) return refuse(res, 400, 'Bad request: no session; start one with an initialize request.');
        const { server: mcp, session } = createSession(options);
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => session,
          onsessioninitialized: (sid) => void sessions.set(sid, { transport: created, open: 0, lastSeen: Date.now() }),
          onsessionclosed: (sid) => void sessions.delete(sid),
        });
        const forget = () => {
          if (created.sessionId !== undefined) sessions.delete(created.sessionId);
          options.engine.forgetSession(session);
        };
        created.onclose = forget;
        await mcp.connect(created);
        transport = created;
      }
      if (live !== undefined) {
        // In use until its response ends: a call's, or a stream the client keeps open.
        live.open++;
        res.once('close', () => {
          live.open--;
          live.lastSeen = Date.now();
        });
      }
      await transport.handleRequest(req, res, body);
    })().catch((error: unknown) => {
      options.log(`http: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) refuse(res, 500, 'Internal error.');
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  if (typeof address === 'object' && address !== null) port = address.port;
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [sid, live] of sessions) {
        if (live.open > 0 || now - live.lastSeen < idleMs) continue;
        options.log(`session ${sid}: closed after ${Math.round((now - live.lastSeen) / 1000)} s idle`);
        sessions.delete(sid);
        void live.transport.close().catch(() => undefined);
      }
    },
    Math.min(SWEEP_MS, Math.max(100, idleMs / 4)),
  ).unref();
  return {
    port,
    close: async () => {
      clearInterval(sweep);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...sessions.values()].map((live) => live.transport.close()));
      // Idle keep-alive connections would hold `close` for their timeout; a connection still
      // writing an answer is given a moment to finish before it is cut.
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      await stopped;
      clearTimeout(force);
    },
  };
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer (.+)$/.exec(header ?? '');
  if (match?.[1] === undefined) return false;
  const given = Buffer.from(match[1]);
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

function readJson(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Over the limit, the rest is read and dropped, so the client can still be told why
      // (closing mid-upload resets the connection before the 400 arrives); past many times the
      // limit, the connection is cut.
      if (size > MAX_BODY_BYTES * DISCARD_FACTOR) req.destroy();
      else if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return resolve(new Error(`the body is over ${MAX_BODY_BYTES} bytes`));
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(new Error('the body is not JSON'));
      }
    });
    req.on('error', (error) => resolve(error));
  });
}
