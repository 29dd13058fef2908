/**
 * A tool's input (and output) schema as hosts register it: JSON Schema generated from the
 * dialect's one zod schema, so the schema a model reads and the check a call meets never drift.
 */
import { z } from 'zod';

/** A JSON Schema object, as tools are registered with hosts. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/**
 * The JSON Schema of a tool's input, generated from its zod schema without the safe-integer
 * bounds zod adds to every integer, so it reads as the original tool's schema does. Without a
 * `draft`, the `$schema` key is left out; with one, the schema is that draft and says so.
 */
export function jsonSchemaOf(schema: z.ZodType, draft?: 'draft-07'): JsonSchema {
  const target = draft === 'draft-07' ? 'draft-7' : 'draft-2020-12';
  const generated: Record<string, unknown> = { ...z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target }) };
  if (draft === undefined) delete generated.$schema;
  return stripSafeBounds(generated) as JsonSchema;
}

function stripSafeBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripSafeBounds);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'minimum' && value === Number.MIN_SAFE_INTEGER) || (key === 'maximum' && value === Number.MAX_SAFE_INTEGER)) continue;
    out[key] = stripSafeBounds(value);
  }
  return out;
}
