import fs from 'node:fs';
import path from 'node:path';

const SOURCE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.md']);
const MAX_FILE_BYTES = 512 * 1024;

/**
 * A real source tree to read: the first `count` `.js`/`.ts`/`.md` files of the installed
 * packages, in sorted order (so every run reads the same files), copied into a git-ignored
 * folder. Returns the folder and the root-relative paths.
 */
export function prepareSourceTree(projectRoot: string, target: string, count: number): { root: string; files: string[] } {
  const stamp = path.join(target, '.complete');
  if (fs.existsSync(stamp)) {
    const files = fs.readFileSync(stamp, 'utf8').split('\n').filter(Boolean);
    if (files.length === count) return { root: target, files };
  }
  fs.rmSync(target, { recursive: true, force: true });
  const source = path.join(projectRoot, 'node_modules');
  const files: string[] = [];
  walk(source, (file, size) => {
    if (files.length >= count) return false;
    if (size > MAX_FILE_BYTES || !SOURCE_EXTENSIONS.has(path.extname(file))) return true;
    const relative = path.relative(source, file);
    fs.mkdirSync(path.dirname(path.join(target, relative)), { recursive: true });
    fs.copyFileSync(file, path.join(target, relative));
    files.push(relative);
    return true;
  });
  fs.writeFileSync(stamp, files.join('\n'));
  return { root: target, files };
}

function walk(directory: string, visit: (file: string, size: number) => boolean): boolean {
  const entries = fs.readdirSync(directory, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      if (!walk(full, visit)) return false;
    } else if (entry.isFile()) {
      if (!visit(full, fs.statSync(full).size)) return false;
    }
  }
  return true;
}

/**
 * Reads every file once, so that measured reads find them in the page cache. This machine
 * reclaims idle page cache proactively; a first read from disk costs milliseconds and would
 * swamp what a scenario means to compare.
 */
export function warmPageCache(root: string, files: readonly string[]): void {
  for (const file of files) fs.readFileSync(path.join(root, file));
}

/** A log of `lines` numbered lines of about 100 bytes each, written once and reused. */
export function prepareLargeLog(file: string, lines: number): string {
  const expected = logSize(lines);
  if (fs.existsSync(file) && fs.statSync(file).size === expected) return file;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'w');
  try {
    let block: string[] = [];
    for (let i = 1; i <= lines; i++) {
      block.push(logLine(i));
      if (block.length === 10_000 || i === lines) {
        fs.writeSync(fd, `${block.join('\n')}\n`);
        block = [];
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return file;
}

/**
 * A minified script of `bytes` bytes on one line, with no line break at all: what a bundler
 * leaves behind. Mostly ASCII, with a two-byte character now and then, so a cut lands among
 * multi-byte sequences as in real bundles. Written once and reused.
 */
export function prepareSingleLine(file: string, bytes: number): string {
  if (fs.existsSync(file) && fs.statSync(file).size === bytes) return file;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const part = i % 50 === 0 ? `var s${i}="café été";` : `function f${i}(a,b){return a*${i % 97}+b}`;
    parts.push(part);
    length += Buffer.byteLength(part);
  }
  // Cut at a byte count, then drop a split character's lead byte so the file stays valid UTF-8.
  let text = Buffer.from(parts.join('')).subarray(0, bytes);
  while (text.length > 0 && ((text[text.length - 1] ?? 0) & 0xc0) === 0xc0) text = text.subarray(0, -1);
  fs.writeFileSync(file, Buffer.concat([text, Buffer.alloc(bytes - text.length, 0x20)]));
  return file;
}

/** Line `i` of the generated log: 99 characters, so the log is 100 bytes a line. */
export function logLine(i: number): string {
  const head = `${String(i).padStart(8, '0')} INFO request handled path=/api/items/${String(i % 977).padStart(3, '0')}`;
  const tail = ` status=200 duration_ms=${String(i % 311).padStart(3, '0')} user=agent-${String(i % 64).padStart(2, '0')}`;
  return `${head}${tail} ok`.padEnd(99, '.');
}

function logSize(lines: number): number {
  let total = 0;
  for (let i = 1; i <= lines; i++) total += Buffer.byteLength(logLine(i)) + 1;
  return total;
}
