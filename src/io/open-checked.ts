import type { Stats } from 'node:fs';
import fs from '../node-fs.js';
import { findRootOfCanonical, relativeToCanonical } from '../core/containment.js';
import type { ReaderContext } from './reader-context.js';
import { Refusal, errnoCode, systemRefusal, type FileType } from './refusal.js';
import { suggestPaths } from './suggest-paths.js';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = fs.constants;
/** O_NONBLOCK: opening a FIFO with no writer returns at once instead of hanging the worker. */
const READ_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
/** Reopening through `/proc/self/fd/N` must follow that magic link, which names the same inode. */
const REOPEN_FLAGS = O_RDONLY | O_NONBLOCK | O_NOCTTY;

/** Kernel file systems whose "files" can block, never end, or leak process state. */
const PSEUDO_ROOTS = ['/proc/', '/sys/', '/dev/'];

export interface OpenedFile {
  readonly fd: number;
  /**
   * A plain stat, the one the host makes for a cache hit: the version is written from it by the
   * same function on both threads (`versionKey`).
   */
  readonly stat: Stats;
  /** Canonical path of the descriptor, checked to be inside a root. */
  readonly path: string;
  readonly relativePath: string;
}

/** Linux's O_PATH: a descriptor that names an inode without opening it for I/O. */
const O_PATH = 0o10000000;
const PROC_FD = '/proc/self/fd/';
const HAS_PROC_FD = process.platform === 'linux' && fs.existsSync(PROC_FD);

/**
 * Opens `requested` for reading the way the sandbox requires, or throws a `Refusal`. The
 * caller reads through the returned descriptor only, and must close it.
 *
 * On Linux: take an O_PATH|O_NOFOLLOW handle on the path (this runs no device driver's open
 * and never blocks on a FIFO), `fstat` it, ask `/proc/self/fd` where it really is (intermediate
 * symbolic links resolved by the kernel), check that place against the roots and the deny
 * rules, and only then reopen that same inode for reading through the handle. There is no
 * window between check and open for a swapped link to slip through, and it costs fewer system
 * calls than `realpath` on deep paths. A final-component link is resolved with `realpath` and
 * the steps are repeated on its target. Elsewhere: `realpath`, check, open with O_NOFOLLOW,
 * then confirm the descriptor's dev/ino still match the checked path.
 */
export function openChecked(context: ReaderContext, requested: string, strategy: OpenStrategy = DEFAULT_STRATEGY): OpenedFile {
  return strategy === 'handle' ? openThroughHandle(context, requested) : openThroughRealpath(context, requested);
}

/**
 * `handle`: the Linux path above. `realpath`: the portable one, best-effort only: a parent
 * directory swapped for a link between `realpath` and `open` is caught only by the dev/ino
 * check, and Node offers no `openat` to close that window fully. Exported so that tests run
 * every sandbox case through both.
 */
export type OpenStrategy = 'handle' | 'realpath';

export const DEFAULT_STRATEGY: OpenStrategy = HAS_PROC_FD ? 'handle' : 'realpath';

function openThroughHandle(context: ReaderContext, requested: string): OpenedFile {
  let handle = openOrRefuse(context, requested, requested, O_PATH | O_NOFOLLOW);
  try {
    let stat = fs.fstatSync(handle);
    if (stat.isSymbolicLink()) {
      fs.closeSync(handle);
      handle = -1;
      const target = realpathOrRefuse(context, requested);
      checkPlace(context, target);
      handle = openOrRefuse(context, target, requested, O_PATH | O_NOFOLLOW);
      stat = fs.fstatSync(handle);
      if (stat.isSymbolicLink()) throw new Refusal('changed_during_read', { stage: 'open' });
    }
    const actual = fs.readlinkSync(`${PROC_FD}${handle}`);
    const relativePath = checkPlace(context, actual);
    checkKind(stat);
    let fd: number;
    try {
      fd = fs.openSync(`${PROC_FD}${handle}`, REOPEN_FLAGS);
    } catch (error) {
      throw systemRefusal(error);
    }
    return { fd, stat, path: actual, relativePath };
  } finally {
    if (handle >= 0) fs.closeSync(handle);
  }
}

function openThroughRealpath(context: ReaderContext, requested: string): OpenedFile {
  const canonical = realpathOrRefuse(context, requested);
  const relativePath = checkPlace(context, canonical);
  // ELOOP here means the last component became a link after it was resolved: a race.
  const fd = openOrRefuse(context, canonical, requested, READ_FLAGS);
  try {
    const stat = fs.fstatSync(fd);
    checkKind(stat);
    const again = fs.statSync(canonical);
    if (again.dev !== stat.dev || again.ino !== stat.ino) throw new Refusal('changed_during_read', { stage: 'open' });
    return { fd, stat, path: canonical, relativePath };
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/** The root-relative path of a canonical path, or a refusal: outside, denied, pseudo-file. */
function checkPlace(context: ReaderContext, canonical: string): string {
  const root = findRootOfCanonical(context.roots, canonical);
  if (root === null) throw new Refusal('outside_root', { throughLink: true });
  const relativePath = relativeToCanonical(root, canonical);
  const rule = context.deny(relativePath);
  if (rule !== null) throw new Refusal('denied', { rule });
  if (PSEUDO_ROOTS.some((prefix) => canonical.startsWith(prefix))) {
    throw new Refusal('not_regular_file', { type: 'pseudo-file' satisfies FileType });
  }
  return relativePath;
}

function checkKind(stat: Stats): void {
  if (stat.isDirectory()) throw new Refusal('is_directory');
  if (!stat.isFile()) throw new Refusal('not_regular_file', { type: fileType(stat) });
}

function realpathOrRefuse(context: ReaderContext, requested: string): string {
  try {
    return fs.realpathSync.native(requested);
  } catch (error) {
    throw refusalForErrno(error, context, requested);
  }
}

function openOrRefuse(context: ReaderContext, target: string, requested: string, flags: number): number {
  try {
    return fs.openSync(target, flags);
  } catch (error) {
    if (errnoCode(error) === 'ELOOP' && target !== requested) throw new Refusal('changed_during_read', { stage: 'open' });
    throw refusalForErrno(error, context, requested);
  }
}

function fileType(stat: Stats): FileType {
  if (stat.isFIFO()) return 'fifo';
  if (stat.isSocket()) return 'socket';
  if (stat.isCharacterDevice()) return 'character-device';
  if (stat.isBlockDevice()) return 'block-device';
  return 'special';
}

/** Maps a failed path lookup or open: a missing file gets suggestions, the rest `systemRefusal`. */
function refusalForErrno(error: unknown, context: ReaderContext, requested: string): Refusal {
  const code = errnoCode(error);
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return new Refusal('not_found', { suggestions: suggestPaths(context.roots, context.deny, requested) });
  }
  return systemRefusal(error);
}
