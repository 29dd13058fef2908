import type { Dir } from 'node:fs';
import fs from '../node-fs.js';
import path from 'node:path';
import { findRoot, relativeTo } from '../core/containment.js';
import type { DenyMatcher } from '../core/deny-matcher.js';
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
  const slashed = withSlashes(roots, requested);
  if (slashed !== null) return isReadablePlace(roots, deny, slashed.path) ? [slashed.relative] : suggestPaths(roots, deny, slashed.path);
  let missing = path.basename(requested);
  let directory = path.dirname(requested);
  for (;;) {
    const root = findRoot(roots, directory);
    if (root === null) return [];
    const real = realDirectory(directory);
    const names = real === null ? null : listNames(real);
    if (real !== null && names !== null) {
      // A directory whose real place is outside the roots offers nothing.
      if (findRoot(roots, real) === null) return [];
      const ranked = rankSimilarNames(missing, names.filter((name) => name !== missing), 8);
      // Each offer is the path as the caller would send it, and only if reading it could work.
      return ranked
        .filter((name) => isReadablePlace(roots, deny, path.join(real, name)))
        .slice(0, 3)
        .map((name) => relativeTo(root, path.join(directory, name)));
    }
    if (directory === root) return [];
    missing = path.basename(directory);
    directory = path.dirname(directory);
  }
}

/**
 * A missing path written with Windows separators inside a root (`src\engine.ts`, as models used
 * to Windows paths send), with `/` instead, absolute and relative to its root; null where `\` is
 * no separator (Windows), where the path has none, or where its `..`s leave the roots. A name may
 * hold a backslash on POSIX, but this path named no file.
 */
function withSlashes(roots: readonly string[], requested: string): { readonly path: string; readonly relative: string } | null {
  if (path.sep !== '/' || !requested.includes('\\')) return null;
  const root = findRoot(roots, requested);
  const inside = root === null ? '' : relativeTo(root, requested);
  if (root === null || !inside.includes('\\')) return null;
  const slashed = path.join(root, inside.replaceAll('\\', '/'));
  const home = findRoot(roots, slashed);
  return home === null ? null : { path: slashed, relative: relativeTo(home, slashed) };
}

/** The entry's real place is inside a root and no deny rule refuses it. */
function isReadablePlace(roots: readonly string[], deny: DenyMatcher, entry: string): boolean {
  let real: string;
  try {
    real = fs.realpathSync.native(entry);
  } catch {
    return false;
  }
  const root = findRoot(roots, real);
  return root !== null && deny(relativeTo(root, real)) === null;
}

function realDirectory(directory: string): string | null {
  try {
    return fs.realpathSync.native(directory);
  } catch {
    return null;
  }
}

function listNames(directory: string): string[] | null {
  let dir: Dir;
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
