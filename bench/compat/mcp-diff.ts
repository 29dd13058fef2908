/**
 * The mcp-filesystem dialect against the official MCP filesystem server. The server runs over
 * stdio on the fixture root; readpool answers the same calls twice: its tools called directly
 * (`execute`, put in MCP's shape as `readpool serve` puts them) and `readpool serve --dialect
 * mcp-filesystem` over stdio. The SDK's own Client drives both servers. Compared: the read
 * tools as `tools/list` announces them, then every call's `content`, `isError` and
 * `structuredContent`.
 */
import path from 'node:path';
import type { Engine } from '../../src/engine.js';
import { callResultOf, toolOf } from '../../src/mcp/content.js';
import { createTools } from '../../src/tools.js';
import { outcomeOf, type CaseOutcome } from './diff.js';
import type { FixtureSet } from './fixtures.js';
import { plan } from './mcp-filesystem.js';
import { loadMcpSdk, mcpFilesystemEntry, type McpCallToolResult, type McpClient, type McpTool } from './peers.js';

const READ_TOOLS = ['read_text_file', 'read_media_file', 'read_multiple_files'] as const;

async function connect(command: string, args: string[], cwd: string): Promise<McpClient> {
  const { Client, StdioClientTransport } = loadMcpSdk();
  const transport = new StdioClientTransport({ command, args, stderr: 'pipe', cwd });
  // Drained, never shown: both servers log their start-up there.
  transport.stderr?.on('data', () => undefined);
  const client = new Client({ name: 'readpool-compat', version: '0.0.0' }, { capabilities: {} });
  await client.connect(transport);
  return client;
}

/** What a call is compared on; a call that throws is compared on its message. */
function answerOf(result: McpCallToolResult): unknown {
  return { content: result.content, isError: result.isError === true, structuredContent: result.structuredContent ?? null };
}

async function call(client: McpClient, name: string, args: Record<string, unknown>): Promise<unknown> {
  try {
    return answerOf(await client.callTool({ name, arguments: args }));
  } catch (error) {
    return { thrown: error instanceof Error ? error.message : String(error) };
  }
}

function announced(tool: McpTool | undefined): unknown {
  if (tool === undefined) return null;
  const { name, description, inputSchema, outputSchema, annotations } = tool;
  return { name, description, inputSchema, outputSchema, annotations };
}

/** `read_text_file lf.txt head=2`: paths relative to the root, so the ids stay the same from run to run. */
function label(set: FixtureSet, name: string, args: Record<string, unknown>): string {
  const shown = (value: unknown) => (typeof value === 'string' && path.isAbsolute(value) ? path.relative(set.root, value) : JSON.stringify(value));
  const parts = Object.entries(args).map(([key, value]) =>
    key === 'path' ? shown(value) : key === 'paths' && Array.isArray(value) ? `[${value.map(shown).join(',')}]` : `${key}=${JSON.stringify(value)}`,
  );
  return `${name} ${parts.join(' ')}`;
}

export async function* mcpCases(engine: Engine, set: FixtureSet, cli: string): AsyncGenerator<CaseOutcome> {
  const official = await connect(process.execPath, [mcpFilesystemEntry(), set.root], set.base);
  const served = await connect(process.execPath, [cli, 'serve', '--root', set.root, '--dialect', 'mcp-filesystem'], set.base);
  const tools = createTools(engine, 'mcp-filesystem');
  try {
    const [officialTools, servedTools] = await Promise.all([official.listTools(), served.listTools()]);
    for (const name of READ_TOOLS) {
      const original = announced(officialTools.tools.find((tool) => tool.name === name));
      const definition = tools.find((tool) => tool.name === name);
      yield outcomeOf(`mcp-filesystem exec  tools/list ${name}`, original, definition === undefined ? null : announced(toolOf(definition) as McpTool));
      yield outcomeOf(`mcp-filesystem serve tools/list ${name}`, original, announced(servedTools.tools.find((tool) => tool.name === name)));
    }
    for (const [name, args] of plan(set)) {
      const original = await call(official, name, args);
      const tool = tools.find((candidate) => candidate.name === name || candidate.aliases.includes(name));
      const direct = tool === undefined ? null : answerOf(callResultOf(await tool.execute(args, { session: 'compat' }), tool) as McpCallToolResult);
      yield outcomeOf(`mcp-filesystem exec  ${label(set, name, args)}`, original, direct);
      yield outcomeOf(`mcp-filesystem serve ${label(set, name, args)}`, original, await call(served, name, args));
    }
  } finally {
    await Promise.all([official.close(), served.close()]);
  }
}
