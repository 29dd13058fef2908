/**
 * The real tools that readpool's dialects are checked against live in their own npm package,
 * bench/peers (never installed by the project's own `npm ci`). This module installs it on first
 * use and loads the real packages from there by absolute file URL. The packages' own types are
 * not the project's: what the harness uses is typed here by hand.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The project root: the first folder above this module that holds bench/peers/package.json, or,
 * where there is none (a build packed for another machine carries no peers' manifest), the
 * first that holds a package.json. Scenarios that need no peer then run there, and
 * `ensurePeers` says what is missing.
 */
function findProjectRoot(): string {
  const start = path.dirname(fileURLToPath(import.meta.url));
  const above = (marker: string): string | undefined => {
    for (let dir = start; ; dir = path.dirname(dir)) {
      if (fs.existsSync(path.join(dir, marker))) return dir;
      if (path.dirname(dir) === dir) return undefined;
    }
  };
  const root = above('bench/peers/package.json') ?? above('package.json');
  if (root === undefined) throw new Error('no package.json above the compat module');
  return root;
}

export const PROJECT_ROOT = findProjectRoot();
export const PEERS_DIR = path.join(PROJECT_ROOT, 'bench/peers');

const GEMINI = '@google/gemini-cli-core';
const MCP_SERVER = '@modelcontextprotocol/server-filesystem';
const MCP_SDK = '@modelcontextprotocol/sdk';
const PI = '@mariozechner/pi-coding-agent';

/**
 * Installs bench/peers from its lockfile when its node_modules is missing or lacks one of its
 * packages (a peer added since the last install); npm's output goes to stderr.
 */
export function ensurePeers(): void {
  if (!fs.existsSync(path.join(PEERS_DIR, 'package.json'))) {
    throw new Error(`${PEERS_DIR}/package.json is missing: the peer tools run from a checkout of the project, not from a packed build (run the scenario with --only and engine scenarios there)`);
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(PEERS_DIR, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  if (Object.keys(manifest.dependencies).every((name) => fs.existsSync(path.join(packageDir(name), 'package.json')))) return;
  process.stderr.write(`installing ${PEERS_DIR} (npm ci) ...\n`);
  execFileSync('npm', ['ci', '--prefix', PEERS_DIR, '--no-audit', '--no-fund'], { stdio: ['ignore', 2, 2] });
}

const peerRequire = createRequire(path.join(PEERS_DIR, 'package.json'));

/** The installed folder of a top-level peer package (bench/peers/node_modules/<name>). */
function packageDir(name: string): string {
  return path.join(PEERS_DIR, 'node_modules', name);
}

export function peerVersions(): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const name of [GEMINI, MCP_SERVER, MCP_SDK, PI]) {
    const json = JSON.parse(fs.readFileSync(path.join(packageDir(name), 'package.json'), 'utf8')) as { version: string };
    versions[name] = json.version;
  }
  return versions;
}

async function importFile<T>(file: string): Promise<T> {
  return (await import(pathToFileURL(file).href)) as T;
}

// ---- @google/gemini-cli-core -------------------------------------------------------------

/** `ProcessedFileReadResult` of dist/src/utils/fileUtils.d.ts. */
export interface GeminiFileResult {
  llmContent: unknown;
  returnDisplay: string;
  error?: string;
  errorType?: string;
  isTruncated?: boolean;
  originalLineCount?: number;
  linesShown?: [number, number];
}

/** The slice of the `Config` class that `ReadFileTool` (dist/src/tools/read-file.js) calls. */
export interface GeminiToolConfig {
  getTargetDir(): string;
  validatePathAccess(absolutePath: string, checkType: string): string | null;
  getFileSystemService(): unknown;
  getFileFilteringOptions(): { respectGitIgnore: boolean; respectGeminiIgnore: boolean };
  getUsageStatisticsEnabled(): boolean;
  getMemoryContextManager(): undefined;
}

export interface GeminiReadFileParams {
  file_path: string;
  start_line?: number;
  end_line?: number;
}

/** `ToolResult` of dist/src/tools/tools.d.ts. */
export interface GeminiToolResult {
  llmContent: unknown;
  returnDisplay: unknown;
  error?: { message: string; type?: string };
  display?: unknown;
}

