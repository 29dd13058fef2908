import fs from 'node:fs';

/** Linux's O_PATH: a handle on an inode that runs no driver's open and never blocks. */
const O_PATH = 0o10000000;
const PROC_FD = '/proc/self/fd/';
const HAS_PROC_FD = process.platform === 'linux' && fs.existsSync(PROC_FD);

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

/**
 * The canonical place `absolute` leads to now, as the kernel resolves it (read back through
 * `/proc/self/fd` from an O_PATH handle; `realpath` off Linux), or null.
 *
 * A cache entry only ever comes from a worker's read that passed the sandbox at its canonical
 * place; an entry is served only while the requested path still leads there. A directory moved
 * out of the root and replaced by a link changes the place even though the file's inode and
 * times, and so its version, stay the same. Asked only when a cache could answer: it costs
 * about twice a stat.
 */
export function canonicalPlace(absolute: string): string | null {
  if (!HAS_PROC_FD) {
    try {
      return fs.realpathSync.native(absolute);
    } catch {
      return null;
    }
  }
  let fd: number;
  try {
    fd = fs.openSync(absolute, O_PATH);
  } catch {
    return null;
  }
  try {
    return fs.readlinkSync(`${PROC_FD}${fd}`);
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}
