/**
 * `readpool serve` end to end: the built CLI spawned as a child process and driven by the MCP
 * SDK's own `Client`, over stdio and over streamable HTTP, as a host would drive it.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDialectWorkspace, type DialectWorkspace } from './support/dialect-workspace.js';
import { INITIALIZE, startHttp, stdioClient, textOf, withRoots } from './support/mcp-server.js';
import { removeTempDir, writeFile } from './support/temp-dir.js';

let ws: DialectWorkspace;

beforeAll(async () => {
  ws = await makeDialectWorkspace();
});

afterAll(() => removeTempDir(ws.base));

/** What a host checks first, the same over either transport: tools, text, an image, a PDF page, a refusal. */
async function readsLikeAHost(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(['read']);
  expect(tools[0]?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });

  const text = (await client.callTool({ name: 'read', arguments: { path: 'normal.txt' } })) as CallToolResult;
  expect(text.isError).toBe(false);
  expect(textOf(text)).toBe('1\talpha\n2\tbeta\n3\tgamma');

  const image = (await client.callTool({ name: 'read', arguments: { path: 'image.png' } })) as CallToolResult;
  expect(image.content[1]).toEqual({ type: 'image', mimeType: 'image/png', data: fs.readFileSync(ws.files.image).toString('base64') });

  const page = (await client.callTool({ name: 'read', arguments: { path: 'big.pdf', pages: '2' } })) as CallToolResult;
  expect(page.isError).toBe(false);
  expect(page.content.map((part) => part.type)).toEqual(['text', 'image']);

  const outside = (await client.callTool({ name: 'read', arguments: { path: ws.outside } })) as CallToolResult;
  expect(outside.isError).toBe(true);
  expect(textOf(outside)).toContain('is outside the workspace');
  expect(JSON.stringify(outside)).not.toContain('secret outside the root');
}

/** Reads until the server has asked for the client's roots and a read of normal.txt is refused. */
async function seesRootsNarrowed(client: Client): Promise<void> {
  // The roots are asked for after initialisation: wait until a read outside the narrow root is refused.
  let refused: CallToolResult | null = null;
  for (let i = 0; i < 50 && refused === null; i++) {
    const result = (await client.callTool({ name: 'read', arguments: { path: 'normal.txt' } })) as CallToolResult;
    if (result.isError === true) refused = result;
    else await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(refused).not.toBeNull();
  const inside = (await client.callTool({ name: 'read', arguments: { path: 'dir/inside.txt' } })) as CallToolResult;
  expect(textOf(inside)).toBe('1\tinside');
  // The client's other root lies outside the served root: it adds nothing.
  const outside = (await client.callTool({ name: 'read', arguments: { path: ws.outside } })) as CallToolResult;
  expect(outside.isError).toBe(true);
}

/** The client reads normal.txt whole; then it closes and the server, sent SIGTERM, exits 0. */
async function readsNormalThenStops(client: Client, child: ChildProcess, exit: Promise<number | null>): Promise<void> {
  const text = (await client.callTool({ name: 'read', arguments: { path: 'normal.txt' } })) as CallToolResult;
  expect(textOf(text)).toBe('1\talpha\n2\tbeta\n3\tgamma');
  await client.close();
  child.kill('SIGTERM');
  expect(await exit).toBe(0);
}

/** Posts one JSON-RPC message to the server at `url`, in `session` when given, as a plain client would. */
function poster(url: URL): (message: object, session?: string) => Promise<Response> {
  return (message, session) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(session === undefined ? {} : { 'mcp-session-id': session }) },
      body: JSON.stringify(message),
    });
}

/** Starts a session over plain requests (initialize, then initialized) and leaves it idle; its id. */
async function startSession(post: ReturnType<typeof poster>): Promise<string> {
  const initialized = await post(INITIALIZE);
  const session = initialized.headers.get('mcp-session-id') ?? '';
  await initialized.text();
  expect(session).not.toBe('');
  expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);
  return session;
}

/** The client's roots: the served root's dir/ (inside it) and a folder beside the served root. */
function clientRoots(): string[] {
  return [path.join(ws.root, 'dir'), path.join(ws.base, 'elsewhere')];
}

