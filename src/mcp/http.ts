/**
 * Streamable HTTP for the MCP server: bound to loopback unless told otherwise, with the Host and
 * Origin checks that stop DNS rebinding, an optional bearer token, and one transport (and one
 * readpool session) per MCP session, idle ones closed past `maxSessions` (see `HttpSessions`). A request
 * naming a session the server does not hold is answered 404, as the protocol asks.
 */
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { HttpSessions, MAX_SESSIONS } from './http-sessions.js';
import { createSession, type SessionOptions } from './session.js';

export interface HttpOptions extends SessionOptions {
  readonly port: number;
  readonly host: string;
  /** Required as `Authorization: Bearer <token>` when set. */
  readonly token: string | null;
  /** Sessions held before idle ones are closed for a new one (default `MAX_SESSIONS`; see `HttpSessions`). */
  readonly maxSessions?: number;
  /** When given, a session idle this long is closed; by default none is closed for time alone. */
  readonly sessionIdleMs?: number;
}

/** How often idle sessions are looked for, at most. */
const SWEEP_MS = 60_000;
/** New sessions taken past the cap are logged at most this often, with their count. */
const OVER_CAP_LOG_MS = 60_000;

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
  const sessions = new HttpSessions(options.maxSessions ?? MAX_SESSIONS, options.log);
  /** New sessions taken past the cap since the last such line in the log, and when that was. */
  let overCap = 0;
  let overCapLoggedAt = -Infinity;
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
      let transport = typeof id === 'string' ? sessions.transport(id) : undefined;
      if (typeof id === 'string' && transport !== undefined) {
        sessions.using(id, res);
      } else {
        if (id !== undefined) {
          return refuse(res, 404, 'Session not found: it was ended, closed while idle, or began before this server started. Start a new session with an initialize request that sends no Mcp-Session-Id.', -32001);
        }
        if (!isInitializeRequest(body)) return refuse(res, 400, 'Bad request: no session; start one with an initialize request.');
        if (!sessions.makeRoom()) {
          overCap++;
          if (Date.now() - overCapLoggedAt >= OVER_CAP_LOG_MS) {
            options.log(`${overCap} new session(s) taken past --max-sessions: all ${sessions.size} held are in use`);
            overCap = 0;
            overCapLoggedAt = Date.now();
          }
        }
        const { server: mcp, session } = createSession(options);
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => session,
          onsessioninitialized: (sid) => sessions.add(sid, created, res),
          onsessionclosed: (sid) => sessions.remove(sid),
        });
        const forget = () => {
          if (created.sessionId !== undefined) sessions.remove(created.sessionId);
          options.engine.forgetSession(session);
        };
        created.onclose = forget;
        await mcp.connect(created);
        transport = created;
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
  const idleMs = options.sessionIdleMs;
  const sweep = idleMs === undefined ? undefined : setInterval(() => sessions.closeIdle(idleMs), Math.min(SWEEP_MS, Math.max(100, idleMs / 4))).unref();
  return {
    port,
    close: async () => {
      clearInterval(sweep);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      await sessions.closeAll();
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
