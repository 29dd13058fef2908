import fs from './node-fs.js';
import { fileURLToPath } from 'node:url';

/** Worker entries replaced by `substituteWorkerEntry`, by worker name. */
const substitutes = new Map<string, string>();

/**
 * @internal Fault injection for tests only: pools started from now on run `file` (a plain
 * JavaScript module, typically wrapping the built entry) as the `name` worker; null restores
 * the built one. Lets a test make real workers fail at start-up, exit mid-task or run out of heap.
 */
export function substituteWorkerEntry(name: 'text-worker' | 'media-worker' | 'stat-worker', file: string | null): void {
  if (file === null) substitutes.delete(name);
  else substitutes.set(name, file);
}

/** @internal A test stands in for the `name` worker's entry (see `substituteWorkerEntry`). */
export function isSubstituted(name: string): boolean {
  return substitutes.has(name);
}

/**
 * The compiled worker entry. From the build (`dist/src`: ES modules, or the command's CommonJS
 * chunks) it sits beside us; when the engine runs from its TypeScript sources (the test
 * runner), workers still run the build, because worker threads cannot load TypeScript on Node
 * 20. The bundled CommonJS entry (`NAME.cjs`, see rolldown.config.ts) where the build made one,
 * else tsc's module.
 */
export function workerFile(name: string): string {
  const substitute = substitutes.get(name);
  if (substitute !== undefined) return substitute;
  const folder = new URL(import.meta.url.endsWith('.ts') ? '../dist/workers/' : '../workers/', import.meta.url);
  const bundled = fileURLToPath(new URL(`${name}.cjs`, folder));
  if (fs.existsSync(bundled)) return bundled;
  const file = fileURLToPath(new URL(`${name}.js`, folder));
  if (!fs.existsSync(file)) {
    throw new Error(`readpool worker ${name} is not built (${name}.js missing): run "npm run build" first`);
  }
  return file;
}
