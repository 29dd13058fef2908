import fs from 'node:fs';

/**
 * The file's bigint stat when the path leads to a regular file, else null (missing, a link
 * loop, a FIFO, any error): those reads go to a worker, which owns the sandbox's verdicts and
 * their messages. Its version (`dev:ino:size:mtimeNs:ctimeNs`) keys the caches.
 */
export function statFile(absolute: string): fs.BigIntStats | null {
  try {
    const stat = fs.statSync(absolute, { bigint: true, throwIfNoEntry: false });
    return stat?.isFile() === true ? stat : null;
  } catch {
    return null;
  }
}
