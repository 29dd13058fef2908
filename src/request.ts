import { isRenderSpec, type RenderSpec } from './core/line-format.js';
import { isDecoding, type Decoding } from './core/sniff.js';
import { MIN_MAX_BYTES, MIN_MAX_TOKENS, type ResolvedOptions } from './options.js';

/**
 * A native read request.
 *
 * @example
 * await engine.read({ path: 'src/app.ts', offset: 2001, limit: 2000 });
 */
export interface ReadRequest {
  path: string;
  /** 1-based line; negative counts from the end (-1 is the last line); never 0. */
  offset?: number | undefined;
  limit?: number | undefined;
  /** 1-based character of line `offset` to start at; needs a positive offset. */
  column?: number | undefined;
  session?: string | undefined;
  fresh?: boolean | undefined;
  allowBinary?: boolean | undefined;
  media?: boolean | undefined;
  hash?: 'sha256' | undefined;
  /**
   * How a file without a byte-order mark is decoded: `auto` (default) as UTF-8, or as the legacy
   * encoding recognised when it is not UTF-8; `utf-8` always; or a legacy encoding by name. At
   * run time a WHATWG label of one of these (`GBK`, `latin1`, `UTF-8`...) is taken as its name
   * (see `decodingOf`): a caller from JSON may send one.
   */
  encoding?: Decoding | undefined;
  maxBytes?: number | undefined;
  maxTokens?: number | undefined;
  timeoutMs?: number | undefined;
  /** PDF pages, like "3" or "1-5". */
  pages?: string | undefined;
  accept?: { images?: boolean | undefined; pdf?: boolean | undefined } | undefined;
  within?: string[] | undefined;
  /** Kept as the caller's own object (not cloned), so a dialect's constant spec keys caches cheaply. */
  render?: RenderSpec | undefined;
}

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
  readonly encoding: Decoding;
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

const PAGES = /^\s*\d+\s*(-\s*\d+\s*)?$/;

const isWhole = (value: unknown, min: number): boolean => value === undefined || (Number.isSafeInteger(value) && (value as number) >= min);
const isFlag = (value: unknown): boolean => value === undefined || typeof value === 'boolean';

/**
 * The request with its defaults, or null when it is not plainly valid. The common request is
 * checked here by hand, on every read, in well under a microsecond; anything this check does
 * not accept (an unknown key, a wrong type, a value out of range, an `accept` object) is left to
 * the zod schema in `request-schema.ts`, loaded on first need, which accepts or words the issues.
 * So the schema stays the one definition of what is valid; this only recognises a subset of it.
 */
export function parseFast(input: unknown, options: ResolvedOptions): ParsedRequest | null {
  if (typeof input !== 'object' || input === null) return null;
  const proto: unknown = Object.getPrototypeOf(input);
  if (proto !== Object.prototype && proto !== null) return null;
  const r = input as Record<string, unknown>;
  for (const key in r) if (!KNOWN.has(key)) return null;
  if (typeof r.path !== 'string') return null;
  const offset = r.offset;
  if (offset !== undefined && (!Number.isSafeInteger(offset) || offset === 0)) return null;
  if (!isWhole(r.limit, 1) || !isWhole(r.column, 1) || !isWhole(r.timeoutMs, 1)) return null;
  if (!isWhole(r.maxBytes, MIN_MAX_BYTES) || !isWhole(r.maxTokens, MIN_MAX_TOKENS)) return null;
  if (!isFlag(r.fresh) || !isFlag(r.allowBinary) || !isFlag(r.media)) return null;
  const session = r.session;
  if (session !== undefined && (typeof session !== 'string' || session.length < 1 || session.length > 256)) return null;
  if (r.hash !== undefined && r.hash !== 'sha256') return null;
  if (r.encoding !== undefined && !isDecoding(r.encoding)) return null;
  if (r.pages !== undefined && (typeof r.pages !== 'string' || !PAGES.test(r.pages))) return null;
  if (r.accept !== undefined || (r.render !== undefined && !isRenderSpec(r.render))) return null;
  const within = r.within;
  if (within !== undefined && (!Array.isArray(within) || within.length > 256 || !within.every((root) => typeof root === 'string' && root.length > 0))) {
    return null;
  }
  if (r.column !== undefined && ((offset as number | undefined) ?? 1) <= 0) return null;
  return withDefaults(input as ReadRequest, options);
}

const KNOWN = new Set([
  'path', 'offset', 'limit', 'column', 'session', 'fresh', 'allowBinary', 'media', 'hash', 'encoding',
  'maxBytes', 'maxTokens', 'timeoutMs', 'pages', 'accept', 'within', 'render',
]);

/** Applies the engine's defaults; budgets may be lowered by a request but never raised past the engine's. */
export function withDefaults(request: ReadRequest, options: ResolvedOptions): ParsedRequest {
  return {
    path: request.path,
    offset: request.offset ?? 1,
    limit: request.column === undefined ? (request.limit ?? options.defaultLimit) : 1,
    column: request.column ?? 0,
    session: request.session ?? null,
    fresh: request.fresh ?? false,
    allowBinary: request.allowBinary ?? false,
    media: request.media ?? true,
    sha256: request.hash === 'sha256',
    encoding: request.encoding ?? 'auto',
    maxBytes: Math.min(request.maxBytes ?? options.maxBytes, options.maxBytes),
    maxTokens: Math.min(request.maxTokens ?? options.maxTokens, options.maxTokens),
    timeoutMs: Math.min(request.timeoutMs ?? options.timeoutMs, options.timeoutMs),
    pages: request.pages ?? null,
    images: request.accept?.images ?? true,
    pdf: request.accept?.pdf ?? true,
    render: request.render ?? null,
    within: request.within === undefined ? null : [...request.within],
  };
}

/** Validates a request `parseFast` left to the schema (loaded on first need). */
export async function parseWithSchema(input: unknown, options: ResolvedOptions): Promise<ParseOutcome> {
  const { parseWithSchema: parse } = await import('./request-schema.js');
  const parsed = parse(input);
  return parsed.ok ? { ok: true, request: withDefaults(parsed.request, options) } : parsed;
}
