/**
 * The request schema with zod, loaded only when a request is not plainly valid (see
 * `request.ts`): it words every issue for a model, and it decides what the fast check leaves to it.
 */
import { z } from 'zod';
import { isRenderSpec, type RenderSpec } from './core/line-format.js';
import { DECODINGS, decodingOf, LEGACY_ENCODINGS } from './core/sniff.js';
import { MIN_MAX_BYTES, MIN_MAX_TOKENS } from './options.js';
import type { ReadRequest } from './request.js';

const wholeNumber = (min: number) => z.number().int().min(min).max(Number.MAX_SAFE_INTEGER);

const schema = z.strictObject({
  path: z.string(),
  offset: z
    .number()
    .int()
    .min(-Number.MAX_SAFE_INTEGER)
    .max(Number.MAX_SAFE_INTEGER)
    .refine((offset) => offset !== 0, 'must not be 0: lines are numbered from 1, and a negative offset counts from the end (-1 is the last line)')
    .optional(),
  limit: wholeNumber(1).optional(),
  column: wholeNumber(1).optional(),
  session: z.string().min(1).max(256).optional(),
  fresh: z.boolean().optional(),
  allowBinary: z.boolean().optional(),
  media: z.boolean().optional(),
  hash: z.literal('sha256').optional(),
  encoding: z
    .enum(DECODINGS, { error: `must be auto, utf-8 or one of ${LEGACY_ENCODINGS.join(', ')} (or a label of one, like GBK, latin1 or Shift-JIS)` })
    .optional(),
  maxBytes: wholeNumber(MIN_MAX_BYTES).optional(),
  maxTokens: wholeNumber(MIN_MAX_TOKENS).optional(),
  timeoutMs: wholeNumber(1).optional(),
  pages: z
    .string()
    .regex(/^\s*\d+\s*(-\s*\d+\s*)?$/, 'must be a page or a range, like "3" or "1-5"')
    .optional(),
  accept: z.strictObject({ images: z.boolean().optional(), pdf: z.boolean().optional() }).optional(),
  within: z.array(z.string().min(1)).max(256).optional(),
  // Kept as the caller's own object (not cloned), so a dialect's constant spec keys caches cheaply.
  render: z.custom<RenderSpec>(isRenderSpec, 'must be a render spec: { format, cutMarker, cut? }').optional(),
}).refine((request) => request.column === undefined || (request.offset ?? 1) > 0, {
  message: 'column needs a positive offset: the line whose characters to read',
  path: ['column'],
});

/** The hand-written `ReadRequest` is exactly the schema's input: a change to one breaks the build until the other follows. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const REQUEST_TYPE_MATCHES_SCHEMA: Same<ReadRequest, z.input<typeof schema>> = true;

/** Validates a request the fast check passed on; its issues say what to fix. */
export function parseWithSchema(input: unknown): { ok: true; request: ReadRequest } | { ok: false; issues: string[] } {
  const parsed = schema.safeParse(withEncodingNamed(input));
  if (!parsed.success) {
    return {
      ok: false,
      issues: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'request'}: ${issue.message}`),
    };
  }
  return { ok: true, request: parsed.data };
}

/**
 * `input` with its `encoding` given as the decoding's own name when it was a label of one (see
 * `decodingOf`); anything else as it came, for the schema to judge.
 */
function withEncodingNamed(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || !('encoding' in input)) return input;
  const proto: unknown = Object.getPrototypeOf(input);
  if (proto !== Object.prototype && proto !== null) return input;
  const { encoding } = input;
  const named = decodingOf(encoding);
  return named === null || named === encoding ? input : { ...input, encoding: named };
}
