/**
 * The reference MCP filesystem server, for real: spawned over stdio on the fixture root
 * (`node <server-filesystem/dist/index.js> <root>`), driven by the SDK's Client, its read tools
 * called on every fixture. Results are the raw CallToolResults.
 */
import path from 'node:path';
import { fixture, type FixtureSet } from './fixtures.js';
import { loadMcpSdk, mcpFilesystemEntry, type McpCallToolResult, type McpClient, type McpTool } from './peers.js';

export interface McpCase {
  tool: string;
  arguments: Record<string, unknown>;
  /** the raw result, or the message of what callTool threw */
  result?: McpCallToolResult;
  thrown?: string;
}

export interface McpProbe {
  command: string[];
  /** what the server wrote to stderr while it ran */
  stderr: string;
  tools: McpTool[];
  cases: McpCase[];
}

async function call(client: McpClient, tool: string, args: Record<string, unknown>): Promise<McpCase> {
  try {
    return { tool, arguments: args, result: await client.callTool({ name: tool, arguments: args }) };
  } catch (error) {
    return { tool, arguments: args, thrown: error instanceof Error ? error.message : String(error) };
  }
}

/** Every call, in order: (tool, arguments). */
export function plan(set: FixtureSet): Array<[string, Record<string, unknown>]> {
  const calls: Array<[string, Record<string, unknown>]> = [];
  const at = (name: string): string => fixture(set, name).path;
  for (const f of set.fixtures) {
    if (f.kind === 'huge') continue;
    calls.push(['read_text_file', { path: f.path }]);
    if (f.kind !== 'text') continue;
    calls.push(['read_text_file', { path: f.path, head: 2 }]);
    calls.push(['read_text_file', { path: f.path, tail: 2 }]);
  }
  const lf = at('lf.txt');
  const long = at('lines-2500.txt');
  calls.push(
    ['read_text_file', { path: lf, head: 2, tail: 2 }],
    ['read_text_file', { path: lf, head: 0 }],
    ['read_text_file', { path: lf, tail: 0 }],
    ['read_text_file', { path: lf, head: 10 }],
    ['read_text_file', { path: lf, tail: 10 }],
    ['read_text_file', { path: lf, head: -1 }],
    ['read_text_file', { path: lf, head: 1.5 }],
    ['read_text_file', { path: lf, head: '2' }],
    ['read_text_file', { path: long, head: 3 }],
    ['read_text_file', { path: long, tail: 3 }],
    ['read_text_file', { path: at('crlf.txt'), head: 5 }],
    ['read_text_file', { path: at('crlf.txt'), tail: 5 }],
    ['read_text_file', { path: at('bom-utf8.txt'), tail: 10 }],
    ['read_text_file', { path: 'lf.txt' }],
    ['read_text_file', { path: set.outside }],
    ['read_text_file', { path: '../outside.txt' }],
    ['read_text_file', { path: path.join(set.root, 'no-such-dir/x.txt') }],
    ['read_text_file', { path: `${set.root}/dir/../lf.txt` }],
    ['read_file', { path: lf }],
    ['read_multiple_files', { paths: [lf, at('crlf.txt'), at('missing.txt'), at('dir'), at('no-eol.txt'), set.outside] }],
    ['read_multiple_files', { paths: [lf] }],
    ['read_multiple_files', { paths: [at('empty.txt'), at('single-line.txt')] }],
    ['read_multiple_files', { paths: ['lf.txt', at('binary.bin')] }],
    ['read_multiple_files', { paths: [] }],
    ['read_media_file', { path: at('image.png') }],
    ['read_media_file', { path: at('notebook.ipynb') }],
    ['read_media_file', { path: at('binary.bin') }],
    ['read_media_file', { path: at('binary.dat') }],
    ['read_media_file', { path: lf }],
    ['read_media_file', { path: at('missing.txt') }],
    ['read_media_file', { path: at('dir') }],
    ['read_media_file', { path: set.outside }],
  );
  return calls;
}

export async function probeMcpFilesystem(set: FixtureSet): Promise<McpProbe> {
  const { Client, StdioClientTransport } = loadMcpSdk();
  const entry = mcpFilesystemEntry();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [entry, set.root],
    stderr: 'pipe',
    cwd: set.base,
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer | string) => {
    stderr += chunk.toString();
  });
  // No roots capability: the server keeps the allowed directory of its command line.
  const client = new Client({ name: 'readpool-compat-probe', version: '0.0.0' }, { capabilities: {} });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const cases: McpCase[] = [];
    for (const [tool, args] of plan(set)) cases.push(await call(client, tool, args));
    return { command: ['node', entry, set.root], stderr, tools, cases };
  } finally {
    await client.close();
  }
}
