/**
 * Results as callers receive them, built once from a worker's payload (and shared, frozen, by
 * every caller the caches serve), with the notes a model needs; and what the caches and the
 * session state keep of them.
 */
import { describeImage, describeImageAsText, describePdf, describeWindow } from './dialects/readpool-notices.js';
import type { ReadFacts } from './cache/sessions.js';
import type { ServedImage } from './media/image.js';
import type { MediaPayload } from './media/wire.js';
import type { ResolvedOptions } from './options.js';
import type { ParsedRequest } from './request.js';
import type { ImagePart, ReadResult, TextResult, UnchangedResult } from './result.js';
import type { FilePayload, TextPayload } from './wire.js';

/** Bytes a cached result holds: its strings (two bytes a character at most) and the object. */
export function resultBytes(result: ReadResult): number {
  let body = 0;
  switch (result.kind) {
    case 'binary':
    case 'image':
      body = result.data.length;
      break;
    case 'text':
      body = result.content.length * 2 + (result.notice?.length ?? 0) * 2;
      break;
    case 'notebook':
      body = result.content.length * 2 + result.images.reduce((n, image) => n + image.data.length, 0);
      break;
    case 'pdf':
      body = (result.data?.length ?? 0) + (result.text?.length ?? 0) * 2 + result.images.reduce((n, image) => n + image.data.length, 0);
      break;
    case 'description':
      body = result.text.length * 2;
      break;
    case 'unchanged':
      body = result.stub.length * 2;
      break;
  }
  return 512 + body + result.path.length * 4;
}

function imagePart(image: ServedImage): ImagePart {
  return { mimeType: image.mimeType, data: image.data, bytes: image.bytes, width: image.width, height: image.height };
}

/** The result of a media read, with the notes a model needs to use it. */
export function mediaResult(payload: MediaPayload, request: ParsedRequest, options: ResolvedOptions): ReadResult {
  const base = {
    path: payload.path,
    relativePath: payload.relativePath,
    size: payload.size,
    mtimeMs: payload.mtimeMs,
    version: payload.version,
    xxh64: null,
    sha256: null,
  };
  switch (payload.kind) {
    case 'image': {
      const { image } = payload;
      return {
        kind: 'image',
        ...base,
        ...imagePart(image),
        originalWidth: image.originalWidth,
        originalHeight: image.originalHeight,
        originalBytes: image.originalBytes,
        repaired: image.repaired,
        note: describeImage(image),
      };
    }
    case 'image-info':
      return { kind: 'description', ...base, text: describeImageAsText(payload.relativePath, payload.format, payload.width, payload.height, payload.size) };
    case 'pdf': {
      const served = payload.served;
      const first = served.form === 'document' ? 1 : served.first;
      const last = served.form === 'document' ? served.pageCount : served.last;
      return {
        kind: 'pdf',
        ...base,
        pageCount: served.pageCount,
        form: served.form,
        pages: served.form === 'document' ? null : { first, last },
        data: served.form === 'document' ? served.data : null,
        images: served.form === 'images' ? served.images : [],
        text: served.form === 'text' ? served.text.map((page) => `--- page ${page.page} ---\n${page.text}`).join('\n') : null,
        note: describePdf(served.form, served.pageCount, first, last, served.form === 'text' ? served.omittedChars : 0),
      };
    }
    case 'notebook':
      return {
        kind: 'notebook',
        ...base,
        content: payload.content,
        startLine: payload.startLine,
        endLine: payload.endLine,
        totalLines: payload.totalLines,
        truncated: payload.stop === null ? false : Object.freeze({ reason: payload.stop, nextOffset: payload.endLine + 1 }),
        notice: describeWindow(payload, { limit: request.limit, maxBytes: request.maxBytes, maxTokens: request.maxTokens, maxLineChars: options.maxLineChars }),
        cutLines: payload.cutLines,
        firstCutLine: payload.firstCutLine,
        cells: payload.cells,
        images: payload.images.map(imagePart),
      };
  }
}

