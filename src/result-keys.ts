/**
 * The strings caches are keyed by: a file's version, the range a request asks for (what an
 * unchanged-file stub stands for), and everything that shapes a result besides the file.
 */
import type fs from 'node:fs';
import type { RenderSpec } from './core/line-format.js';
import type { ParsedRequest } from './request.js';

/** `dev:ino:size:mtimeNs:ctimeNs`: changes whenever the file may have changed. */
export function versionKey(stat: fs.BigIntStats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

/** The lines (and pages, and forms) a request asks for: what an unchanged-file stub stands for. */
export function rangeOf(req: ParsedRequest): string {
  return `${req.offset}:${req.limit}:${req.column}:${renderKey(req.render)}:${req.pages ?? ''}:${req.images ? 1 : 0}${req.pdf ? 1 : 0}${req.media ? 1 : 0}`;
}

/** Everything that shapes a result besides the file: the result cache's key with the version. */
export function shapeOf(req: ParsedRequest, range: string): string {
  return `${range}:${req.maxBytes}:${req.maxTokens}:${req.allowBinary ? 1 : 0}${req.sha256 ? 1 : 0}`;
}

/** Render specs by identity: a dialect passes the same constant object with every read. */
const renderKeys = new WeakMap<RenderSpec, string>();

function renderKey(render: RenderSpec | null): string {
  if (render === null) return '';
  let key = renderKeys.get(render);
  if (key === undefined) {
    key = JSON.stringify([render.format, render.cutMarker, render.cut ?? 'lines']);
    renderKeys.set(render, key);
  }
  return key;
}

/**
 * True when the version's ctime is at least `settleMs` older than `startedAt`: any later write
 * then gets a later ctime, so an equal version means equal content. (Git's "racily clean"
 * problem: two writes within one coarse timestamp tick can leave equal versions.)
 */
export function isSettled(version: string, startedAt: number, settleMs: number): boolean {
  if (settleMs === 0) return true;
  const ctimeNs = version.slice(version.lastIndexOf(':') + 1);
  return Number(ctimeNs) / 1e6 <= startedAt - settleMs;
}
