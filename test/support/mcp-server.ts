/**
 * `readpool serve` as a host runs it: the built CLI spawned as a child process, over stdio
 * (driven by the MCP SDK's own `Client`) or over streamable HTTP (its URL read from the log).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI } from './cli-bin.js';

export { CLI };

/** The first content part's text; fails the test when it is not text. */
export function textOf(result: CallToolResult): string {
  const [part] = result.content;
  if (part?.type !== 'text') throw new Error(`expected text first, got ${JSON.stringify(result.content).slice(0, 200)}`);
  return part.text;
}

/** Answers the server's roots request with `roots` (directories, as file:// URIs). */
export function withRoots(client: Client, roots: readonly string[]): Client {
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots.map((root) => ({ uri: pathToFileURL(root).href })) }));
  return client;
}

/**
 * A client over stdio to `serve --root root`; `exit` is the server's exit status, reported by the
 * shell that runs it, and `stderr` what the server has logged so far.
 */
export function stdioClient(
  root: string,
  extraArgs: string[] = [],
  roots?: string[],
): { client: Client; transport: StdioClientTransport; exit: Promise<string>; stderr: () => string } {
  const command = ['node', JSON.stringify(CLI), 'serve', '--root', JSON.stringify(root), ...extraArgs].join(' ');
  const transport = new StdioClientTransport({ command: 'sh', args: ['-c', `${command}; echo "exit status $?" >&2`], stderr: 'pipe' });
  let stderr = '';
  const exit = new Promise<string>((resolve) => {
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /exit status (\d+)/.exec(stderr);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
  });
  const logged = () => stderr;
  if (roots === undefined) return { client: new Client({ name: 'test', version: '1.0.0' }), transport, exit, stderr: logged };
  const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
  return { client: withRoots(client, roots), transport, exit, stderr: logged };
}

/** `serve --root root --http 0` with `env` added; resolves once it has logged the line with its URL. */
export async function startHttp(
  root: string,
  env: NodeJS.ProcessEnv = {},
  extraArgs: string[] = [],
): Promise<{ child: ChildProcess; url: URL; exit: Promise<number | null>; stderr: () => string }> {
  const args = [CLI, 'serve', '--root', root, '--http', '0', ...extraArgs];
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      // The whole line, so that what follows the URL on it is in `stderr()` too.
      const match = /at (http:\/\/\S+\/mcp)[^\n]*\n/.exec(stderr);
      if (match?.[1] !== undefined) resolve(new URL(match[1]));
    });
    child.once('exit', () => reject(new Error(`server exited: ${stderr}`)));
  });
  return { child, url, exit, stderr: () => stderr };
}

/** An MCP initialize request, as a client's first message. */
export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
} as const;