export function factsOf(result: Exclude<ReadResult, UnchangedResult>): ReadFacts {
  const text = result.kind === 'text' || result.kind === 'notebook';
  return {
    path: result.path,
    relativePath: result.relativePath,
    size: result.size,
    xxh64: result.xxh64,
    sha256: result.sha256,
    startLine: text ? result.startLine : 1,
    endLine: text ? result.endLine : 0,
    totalLines: text ? result.totalLines : null,
    complete: !text || (result.cutLines === 0 && (result.truncated === false || result.truncated.reason === 'lines')),
  };
}

/** Where the next page starts: along the same line for a column read that stopped inside it. */
function truncationOf(payload: TextPayload): TextResult['truncated'] {
  const { column } = payload;
  if (column?.more === true) return Object.freeze({ reason: 'line-length', nextOffset: payload.startLine, nextColumn: column.last + 1 });
  return payload.stop === null ? false : Object.freeze({ reason: payload.stop, nextOffset: payload.endLine + 1 });
}

/** The result of any worker payload, frozen: the caches hand the same object to every caller. */
export function resultOf(payload: FilePayload | MediaPayload, request: ParsedRequest, options: ResolvedOptions): ReadResult {
  if (payload.kind === 'binary') return Object.freeze(payload);
  if (payload.kind === 'text') return textResult(payload, request, options);
  return Object.freeze(mediaResult(payload, request, options));
}

export function textResult(payload: TextPayload, request: ParsedRequest, options: ResolvedOptions): TextResult {
  const notice = describeWindow(payload, {
    limit: request.limit,
    maxBytes: request.maxBytes,
    maxTokens: request.maxTokens,
    maxLineChars: options.maxLineChars,
    encoding: request.encoding,
  });
  // Frozen, because the result cache hands the same object to every caller.
  return Object.freeze(new TextResultRecord(payload, notice, truncationOf(payload)));
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A text result, made by `new` rather than as an object literal, field by field (object
 * rest/spread is measurably slow on this hot path). Its prototype is `Object.prototype`, so what
 * it makes is a plain object like any literal: same fields in the same order, same prototype,
 * `constructor === Object`.
 *
 * Why not a literal: V8 moves an object literal's allocation site to the old generation once
 * most of the objects it made outlived a young collection, as results do while a result cache
 * holds them. From then on every text result is made old, and one its caller drops at once still
 * holds its content through each young collection until the next full one. In the source-tree
 * bench (a caching engine's pass, then an engine without a cache, in one process) that took the
 * host's young collections from about 2 ms to 4, and a miss from about 12 µs of host CPU to 14
 * to 26.
 * V8 keeps no such site for objects made by `new`: a result stays young until it proves to live.
 */
const TextResultRecord = function (this: Writable<TextResult>, payload: TextPayload, notice: string | null, truncated: TextResult['truncated']) {
  this.kind = 'text';
  this.path = payload.path;
  this.relativePath = payload.relativePath;
  this.content = payload.content;
  this.startLine = payload.startLine;
  this.endLine = payload.endLine;
  this.totalLines = payload.totalLines;
  this.finalBreak = payload.finalBreak;
  this.truncated = truncated;
  this.notice = notice;
  this.cutLines = payload.cutLines;
  this.firstCutLine = payload.firstCutLine;
  this.column = payload.column;
  this.encoding = payload.encoding;
  this.invalidUtf8 = payload.invalidUtf8;
  this.bom = payload.bom;
  this.lineEnding = payload.lineEnding;
  this.size = payload.size;
  this.mtimeMs = payload.mtimeMs;
  this.version = payload.version;
  this.xxh64 = payload.xxh64;
  this.sha256 = payload.sha256;
} as unknown as new (payload: TextPayload, notice: string | null, truncated: TextResult['truncated']) => TextResult;
TextResultRecord.prototype = Object.prototype;
