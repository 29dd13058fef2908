import fs from 'node:fs';
import path from 'node:path';
import { findRoot, relativeTo } from '../core/containment.js';
import type { DenyMatcher } from '../core/deny-rules.js';
import { rankSimilarNames } from '../core/similar-names.js';

/** Entries read from one directory when looking for suggestions; bounds the work. */
const MAX_ENTRIES = 10_000;

/**
 * Root-relative paths similar to a missing `requested` path: looks in the deepest directory on
 * the path that exists inside a root and ranks its entries against the first missing name.
 * The directory is judged by its real path (a linked directory that leads outside the roots
 * offers nothing), and names the deny rules refuse, or the missing name itself, are never
 * offered: a suggestion must be a call that can succeed.
 */
export function suggestPaths(roots: readonly string[], deny: DenyMatcher, requested: string): string[] {
  let missing = path.basename(requested);
  let directory = path.dirname(requested);
  for (;;) {
    if (findRoot(roots, directory) === null) return [];
    const real = realDirectory(directory);
    const root = real === null ? null : findRoot(roots, real);
    if (real !== null && root === null) return [];
    const names = real === null ? null : listNames(real);
    if (names !== null && root !== null && real !== null) {
      const candidates = names.filter((name) => name !== missing && deny(relativeTo(root, path.join(real, name))) === null);
      return rankSimilarNames(missing, candidates).map((name) => relativeTo(root, path.join(real, name)));
    }
    if (roots.includes(directory)) return [];
    missing = path.basename(directory);
    directory = path.dirname(directory);
  }
}

function realDirectory(directory: string): string | null {
  try {
    return fs.realpathSync.native(directory);
  } catch {
    return null;
  }
}

function listNames(directory: string): string[] | null {
  let dir: fs.Dir;
  try {
    dir = fs.opendirSync(directory);
  } catch {
    return null;
  }
  const names: string[] = [];
  try {
    for (let entry = dir.readSync(); entry !== null && names.length < MAX_ENTRIES; entry = dir.readSync()) {
      names.push(entry.name);
    }
  } finally {
    dir.closeSync();
  }
  return names;
}
