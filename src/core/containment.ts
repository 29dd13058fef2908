import path from 'node:path';

/**
 * Lexical containment by `path.relative`, never by string prefix: `/srv/ws-evil` is not inside
 * `/srv/ws`. Both arguments must be absolute and normalised.
 */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  if (relative === '') return true;
  if (path.isAbsolute(relative)) return false;
  return relative !== '..' && !relative.startsWith(`..${path.sep}`);
}

/** The first root that contains `candidate`, or null. */
export function findRoot(roots: readonly string[], candidate: string): string | null {
  for (const root of roots) {
    if (isInside(root, candidate)) return root;
  }
  return null;
}

const SEP_CODE = path.sep.charCodeAt(0);

/**
 * `findRoot` for a canonical path (absolute, normalised, no trailing separator: what `realpath`
 * and `/proc/self/fd` give) and canonical roots, by prefix up to a separator: for such paths the
 * same verdict as `path.relative`, without its work on every read (`/srv/ws-evil` is not inside
 * `/srv/ws`: the character after the root must be the separator). POSIX only; elsewhere, where
 * file systems may compare without case, `findRoot` decides.
 */
export function findRootOfCanonical(roots: readonly string[], canonical: string): string | null {
  if (path.sep !== '/') return findRoot(roots, canonical);
  for (const root of roots) {
    if (canonical === root || root === '/') return root;
    if (canonical.length > root.length && canonical.charCodeAt(root.length) === SEP_CODE && canonical.startsWith(root)) return root;
  }
  return null;
}

/** `relativeTo` for a canonical path inside a canonical root (see `findRootOfCanonical`). */
export function relativeToCanonical(root: string, canonical: string): string {
  if (path.sep !== '/') return relativeTo(root, canonical);
  if (canonical === root) return '';
  return canonical.slice(root === '/' ? 1 : root.length + 1);
}

/** Root-relative path with forward slashes, for deny rules and messages. */
export function relativeTo(root: string, candidate: string): string {
  const relative = path.relative(root, candidate);
  return path.sep === '/' ? relative : relative.split(path.sep).join('/');
}
