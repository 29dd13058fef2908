/**
 * readpool's MCP server beside the official filesystem server, both spawned over stdio and
 * driven by the same SDK Client: how soon each answers its first call after spawning, one
 * `read_multiple_files` of 500 files, and 200 `read_text_file` calls at concurrency 16.
 * Each server is a fresh child process per measured pass of the readiness figure; the read
 * figures reuse one warm server per system and alternate the systems pass by pass, so a noisy
 * machine slows both alike.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { prepareSourceTree, warmPageCache } from '../corpus.js';
import { forEachConcurrent } from '../event-loop.js';
import { median, percentile } from '../stats.js';
import { ensurePeers, mcpFilesystemEntry, PROJECT_ROOT } from './peers.js';

export type McpSystem = 'readpool serve' | 'official server';
export const MCP_SYSTEMS: readonly McpSystem[] = ['readpool serve', 'official server'];

const CLI = path.join(PROJECT_ROOT, 'dist/src/cli.cjs');

/** The command line that serves `root` over stdio as `system`. */
export function serverCommand(system: McpSystem, root: string): string[] {
  if (system === 'readpool serve') return [CLI, 'serve', '--dialect', 'mcp-filesystem', '--root', root];
  ensurePeers();
  return [mcpFilesystemEntry(), root];
}

export interface Connected {
  readonly client: Client;
  /** ms from spawning to the initialize handshake done */
  readonly connectMs: number;
}

/** Spawns `system` on `root` and completes the MCP handshake. */
export async function connect(system: McpSystem, root: string): Promise<Connected> {
  const [entry, ...args] = serverCommand(system, root);
  const transport = new StdioClientTransport({ command: process.execPath, args: [entry ?? '', ...args], stderr: 'ignore' });
  const client = new Client({ name: 'readpool-bench', version: '1.0.0' });
  const start = performance.now();
  await client.connect(transport);
  return { client, connectMs: performance.now() - start };
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError === true) throw new Error(`${name} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
  return result;
}

function bytesOf(result: CallToolResult): number {
  let bytes = 0;
  for (const part of result.content) if (part.type === 'text') bytes += Buffer.byteLength(part.text);
  return bytes;
}

export interface Readiness {
  /** spawn to handshake done, ms */
  readonly connectMs: number;
  /** spawn to the first read_text_file answered, ms */
  readonly firstCallMs: number;
}

/** Spawn to first answered call, for a fresh server each time. */
export async function readiness(system: McpSystem, root: string, file: string): Promise<Readiness> {
  const start = performance.now();
  const { client, connectMs } = await connect(system, root);
  await call(client, 'read_text_file', { path: file });
  const firstCallMs = performance.now() - start;
  await client.close();
  return { connectMs, firstCallMs };
}

/** Wall time of `node -e 0`: the floor under any Node server's start. */
export async function bareNodeMs(): Promise<number> {
  const start = performance.now();
  await promisify(execFile)(process.execPath, ['-e', '0']);
  return performance.now() - start;
}

export interface McpSpeedFigures {
  readonly files: number;
  readonly passes: number;
  readonly bareNodeMs: number;
  readonly systems: Record<
    McpSystem,
    {
      readonly connectMs: number;
      readonly firstCallMs: number;
      /** one read_multiple_files of every file, median ms */
      readonly multipleMs: number;
      readonly multipleBytes: number;
      /** 200 read_text_file at concurrency 16 */
      readonly singleFilesPerSecond: number;
      readonly singleP50Ms: number;
      readonly singleP99Ms: number;
    }
  >;
}

const FILES = 500;
const SINGLE_CALLS = 200;
/** Well under readpool's default output budget for one file. */
const WHOLE_BYTES = 48 * 1024;
const SINGLE_CONCURRENCY = 16;

/** Every figure of the comparison, `passes` measured passes of each (after one warm-up). */
export async function measureMcpSpeed(projectRoot: string, passes: number, log: (line: string) => void = () => undefined): Promise<McpSpeedFigures> {
  // Files small enough that both servers return them whole (readpool cuts a file over its output
  // budget, the official server does not), so both do the same work and return the same text.
  const tree = prepareSourceTree(projectRoot, path.join(projectRoot, 'bench/.corpus/mcp-tree'), FILES * 2);
  const absolute = tree.files
    .map((file) => path.join(tree.root, file))
    .filter((file) => fs.statSync(file).size <= WHOLE_BYTES)
    .slice(0, FILES);
  const root = tree.root;
  warmPageCache(root, absolute.map((file) => path.relative(root, file)));
  const first = absolute[0] ?? '';

  const bare: number[] = [];
  const ready = new Map<McpSystem, Readiness[]>(MCP_SYSTEMS.map((system) => [system, []]));
  for (let pass = 0; pass <= passes; pass++) {
    bare.push(await bareNodeMs());
    for (const system of MCP_SYSTEMS) {
      const figure = await readiness(system, root, first);
      if (pass > 0) ready.get(system)?.push(figure);
    }
  }
  log(`readiness measured over ${passes} spawns per system`);

  const clients = new Map<McpSystem, Client>();
  for (const system of MCP_SYSTEMS) clients.set(system, (await connect(system, root)).client);
  const multiple = new Map<McpSystem, number[]>(MCP_SYSTEMS.map((system) => [system, []]));
  const multipleBytes = new Map<McpSystem, number>();
  const single = new Map<McpSystem, { walls: number[]; latencies: number[] }>(MCP_SYSTEMS.map((system) => [system, { walls: [], latencies: [] }]));
  const singles = absolute.slice(0, SINGLE_CALLS);
  for (let pass = 0; pass <= passes; pass++) {
    const order = pass % 2 === 0 ? MCP_SYSTEMS : [...MCP_SYSTEMS].reverse();
    for (const system of order) {
      const client = clients.get(system);
      if (client === undefined) continue;
      let start = performance.now();
      const result = await call(client, 'read_multiple_files', { paths: absolute });
      const multipleMs = performance.now() - start;
      multipleBytes.set(system, bytesOf(result));
      const latencies: number[] = [];
      start = performance.now();
      await forEachConcurrent(singles, SINGLE_CONCURRENCY, async (file) => {
        const callStart = performance.now();
        await call(client, 'read_text_file', { path: file });
        latencies.push(performance.now() - callStart);
      });
      const wall = performance.now() - start;
      if (pass === 0) continue; // warm-up
      multiple.get(system)?.push(multipleMs);
      single.get(system)?.walls.push(wall);
      single.get(system)?.latencies.push(...latencies);
    }
    log(`read pass ${pass}/${passes} done`);
  }
  await Promise.all([...clients.values()].map((client) => client.close()));

  const systems = {} as McpSpeedFigures['systems'];
  for (const system of MCP_SYSTEMS) {
    const readies = ready.get(system) ?? [];
    const { walls, latencies } = single.get(system) ?? { walls: [], latencies: [] };
    systems[system] = {
      connectMs: median(readies.map((r) => r.connectMs)),
      firstCallMs: median(readies.map((r) => r.firstCallMs)),
      multipleMs: median(multiple.get(system) ?? []),
      multipleBytes: multipleBytes.get(system) ?? 0,
      singleFilesPerSecond: SINGLE_CALLS / (median(walls) / 1000),
      singleP50Ms: percentile(latencies, 50),
      singleP99Ms: percentile(latencies, 99),
    };
  }
  return { files: absolute.length, passes, bareNodeMs: median(bare), systems };
}