describe('readpool serve over stdio', () => {
  it('lists the tools, reads text, an image and a PDF page, refuses outside the root, and exits 0 on stdin close', async () => {
    const { client, transport, exit, stderr } = stdioClient(ws.root, ['--threads', '2']);
    await client.connect(transport);
    await readsLikeAHost(client);
    await client.close();
    expect(await exit).toBe('0');
    // The one line it logs on starting, on stderr: stdout carries the protocol alone.
    expect(stderr()).toMatch(/^readpool: serving MCP over stdio \(2 text threads\)\n/);
  });

  it('narrows the served roots to the client roots, never widens them', async () => {
    const { client, transport, exit } = stdioClient(ws.root, [], clientRoots());
    await client.connect(transport);
    await seesRootsNarrowed(client);
    await client.close();
    expect(await exit).toBe('0');
  });

  it('serves the mcp-filesystem dialect: its three tools, the read_file alias, progress over many files, an unknown tool as a result', async () => {
    const { client, transport, exit } = stdioClient(ws.root, ['--dialect', 'mcp-filesystem']);
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['read_text_file', 'read_media_file', 'read_multiple_files']);

    const text = (await client.callTool({ name: 'read_text_file', arguments: { path: ws.files.normal, tail: 2 } })) as CallToolResult;
    expect(textOf(text)).toBe('beta\ngamma');
    const alias = (await client.callTool({ name: 'read_file', arguments: { path: ws.files.normal } })) as CallToolResult;
    expect(textOf(alias)).toBe('alpha\nbeta\ngamma\n');

    // The SDK's client handles a notification a microtask after it arrives and a result at once:
    // notifications read in the same chunk as the result find their listener gone, and reach
    // the client's onerror as "unknown token" instead. Both paths are counted, so every
    // notification the server sent is seen.
    const progress: Array<{ progress: number; total?: unknown }> = [];
    client.onerror = (error) => {
      const late = /progress notification for an unknown token: (.*)$/.exec(error.message);
      if (late?.[1] !== undefined) progress.push((JSON.parse(late[1]) as { params: { progress: number; total?: unknown } }).params);
    };
    const paths = [ws.files.normal, ws.files.crlf, ws.files.empty, path.join(ws.root, 'dir/inside.txt')];
    const many = (await client.callTool({ name: 'read_multiple_files', arguments: { paths } }, undefined, {
      onprogress: (update) => progress.push(update),
    })) as CallToolResult;
    expect(many.isError).toBeFalsy();
    expect(textOf(many)).toContain('inside\n');
    // Let notifications that arrived with the result be handled.
    await new Promise((resolve) => setImmediate(resolve));
    // One notification per file answered, counting up to the total, all sent before the result.
    expect(progress.map((update) => update.progress)).toEqual([1, 2, 3, 4]);
    expect(progress.every((update) => update.total === paths.length)).toBe(true);

    const unknown = (await client.callTool({ name: 'write_file', arguments: { path: 'x' } })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe('There is no tool named "write_file" on this server. Call one of: read_text_file, read_media_file, read_multiple_files.');
    await client.close();
    expect(await exit).toBe('0');
  });
});

