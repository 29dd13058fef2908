/**
 * `readpool serve` against hostile clients, the built CLI spawned as a host would run it. Over
 * stdio: malformed JSON-RPC, an unknown method and tool, wrong argument types, oversized
 * arguments, and a client that vanishes mid-read. Over HTTP: a foreign Origin or Host, no token,
 * a wrong token, malformed and oversized bodies, unknown sessions, a client aborting mid-read.
 * After each, the server answers the next client (or exits 0), and no answer holds the secret.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, INITIALIZE, startHttp, stdioClient, textOf } from '../support/mcp-server.js';
import { removeTempDir, writeFile } from '../support/temp-dir.js';
import { hostileWorkspace, OK_LINE, SECRET, type HostileWorkspace } from './harness.js';
import { inflatingPdf } from './media-files.js';

let ws: HostileWorkspace;

beforeAll(async () => {
  ws = hostileWorkspace();
  // A page whose stream inflates to 256 MiB: its render runs for a second or more, so a client
  // can go away while it is read.
  writeFile(ws.root, 'slow.pdf', await inflatingPdf(0.25));
});

afterAll(() => removeTempDir(ws.base));

interface RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  /** Writes one line (a message, or raw text) to the server's stdin. */
  send(message: unknown): void;
  /** The next JSON-RPC message with this id (or any message when id is undefined). */
  reply(id?: number): Promise<Record<string, unknown>>;
  readonly exit: Promise<number | null>;
  readonly stdout: string[];
}

/** The server over raw pipes: what a broken or hostile client writes, byte for byte. */
function rawStdio(): RawServer {
  const child = spawn(process.execPath, [CLI, 'serve', '--root', ws.root], { stdio: 'pipe' });
  const stdout: string[] = [];
  const waiting: { id: number | undefined; resolve: (message: Record<string, unknown>) => void }[] = [];
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => {
    stdout.push(line);
    const message = JSON.parse(line) as Record<string, unknown>;
    const index = waiting.findIndex((w) => w.id === undefined || w.id === message.id);
    if (index >= 0) waiting.splice(index, 1)[0]?.resolve(message);
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    child,
    stdout,
    exit,
    send: (message) => child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`),
    reply: (id) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no reply ${String(id)} within 10 s; stdout: ${stdout.join('\n').slice(0, 500)}`)), 10_000);
        waiting.push({ id, resolve: (message) => (clearTimeout(timer), resolve(message)) });
      }),
  };
}

/** Initialises a raw session and returns it. */
async function initialised(): Promise<RawServer> {
  const server = rawStdio();
  server.send(INITIALIZE);
  expect(await server.reply(1)).toHaveProperty('result');
  server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return server;
}

