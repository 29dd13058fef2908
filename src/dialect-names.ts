/**
 * The dialects' names alone, for command lines and usage texts that must not load every
 * dialect (and zod) to print them. `tools.ts` checks at compile time that these are exactly the
 * dialects it builds tools for.
 */
export const DIALECT_NAMES = Object.freeze(['readpool', 'gemini-cli', 'comma', 'xml', 'mcp-filesystem', 'claude-code', 'pilotdeck'] as const);

export type DialectName = (typeof DIALECT_NAMES)[number];

export function isDialectName(value: unknown): value is DialectName {
  return typeof value === 'string' && (DIALECT_NAMES as readonly string[]).includes(value);
}
