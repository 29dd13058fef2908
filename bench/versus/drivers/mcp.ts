/**
 * An MCP filesystem server over stdio, driven by the SDK Client: the official server or
 * `readpool serve --dialect mcp-filesystem`, spawned by the lead's `connect` (bench/compat/
 * mcp-speed). `read_text_file` takes `head` or `tail`, never a window in the middle; one client
 * is one MCP session. The server's own peak RSS is read from /proc before it is closed.
 */
import fs from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connect, type McpSystem } from '../../compat/mcp-speed.js';
import { payloadOf, Unsupported, type Payload, type System, type Window } from '../system.js';

function peakRssMiB(pid: number | null | undefined): number {
  if (pid === null || pid === undefined) return 0;
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] === undefined ? 0 : Number(match[1]) / 1024;
  } catch {
    return 0;
  }
}

function toPayload(result: CallToolResult): Payload {
  const texts: string[] = [];
  const media: { mimeType: string; data: string }[] = [];
  for (const part of result.content) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'image' || part.type === 'audio') media.push(part);
    else if (part.type === 'resource' && 'blob' in part.resource) media.push({ mimeType: part.resource.mimeType ?? '', data: part.resource.blob });
  }
  return payloadOf(texts, media, result.isError === true);
}

/** What the SDK's client does with an answer over its stdio buffer (10 MB of JSON): it drops the connection. */
const CLOSED = 'the SDK client closed the connection: the answer was over its 10 MB stdio message limit';

export async function mcpSystem(kind: McpSystem, root: string): Promise<System> {
  let client: Client | null = (await connect(kind, root)).client;
  let pid = (client.transport as StdioClientTransport | undefined)?.pid;
  let serverRss = 0;
  const call = async (name: string, args: Record<string, unknown>): Promise<Payload> => {
    // A host restarts a server whose connection dropped; the next call gets a fresh one.
    client ??= (await connect(kind, root)).client;
    pid = (client.transport as StdioClientTransport | undefined)?.pid;
    try {
      return toPayload((await client.callTool({ name, arguments: args })) as CallToolResult);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!/Connection closed/.test(message)) return payloadOf([message], [], true);
      await client.close().catch(() => undefined);
      client = null;
      return payloadOf([`${message} (${CLOSED})`], [], true);
    }
  };
  return {
    name: kind === 'official server' ? 'MCP official server' : 'readpool serve (MCP)',
    read: (path: string, window: Window) => {
      if (window.tail !== undefined) return call('read_text_file', { path, tail: window.tail });
      if ((window.offset ?? 1) !== 1) throw new Unsupported('read_text_file takes head or tail only: a window in the middle means the whole file');
      return call('read_text_file', window.limit === undefined ? { path } : { path, head: window.limit });
    },
    media: (path: string) => call('read_media_file', { path }),
    extraRssMiB: () => serverRss,
    close: async () => {
      serverRss = peakRssMiB(pid);
      await client?.close();
    },
  };
}
