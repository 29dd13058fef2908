/**
 * `readpool serve` end to end: the built CLI spawned as a child process and driven by the MCP
 * SDK's own `Client`, over stdio and over streamable HTTP, as a host would drive it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDialectWorkspace, type DialectWorkspace } from './support/dialect-workspace.js';
import { INITIALIZE, startHttp, stdioClient, textOf } from './support/mcp-server.js';
import { removeTempDir } from './support/temp-dir.js';

let ws: DialectWorkspace;

beforeAll(async () => {
  ws = await makeDialectWorkspace();
});

afterAll(() => removeTempDir(ws.base));

describe('readpool serve over stdio', () => {
  it('lists the tools, reads text, an image and a PDF page, refuses outside the root, and exits 0 on stdin close', async () => {
    const { client, transport, exit } = stdioClient(ws.root);
    await client.connect(transport);
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

    await client.close();
    expect(await exit).toBe('0');
  });

  it('narrows the served roots to the client roots, never widens them', async () => {
    const narrowed = path.join(ws.root, 'dir');
    const { client, transport, exit } = stdioClient(ws.root, [], [narrowed, path.join(ws.base, 'elsewhere')]);
    await client.connect(transport);
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
    await client.close();
    expect(await exit).toBe('0');
  });
});

describe('readpool serve over streamable HTTP', () => {
  it('serves a client, then shuts down cleanly on SIGTERM', async () => {
    const { child, url, exit } = await startHttp(ws.root);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    const result = (await client.callTool({ name: 'read', arguments: { path: 'normal.txt', offset: 2 } })) as CallToolResult;
    expect(textOf(result)).toBe('2\tbeta\n3\tgamma');
    const outside = (await client.callTool({ name: 'read', arguments: { path: ws.outside } })) as CallToolResult;
    expect(outside.isError).toBe(true);
    await client.close();
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
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
