import fs from 'node:fs';

/** Linux's O_PATH: a handle on an inode that runs no driver's open and never blocks. */
const O_PATH = 0o10000000;
const PROC_FD = '/proc/self/fd/';
const HAS_PROC_FD = process.platform === 'linux' && fs.existsSync(PROC_FD);

/** Where a path leads now, and what is there: the facts a cache hit must match. */
export interface Probe {
  readonly stat: fs.BigIntStats;
  /** The canonical path the requested path resolves to at this moment. */
  readonly canonical: string;
}

/**
 * The main thread's look at a file before any cache answers for it: its version (bigint
 * `fstat`) and where its path leads now (the kernel's own resolution, read back through
 * `/proc/self/fd`). A cache entry only ever comes from a worker's read that passed the sandbox
 * at its canonical path, so an entry whose canonical path and version both match this probe
 * is the same file at the same checked place: a directory moved out of the root and replaced
 * by a link changes the canonical path even when the file's inode and times do not.
 *
 * Null for anything that is not a regular file, or any error: those reads go to a worker,
 * which owns the sandbox's verdicts and its error messages. Off Linux, `realpath` stands in.
 */
export function probeFile(absolute: string): Probe | null {
  if (!HAS_PROC_FD) return probePortable(absolute);
  let fd: number;
  try {
    fd = fs.openSync(absolute, O_PATH);
  } catch {
    return null;
  }
  try {
    const stat = fs.fstatSync(fd, { bigint: true });
    if (!stat.isFile()) return null;
    return { stat, canonical: fs.readlinkSync(`${PROC_FD}${fd}`) };
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

function probePortable(absolute: string): Probe | null {
  try {
    const canonical = fs.realpathSync.native(absolute);
    const stat = fs.statSync(canonical, { bigint: true });
    return stat.isFile() ? { stat, canonical } : null;
  } catch {
    return null;
  }
}
