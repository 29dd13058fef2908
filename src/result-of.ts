/**
 * Results as callers receive them, built once from a worker's payload (and shared, frozen, by
 * every caller the caches serve), with the notes a model needs; and what the caches and the
 * session state keep of them.
 */
import { describeImage, describeImageAsText, describePdf, describeWindow } from './dialects/readpool-notices.js';
import type { ReadMark } from './cache/sessions.js';
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

export function markOf(result: Exclude<ReadResult, UnchangedResult>, settled: boolean): ReadMark {
  const text = result.kind === 'text' || result.kind === 'notebook';
  return {
    path: result.path,
    relativePath: result.relativePath,
    readAt: Date.now(),
    version: result.version,
    size: result.size,
    xxh64: result.xxh64,
    sha256: result.sha256,
    startLine: text ? result.startLine : 1,
    endLine: text ? result.endLine : 0,
    totalLines: text ? result.totalLines : null,
    complete: !text || (result.cutLines === 0 && (result.truncated === false || result.truncated.reason === 'lines')),
    settled,
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
  });
  // Built field by field: object rest/spread is measurably slow on this hot path. Frozen,
  // because the result cache hands the same object to every caller.
  return Object.freeze({
    kind: 'text',
    path: payload.path,
    relativePath: payload.relativePath,
    content: payload.content,
    startLine: payload.startLine,
    endLine: payload.endLine,
    totalLines: payload.totalLines,
    finalBreak: payload.finalBreak,
    truncated: truncationOf(payload),
    notice,
    cutLines: payload.cutLines,
    firstCutLine: payload.firstCutLine,
    column: payload.column,
    encoding: payload.encoding,
    bom: payload.bom,
    lineEnding: payload.lineEnding,
    size: payload.size,
    mtimeMs: payload.mtimeMs,
    version: payload.version,
    xxh64: payload.xxh64,
    sha256: payload.sha256,
  });
}

