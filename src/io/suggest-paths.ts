import fs from 'node:fs';
import path from 'node:path';
import { findRoot, relativeTo } from '../core/containment.js';
import { rankSimilarNames } from '../core/similar-names.js';

/** Entries read from one directory when looking for suggestions; bounds the work. */
const MAX_ENTRIES = 10_000;

/**
 * Root-relative paths similar to a missing `requested` path: looks in the deepest directory on
 * the path that exists inside a root and ranks its entries against the first missing name.
 */
export function suggestPaths(roots: readonly string[], requested: string): string[] {
  let missing = path.basename(requested);
  let directory = path.dirname(requested);
  for (;;) {
    const root = findRoot(roots, directory);
    if (root === null) return [];
    const names = listNames(directory);
    if (names !== null) {
      return rankSimilarNames(missing, names).map((name) => relativeTo(root, path.join(directory, name)));
    }
    if (directory === root) return [];
    missing = path.basename(directory);
    directory = path.dirname(directory);
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