const call = (id: number, name: string, args: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/** The server still reads ok.txt over the same pipes, then exits 0 when stdin closes. */
async function stillServesThenExits(server: RawServer, id = 900): Promise<void> {
  server.send(call(id, 'read', { path: 'ok.txt' }));
  const reply = (await server.reply(id)) as { result?: CallToolResult };
  expect(reply.result?.isError).toBe(false);
  expect(JSON.stringify(reply.result)).toContain(OK_LINE);
  server.child.stdin.end();
  expect(await server.exit).toBe(0);
  expect(server.stdout.join('\n')).not.toContain(SECRET);
}

describe('MCP server over stdio: hostile messages', () => {
  // The SDK's stdio transport drops a line it cannot parse (no id to answer): nothing is sent
  // back for it, and the next call is answered as if it had not come.
  it('a line that is not JSON -> dropped without an answer, then serves', async () => {
    const server = await initialised();
    server.send('{"jsonrpc": "2.0", "id": 2, "method": tools/call');
    await stillServesThenExits(server);
    expect(server.stdout).toHaveLength(2);
  });

  it('binary garbage and a 2 MB line of noise -> dropped without an answer, then serves', async () => {
    const server = await initialised();
    server.send('\u0000\u0001\u00ff\ufffd');
    server.send('x'.repeat(2 * 1024 ** 2));
    await stillServesThenExits(server);
    expect(server.stdout).toHaveLength(2);
  });

  it('an unknown method -> method not found (-32601), then serves', async () => {
    const server = await initialised();
    server.send({ jsonrpc: '2.0', id: 3, method: 'files/delete', params: { path: '/' } });
    expect(await server.reply(3)).toMatchObject({ error: { code: -32601 } });
    await stillServesThenExits(server);
  });

  it('an unknown tool (write_file) -> an error naming it, then serves', async () => {
    const server = await initialised();
    server.send(call(4, 'write_file', { path: 'ok.txt', content: 'pwned' }));
    const reply = await server.reply(4);
    expect(JSON.stringify(reply)).toContain('write_file');
    expect(reply.error ?? (reply.result as CallToolResult).isError).toBeTruthy();
    await stillServesThenExits(server);
  });

  it('arguments of the wrong type (a number, an array, a string) -> isError results, then serves', async () => {
    const server = await initialised();
    for (const [i, args] of [42, ['ok.txt'], 'ok.txt'].entries()) {
      server.send(call(10 + i, 'read', args));
      const reply = await server.reply(10 + i);
      expect(reply.error ?? (reply.result as CallToolResult).isError, JSON.stringify(reply)).toBeTruthy();
    }
    await stillServesThenExits(server);
  });

  it('a path of 3 MB -> isError (invalid path), then serves', async () => {
    const server = await initialised();
    server.send(call(5, 'read', { path: `${'a/'.repeat(1.5 * 1024 ** 2)}ok.txt` }));
    const reply = (await server.reply(5)) as { result: CallToolResult };
    expect(reply.result.isError).toBe(true);
    expect(textOf(reply.result)).toMatch(/path/);
    await stillServesThenExits(server);
  });

  it('a request without jsonrpc "2.0", and a response nobody asked for -> ignored or refused, then serves', async () => {
    const server = await initialised();
    server.send({ id: 6, method: 'tools/list' });
    server.send({ jsonrpc: '2.0', id: 777, result: { forged: true } });
    await stillServesThenExits(server);
  });

  it('reads outside the root by every route (../, absolute, file://, the prefix sibling) -> isError, no secret', async () => {
    const server = await initialised();
    const routes = ['../secret.txt', ws.secret, `file://${ws.secret}`, ws.siblingSecret];
    for (const [i, route] of routes.entries()) {
      server.send(call(20 + i, 'read', { path: route }));
      expect(((await server.reply(20 + i)) as { result: CallToolResult }).result.isError).toBe(true);
    }
    await stillServesThenExits(server);
  });

  it('a client that vanishes mid-read (stdout closed, then stdin) -> the server exits 0, no crash on the broken pipe', async () => {
    const server = await initialised();
    server.send(call(30, 'read', { path: 'slow.pdf', pages: '1' }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    server.child.stdout.destroy();
    server.child.stdin.end();
    expect(await server.exit).toBe(0);
  });

  it('after a client vanished, the next client over stdio is served', async () => {
    const { client, transport, exit } = stdioClient(ws.root);
    await client.connect(transport);
    const result = (await client.callTool({ name: 'read', arguments: { path: 'ok.txt' } })) as CallToolResult;
    expect(textOf(result)).toBe(`1\t${OK_LINE}`);
    await client.close();
    expect(await exit).toBe('0');
  });
});

describe('MCP server over HTTP: hostile requests', () => {
  const TOKEN = 'a-long-random-token';
  let server: Awaited<ReturnType<typeof startHttp>>;

  beforeAll(async () => {
    server = await startHttp(ws.root, { READPOOL_TOKEN: TOKEN });
  });

  it('binds to loopback when no --host is given: 127.0.0.1', () => {
    expect(server.url.hostname).toBe('127.0.0.1');
  });

  afterAll(async () => {
    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
  });

  async function post(headers: Record<string, string>, body: string = JSON.stringify(INITIALIZE), target: URL = server.url): Promise<{ status: number; text: string }> {
    const response = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body,
    });
    const text = await response.text();
    expect(text).not.toContain(SECRET);
    return { status: response.status, text };
  }

  const auth = { authorization: `Bearer ${TOKEN}` };

  /** A POST whose Host header is ours to set (fetch sets its own). */
  function rawPost(headers: Record<string, string>): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const body = JSON.stringify(INITIALIZE);
      const request = http.request(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => {
          expect(text).not.toContain(SECRET);
          resolve({ status: response.statusCode ?? 0, text });
        });
      });
      request.on('error', reject);
      request.end(body);
    });
  }

  const cases: readonly [string, () => Promise<{ status: number; text: string }>, number][] = [
    ['a foreign Origin (http://evil.example)', () => post({ ...auth, origin: 'http://evil.example' }), 403],
    ['Origin "null" (a sandboxed page)', () => post({ ...auth, origin: 'null' }), 403],
    ['a foreign Host (DNS rebinding: evil.example:PORT)', () => rawPost({ ...auth, host: `evil.example:${server.url.port}` }), 403],
    ['a Host naming another port of localhost', () => rawPost({ ...auth, host: 'localhost:1' }), 403],
    ['no Authorization header', () => post({}), 401],
    ['a wrong token of the same length', () => post({ authorization: `Bearer ${'x'.repeat(TOKEN.length)}` }), 401],
    ['a wrong token of another length', () => post({ authorization: 'Bearer short' }), 401],
    ['Basic instead of Bearer', () => post({ authorization: `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}` }), 401],
    ['an empty Bearer', () => post({ authorization: 'Bearer ' }), 401],
    ['a body that is not JSON', () => post(auth, '{"jsonrpc": "2.0", "method": '), 400],
    ['a body of 5 MB (over the 4 MB limit)', () => post(auth, JSON.stringify({ ...INITIALIZE, padding: 'p'.repeat(5 * 1024 ** 2) })), 400],
    ['a tools/call with no session', () => post(auth, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read', arguments: { path: 'ok.txt' } } })), 400],
    // 404, as the protocol asks of a session the server does not hold (README, MCP).
    ['an unknown session id', () => post({ ...auth, 'mcp-session-id': 'forged-session' }, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })), 404],
    ['another path than /mcp', () => post(auth, JSON.stringify(INITIALIZE), new URL('/admin', server.url)), 404],
  ];

  for (const [name, send, status] of cases) {
    it(`${name} -> ${status}`, async () => {
      expect((await send()).status).toBe(status);
      expect((await post(auth)).status).toBe(200);
    });
  }

  it('a client aborting its call mid-read -> the server stays up and serves the next client', async () => {
    const client = new Client({ name: 'vanishing', version: '1' });
    const transport = new StreamableHTTPClientTransport(server.url, { requestInit: { headers: auth } });
    await client.connect(transport);
    const controller = new AbortController();
    const pending = client.callTool({ name: 'read', arguments: { path: 'slow.pdf', pages: '1' } }, undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    await expect(pending).rejects.toThrow();
    await transport.close();

    const next = new Client({ name: 'next', version: '1' });
    await next.connect(new StreamableHTTPClientTransport(server.url, { requestInit: { headers: auth } }));
    const result = (await next.callTool({ name: 'read', arguments: { path: 'ok.txt' } })) as CallToolResult;
    expect(textOf(result)).toBe(`1\t${OK_LINE}`);
    const outside = (await next.callTool({ name: 'read', arguments: { path: '../secret.txt' } })) as CallToolResult;
    expect(outside.isError).toBe(true);
    expect(JSON.stringify(outside)).not.toContain(SECRET);
    await next.close();
  });
});
