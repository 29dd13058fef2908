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
import { isDialectName, DIALECT_NAMES, type DialectName } from './dialect-names.js';

export type { ContentPart, ToolContext, ToolDefinition, ToolOptions, ToolOutput } from './dialects/tool.js';
export type { JsonSchema } from './dialects/json-schema.js';

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

/** The dialects readpool speaks (in `dialect-names.ts`, loadable without the dialects). */
export { DIALECT_NAMES, isDialectName, type DialectName } from './dialect-names.js';

/** Every listed name has a factory here and every factory is listed: the build fails otherwise. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const DIALECT_NAMES_MATCH: Same<DialectName, keyof typeof DIALECTS> = true;

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
