import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh directory under the system temp dir, canonicalised so it compares equal to engine paths. */
export function makeTempDir(): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'readpool-')));
}

export function removeTempDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Writes `content` at `root/relative`, creating parent directories; returns the absolute path. */
export function writeFile(root: string, relative: string, content: string | Uint8Array): string {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

/**
 * A fresh temp dir `base` holding an empty workspace `base/root`: the root a suite's engine is
 * confined to, with `base` left for files that must lie outside it.
 */
export function makeWorkspace(): { base: string; root: string } {
  const base = makeTempDir();
  const root = path.join(base, 'root');
  fs.mkdirSync(root);
  return { base, root };
}
