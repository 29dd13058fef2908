/**
 * The directories a tool call may read within: the call's own roots (an MCP client's, narrower
 * than the engine's) or else the engine's. Paths are resolved against them, tested for
 * containment and shown relative to them here, the same way for every dialect.
 */
import path from 'node:path';
import { findRoot, relativeTo } from '../core/containment.js';
import type { Engine } from '../engine.js';
import type { ToolContext } from './tool.js';

/** The roots a call reads within: its context's, or the engine's. */
export function rootsOf(engine: Pick<Engine, 'roots'>, context: ToolContext): readonly string[] {
  return context.roots ?? engine.roots;
}

/** A path as the caller gave it, made absolute against the first root (`/` with none). */
export function resolveInRoots(roots: readonly string[], requested: string): string {
  return path.resolve(roots[0] ?? '/', requested);
}

/** `absolute` relative to the root that holds it, with `/` separators; itself when in none. */
export function relativeToRoots(roots: readonly string[], absolute: string): string {
  const root = findRoot(roots, absolute);
  if (root === null) return absolute;
  return relativeTo(root, absolute) || '.';
}

/** True when `candidate` lies inside one of `roots` (lexically; the engine checks links). */
export function isInsideRoots(roots: readonly string[], candidate: string): boolean {
  return findRoot(roots, path.resolve(candidate)) !== null;
}
