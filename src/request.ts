import { z } from 'zod';
import { isRenderSpec, type RenderSpec } from './core/line-format.js';
import { MIN_MAX_BYTES, MIN_MAX_TOKENS, type ResolvedOptions } from './options.js';

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

/**
 * A native read request.
 *
 * @example
 * await engine.read({ path: 'src/app.ts', offset: 2001, limit: 2000 });
 */
export type ReadRequest = z.input<typeof schema>;

/** A request after validation, with the engine's defaults and caps applied. */
export interface ParsedRequest {
  readonly path: string;
  /** 1-based line; negative counts from the end (-1 is the last line). */
  readonly offset: number;
  readonly limit: number;
  /** 1-based character of line `offset` to start at (a column read, one line), or 0 for whole lines. */
  readonly column: number;
  readonly session: string | null;
  /** Skip the unchanged-file stub: the caller needs the content again. */
  readonly fresh: boolean;
  readonly allowBinary: boolean;
  /**
   * False reads every file as a plain file: text, or base64 with `allowBinary`, never as an
   * image, PDF or notebook (by name or by content), for dialects whose tool reads bytes only.
   */
  readonly media: boolean;
  readonly sha256: boolean;
  readonly maxBytes: number;
  readonly maxTokens: number;
  readonly timeoutMs: number;
  /** PDF page range; null for none. */
  readonly pages: string | null;
  /** What the model takes: images, PDF documents. */
  readonly images: boolean;
  readonly pdf: boolean;
  /** A dialect's line render, or null for the native one. */
  readonly render: RenderSpec | null;
  /** Narrower roots for this read (an MCP client's roots), canonical; null for the engine's. */
  readonly within: readonly string[] | null;
}

export type ParseOutcome = { ok: true; request: ParsedRequest } | { ok: false; issues: string[] };

/** Validates a request; budgets may be lowered by a request but never raised past the engine's. */
export function parseRequest(input: unknown, options: ResolvedOptions): ParseOutcome {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      issues: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'request'}: ${issue.message}`),
    };
  }
  const request = parsed.data;
  return {
    ok: true,
    request: {
      path: request.path,
      offset: request.offset ?? 1,
      limit: request.column === undefined ? (request.limit ?? options.defaultLimit) : 1,
      column: request.column ?? 0,
      session: request.session ?? null,
      fresh: request.fresh ?? false,
      allowBinary: request.allowBinary ?? false,
      media: request.media ?? true,
      sha256: request.hash === 'sha256',
      maxBytes: Math.min(request.maxBytes ?? options.maxBytes, options.maxBytes),
      maxTokens: Math.min(request.maxTokens ?? options.maxTokens, options.maxTokens),
      timeoutMs: Math.min(request.timeoutMs ?? options.timeoutMs, options.timeoutMs),
      pages: request.pages ?? null,
      images: request.accept?.images ?? true,
      pdf: request.accept?.pdf ?? true,
      render: request.render ?? null,
      within: request.within ?? null,
    },
  };
}