describe('readpool serve over streamable HTTP', () => {
  it('lists the tools, reads text, an image and a PDF page, refuses outside the root, and exits 0 on SIGTERM', async () => {
    const { child, url, exit } = await startHttp(ws.root);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    await readsLikeAHost(client);
    await client.close();
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('runs the text threads --threads asks for (or --cores implies), and says how many where it gives its URL', async () => {
    // Told of one core, the default is one thread.
    const one = await startHttp(ws.root, {}, ['--cores', '1']);
    expect(one.stderr()).toMatch(/serving MCP over HTTP at http:\/\/127\.0\.0\.1:\d+\/mcp \(1 text thread\)/);
    one.child.kill('SIGTERM');
    expect(await one.exit).toBe(0);

    const { child, url, exit, stderr } = await startHttp(ws.root, {}, ['--threads', '3']);
    expect(stderr()).toMatch(/serving MCP over HTTP at http:\/\/127\.0\.0\.1:\d+\/mcp \(3 text threads\)/);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    await readsNormalThenStops(client, child, exit);
  });

  it('narrows the served roots to the client roots, never widens them', async () => {
    const { child, url, exit } = await startHttp(ws.root);
    const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
    await withRoots(client, clientRoots()).connect(new StreamableHTTPClientTransport(url));
    await seesRootsNarrowed(client);
    await client.close();
    child.kill('SIGINT');
    expect(await exit).toBe(0);
  });

  it('answers a call in flight when SIGTERM arrives, then exits 0', async () => {
    const many = Array.from({ length: 400 }, (_, i) => writeFile(ws.root, `many/file-${i}.txt`, `file ${i}\n`.repeat(200)));
    const { child, url, exit, stderr } = await startHttp(ws.root, {}, ['--dialect', 'mcp-filesystem']);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    let signalled = false;
    const result = (await client.callTool({ name: 'read_multiple_files', arguments: { paths: many } }, undefined, {
      // The first progress notification proves the call is in flight: stop the server then.
      onprogress: () => {
        if (signalled) return;
        signalled = true;
        child.kill('SIGTERM');
      },
    })) as CallToolResult;
    expect(signalled).toBe(true);
    expect(result.isError).toBeFalsy();
    const text = textOf(result);
    for (const i of [0, 199, 399]) expect(text).toContain(`file ${i}\n`);
    expect(await exit).toBe(0);
    expect(stderr()).toMatch(/shutting down \(SIGTERM\): answering 1 call\(s\) in flight/);
  });

  it('answers 404 with code -32001 to a request naming a session it does not hold, as the protocol asks', async () => {
    const { child, url, exit } = await startHttp(ws.root);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'mcp-from-an-earlier-run' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
    });
    expect(response.status).toBe(404);
    const answer = (await response.json()) as { error: { code: number; message: string } };
    expect(answer.error.code).toBe(-32001);
    expect(answer.error.message).toContain('Start a new session with an initialize request');
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('closes a session left idle for --session-idle seconds, but not one whose client keeps a stream open', async () => {
    const { child, url, exit, stderr } = await startHttp(ws.root, {}, ['--session-idle', '1']);
    const post = poster(url);
    // A client that starts a session over plain requests, then goes away without ending it.
    const session = await startSession(post);
    // A client of the SDK's, connected throughout: it holds a stream open.
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    for (let waited = 0; waited < 100 && !stderr().includes(`session ${session}: closed after`); waited++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(stderr()).toMatch(new RegExp(`session ${session}: closed after \\d+ s idle`));
    expect((await post({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} }, session)).status).toBe(404);
    // Well past the idle time for the connected client too: its stream keeps its session.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(stderr().match(/closed after/g)).toHaveLength(1);
    await readsNormalThenStops(client, child, exit);
  });

  it('past --max-sessions, a new session closes the sessions idle the longest, never one in use, and is never refused', async () => {
    const held = await startHttp(ws.root, {}, ['--max-sessions', '2']);
    const post = poster(held.url);
    const first = await startSession(post);
    const second = await startSession(post);
    const third = await startSession(post);
    expect(held.stderr()).toMatch(new RegExp(`session ${first}: closed, idle \\d+ s, to make room for a new one \\(--max-sessions 2 reached\\)`));
    const list = { jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} };
    expect((await post(list, first)).status).toBe(404);
    for (const kept of [second, third]) expect((await post(list, kept)).status).toBe(200);
    held.child.kill('SIGTERM');
    expect(await held.exit).toBe(0);

    // One place, taken by a session whose client keeps a stream open: it is in use, never closed
    // for room, and a new session past the cap is taken all the same.
    const full = await startHttp(ws.root, {}, ['--max-sessions', '1']);
    const postFull = poster(full.url);
    const holder = await startSession(postFull);
    const stream = new AbortController();
    const opened = await fetch(full.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': holder }, signal: stream.signal });
    expect(opened.status).toBe(200);
    const past = await startSession(postFull);
    expect(full.stderr()).toContain('1 new session(s) taken past --max-sessions: all 1 held are in use');
    for (const kept of [holder, past]) expect((await postFull(list, kept)).status).toBe(200);
    // Its stream closed, both are idle: the next new session closes them, the longest idle first.
    stream.abort();
    for (let waited = 0; waited < 40 && !full.stderr().includes(`session ${holder}: closed`); waited++) {
      await startSession(postFull);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(full.stderr()).toMatch(new RegExp(`session ${past}: closed, idle \\d+ s, to make room[^]*session ${holder}: closed, idle`));
    for (const closed of [holder, past]) expect((await postFull(list, closed)).status).toBe(404);
    full.child.kill('SIGTERM');
    expect(await full.exit).toBe(0);
  });

  it('refuses a request with a foreign Origin, and one without the token when a token is set', async () => {
    const { child, url, exit } = await startHttp(ws.root, { READPOOL_TOKEN: 'sesame' });
    const post = (headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(INITIALIZE),
      });
    expect((await post({ authorization: 'Bearer sesame', origin: 'http://evil.example' })).status).toBe(403);
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: 'Bearer wrong!' })).status).toBe(401);
    expect((await post({ authorization: 'Bearer sesame' })).status).toBe(200);
    child.kill('SIGINT');
    expect(await exit).toBe(0);
  });
});
