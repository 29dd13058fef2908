/**
 * The roots an MCP session may read: the engine's roots narrowed by the client's. A client's
 * roots never widen what the server was started with; a client root outside every configured
 * root gives nothing.
 */
import fs from '../node-fs.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isInside } from '../core/containment.js';

/** A client root (`file://` URI) as a canonical directory, or null when it cannot be one. */
export function rootPath(uri: string): string | null {
  let candidate: string;
  try {
    candidate = fileURLToPath(uri);
  } catch {
    return null;
  }
  try {
    return fs.realpathSync(candidate);
  } catch {
    // A root that does not exist (yet) is taken as written: it can only narrow.
    return path.resolve(candidate);
  }
}

/**
 * The intersection of the configured roots and the client's: a client root inside a configured
 * one narrows it; a configured root inside a client root stays as it is.
 */
export function narrowRoots(configured: readonly string[], client: readonly string[]): string[] {
  const served = new Set<string>();
  for (const wanted of client) {
    for (const root of configured) {
      if (isInside(root, wanted)) served.add(wanted);
      else if (isInside(wanted, root)) served.add(root);
    }
  }
  return [...served];
}