export interface GeminiReadFileTool {
  validateBuildAndExecute(params: GeminiReadFileParams, signal: AbortSignal): Promise<GeminiToolResult>;
}

export interface GeminiCore {
  /** (filePath, rootDirectory, fileSystemService (unused), startLine 1-based, endLine 1-based inclusive) */
  processSingleFileContent(
    filePath: string,
    rootDirectory: string,
    fileSystemService: unknown,
    startLine?: number,
    endLine?: number,
  ): Promise<GeminiFileResult>;
  ReadFileTool: new (config: GeminiToolConfig, messageBus: unknown) => GeminiReadFileTool;
}

export interface GeminiDeclaration {
  name: string;
  description: string;
  parametersJsonSchema: unknown;
}

export interface GeminiToolSets {
  DEFAULT_LEGACY_SET: { read_file: GeminiDeclaration };
  GEMINI_3_SET: { read_file: GeminiDeclaration };
}

/** The package's own entry (its `main`, dist/index.js), which re-exports dist/src/utils/fileUtils.js. */
export function loadGeminiCore(): Promise<GeminiCore> {
  return importFile<GeminiCore>(peerRequire.resolve(GEMINI));
}

/** The read_file declarations (legacy and Gemini 3 sets): not re-exported by the entry, so by file. */
export function loadGeminiToolSets(): Promise<GeminiToolSets> {
  return importFile<GeminiToolSets>(path.join(packageDir(GEMINI), 'dist/src/tools/definitions/coreTools.js'));
}

// ---- @modelcontextprotocol/server-filesystem and @modelcontextprotocol/sdk ----------------

/** The server's bin entry (dist/index.js), to be run as `node <entry> <allowed dir>`. */
export function mcpFilesystemEntry(): string {
  const manifest = peerRequire.resolve(`${MCP_SERVER}/package.json`);
  const json = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
  const bin = json.bin['mcp-server-filesystem'];
  if (bin === undefined) throw new Error(`${MCP_SERVER} has no mcp-server-filesystem bin`);
  return path.join(path.dirname(manifest), bin);
}

export interface McpContent {
  type: string;
  [key: string]: unknown;
}

export interface McpCallToolResult {
  content: McpContent[];
  structuredContent?: unknown;
  isError?: boolean;
  [key: string]: unknown;
}

export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
  [key: string]: unknown;
}

export interface McpClient {
  connect(transport: McpStdioTransport): Promise<void>;
  listTools(): Promise<{ tools: McpTool[] }>;
  callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<McpCallToolResult>;
  close(): Promise<void>;
}

export interface McpStdioTransport {
  readonly stderr: NodeJS.ReadableStream | null;
}

export interface McpSdk {
  Client: new (info: { name: string; version: string }, options?: { capabilities: Record<string, unknown> }) => McpClient;
  StdioClientTransport: new (params: {
    command: string;
    args: string[];
    stderr: 'pipe';
    cwd: string;
  }) => McpStdioTransport;
}

/** The SDK's client and stdio transport, required (CommonJS build) from bench/peers. */
export function loadMcpSdk(): McpSdk {
  const client = peerRequire(`${MCP_SDK}/client/index.js`) as Pick<McpSdk, 'Client'>;
  const stdio = peerRequire(`${MCP_SDK}/client/stdio.js`) as Pick<McpSdk, 'StdioClientTransport'>;
  return { Client: client.Client, StdioClientTransport: stdio.StdioClientTransport };
}

// ---- @mariozechner/pi-coding-agent ----------------------------------------------------------

/** A content part of pi's tool results (text, or an image as base64). */
export type PiContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

/** The `AgentTool` that `createReadTool(cwd)` returns: `execute(toolCallId, { path, offset, limit })`. */
export interface PiReadTool {
  execute(toolCallId: string, input: { path: string; offset?: number; limit?: number }): Promise<{ content: PiContent[]; details?: unknown }>;
}

export interface PiCodingAgent {
  createReadTool(cwd: string): PiReadTool;
}

/** The package's own entry (its `main`, dist/index.js; its exports are import-only), which exports `createReadTool`. */
export function loadPiCodingAgent(): Promise<PiCodingAgent> {
  return importFile<PiCodingAgent>(path.join(packageDir(PI), 'dist/index.js'));
}
