/**
 * Paths as the MCP filesystem server resolves them against its allowed directories (the call's
 * roots, an MCP client's, or the engine's), and its failures worded with those directories.
 */
import path from 'node:path';
import type { ReadError } from '../errors.js';
import { describeFailure } from './mcp-filesystem-failures.js';
import { isInsideRoots } from './roots.js';

/** A path as the server resolves it: relative ones against the first allowed directory that holds them. */
export function absoluteOf(requested: string, allowed: readonly string[]): string {
  if (path.isAbsolute(requested)) return path.resolve(requested);
  const base = allowed.find((root) => isInsideRoots([root], path.resolve(root, requested))) ?? allowed[0] ?? process.cwd();
  return path.resolve(base, requested);
}

/** A `ReadError` for `requested` in the server's words. */
export function failureText(error: ReadError, requested: string, allowed: readonly string[]): string {
  return describeFailure(error, absoluteOf(requested, allowed), allowed);
}
