/**
 * `readpool/tools`: every dialect's tools in one host-neutral shape. A host registers the tools
 * of the dialect its agents already know; the MCP server, the AI SDK adapter and the CLI only
 * translate these definitions.
 *
 * @example
 * import { createEngine } from 'readpool';
 * import { createTools } from 'readpool/tools';
 * const engine = await createEngine({ root: '/srv/workspace' });
 * const [read] = createTools(engine, 'gemini-cli');
 * const out = await read.execute({ absolute_path: '/srv/workspace/src/app.ts' }, { session: 'agent-7' });
 */
import type { Engine } from './engine.js';
import { createClaudeCodeTools } from './dialects/claude-code.js';
import { createCommaTools } from './dialects/comma.js';
import { createGeminiCliTools } from './dialects/gemini-cli.js';
import { createMcpFilesystemTools } from './dialects/mcp-filesystem.js';
import { createPilotdeckTools } from './dialects/pilotdeck.js';
import { createReadpoolTools } from './dialects/readpool-tool.js';
import { createXmlTools } from './dialects/xml.js';
import type { ToolDefinition, ToolOptions } from './dialects/tool.js';

export type { ContentPart, JsonSchema, ToolContext, ToolDefinition, ToolOptions, ToolOutput } from './dialects/tool.js';

/** Each dialect's tool factory, by the dialect's name. */
const DIALECTS = {
  readpool: createReadpoolTools,
  'gemini-cli': createGeminiCliTools,
  comma: createCommaTools,
  xml: createXmlTools,
  'mcp-filesystem': createMcpFilesystemTools,
  'claude-code': createClaudeCodeTools,
  pilotdeck: createPilotdeckTools,
} as const satisfies Record<string, (engine: Engine, options: ToolOptions) => ToolDefinition[]>;

export type DialectName = keyof typeof DIALECTS;

/** The dialects readpool speaks, for hosts and command lines that let a user pick one. */
export const DIALECT_NAMES: readonly DialectName[] = Object.freeze(Object.keys(DIALECTS) as DialectName[]);

export function isDialectName(value: unknown): value is DialectName {
  return typeof value === 'string' && Object.hasOwn(DIALECTS, value);
}

/**
 * The tools of one dialect over `engine`: one tool for most dialects, three for
 * `mcp-filesystem`. Throws a TypeError for an unknown dialect name (a programming error).
 */
export function createTools(engine: Engine, dialect: DialectName, options: ToolOptions = {}): ToolDefinition[] {
  if (!isDialectName(dialect)) {
    throw new TypeError(`createTools: unknown dialect ${JSON.stringify(dialect)}; expected one of ${DIALECT_NAMES.join(', ')}`);
  }
  return DIALECTS[dialect](engine, options);
}
