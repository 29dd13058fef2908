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

/** Root-relative path with forward slashes, for deny rules and messages. */
export function relativeTo(root: string, candidate: string): string {
  const relative = path.relative(root, candidate);
  return path.sep === '/' ? relative : relative.split(path.sep).join('/');
}
