/**
 * The README's host sections, run as written: the MCP client configurations drive the built
 * server, and the code snippets run as modules inside the package (so `readpool/tools` and
 * `readpool/ai` resolve as they would for a user). A README that drifts from the code fails here.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from './support/cli-bin.js';
import { makeWorkspace, removeTempDir, writeFile } from './support/temp-dir.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const README = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
/** Git-ignored: snippets run from inside the package so its own name resolves. */
const SCRATCH = path.join(REPO, '.scratch');

function snippet(name: string): string {
  const match = new RegExp(`<!-- readme-test: ${name} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(README);
  if (match?.[1] === undefined) throw new Error(`README has no snippet ${name}`);
  return match[1];
}

interface ServerConfig {
  command?: string;
  args?: string[];
  type?: string;
  url?: string;
  headers?: Record<string, string>;
}

function serverConfig(name: string): ServerConfig {
  const config = JSON.parse(snippet(name)) as { mcpServers: { readpool: ServerConfig } };
  return config.mcpServers.readpool;
}

let base = '';
let root = '';

beforeAll(() => {
  ({ base, root } = makeWorkspace());
  writeFile(root, 'README.md', '# readpool\n\nA sandboxed file-read engine.\n');
  fs.mkdirSync(SCRATCH, { recursive: true });
});

afterAll(() => removeTempDir(base));

describe('the README host sections', () => {
  it('stdio configuration: the command it names serves the tools', async () => {
    const config = serverConfig('mcp-stdio');
    expect(config.command).toBe('npx');
    expect(config.args?.slice(0, 2)).toEqual(['readpool', 'serve']);
    // `npx readpool` runs the package bin, which is the built CLI.
    const args = (config.args ?? []).slice(1).map((arg) => (arg === '/path/to/workspace' ? root : arg));
    const client = new Client({ name: 'readme', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, ...args], stderr: 'ignore' }));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['read']);
    await client.close();
  });

  it('HTTP configuration: its URL and bearer header reach the server started as the README says', async () => {
    const config = serverConfig('mcp-http');
    expect(config.url).toBe('http://127.0.0.1:8765/mcp');
    const child = spawn(process.execPath, [CLI, 'serve', '--root', root, '--http', '0'], {
      env: { ...process.env, READPOOL_TOKEN: 'readme-token' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const port = await new Promise<string>((resolve) => {
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
    });
    const headers = Object.fromEntries(
      Object.entries(config.headers ?? {}).map(([key, value]) => [key, value.replace('${READPOOL_TOKEN}', 'readme-token')]),
    );
    const client = new Client({ name: 'readme', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL((config.url ?? '').replace('8765', port)), { requestInit: { headers } }));
    const result = await client.callTool({ name: 'read', arguments: { path: 'README.md', limit: 1 } });
    expect(result.content).toEqual([{ type: 'text', text: '1\t# readpool\n\n[Showing lines 1-1 of 3. Call read with offset=2 to continue.]' }]);
    await client.close();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('readpool/tools snippet runs as written', () => {
    const file = path.join(SCRATCH, 'readme-tools.mjs');
    fs.writeFileSync(file, snippet('tools'));
    const run = spawnSync(process.execPath, [file], { cwd: root, encoding: 'utf8', timeout: 30_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('read path offset limit column pages fresh allowBinary encoding\n');
    expect(run.stdout).toContain('false {"type":"text","text":"1\\t# readpool\\n2\\t\\n3\\tA sandboxed file-read engine."}\n');
  });

  it('readpool/ai snippet runs as written, given a model', () => {
    const file = path.join(SCRATCH, 'readme-ai.mjs');
    // The one thing the snippet leaves to the reader: a model. The SDK's mock stands in for one.
    const model = `import { MockLanguageModelV4 } from 'ai/test';
const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
const model = new MockLanguageModelV4({ doGenerate: [{ content: [{ type: 'text', text: 'It describes readpool.' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] }] });
`;
    fs.writeFileSync(file, `${model}${snippet('ai')}console.log(result.text);\nawait engine.close();\n`);
    const run = spawnSync(process.execPath, [file], { cwd: root, encoding: 'utf8', timeout: 30_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('It describes readpool.\n');
  });
});
