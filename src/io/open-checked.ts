import fs from 'node:fs';
import { findRoot, relativeTo } from '../core/containment.js';
import type { ReaderContext } from './reader-context.js';
import { Refusal, errnoCode } from './refusal.js';
import { suggestPaths } from './suggest-paths.js';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = fs.constants;
/** O_NONBLOCK: opening a FIFO with no writer returns at once instead of hanging the worker. */
const OPEN_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;

/** Kernel file systems whose "files" can block, never end, or leak process state. */
const PSEUDO_ROOTS = ['/proc/', '/sys/', '/dev/'];

export interface OpenedFile {
  readonly fd: number;
  readonly stat: fs.BigIntStats;
  /** Canonical path of the descriptor, checked to be inside a root. */
  readonly path: string;
  readonly relativePath: string;
}

/**
 * Opens `requested` for reading the way the sandbox requires, or throws a `Refusal`:
 * resolve through links, check the canonical path against the roots and deny rules, open the
 * canonical path with O_NOFOLLOW (a link swapped in since is refused, not followed), require a
 * regular file by `fstat`, then check where the descriptor really points. Callers read through
 * the returned descriptor only and must close it.
 */
export function openChecked(context: ReaderContext, requested: string): OpenedFile {
  let canonical: string;
  try {
    canonical = fs.realpathSync.native(requested);
  } catch (error) {
    throw refusalForErrno(error, context, requested);
  }
  const root = findRoot(context.roots, canonical);
  if (root === null) throw new Refusal('outside_root', { throughLink: true });
  const relativePath = relativeTo(root, canonical);
  const rule = context.deny(relativePath);
  if (rule !== null) throw new Refusal('denied', { rule });
  if (PSEUDO_ROOTS.some((prefix) => canonical.startsWith(prefix))) {
    throw new Refusal('not_regular_file', { type: 'kernel pseudo-file' });
  }

  let fd: number;
  try {
    fd = fs.openSync(canonical, OPEN_FLAGS);
  } catch (error) {
    // ELOOP here means the last component became a link after it was resolved: a race.
    if (errnoCode(error) === 'ELOOP') throw new Refusal('changed_during_read', { stage: 'open' });
    throw refusalForErrno(error, context, requested);
  }
  try {
    const stat = fs.fstatSync(fd, { bigint: true });
    if (stat.isDirectory()) throw new Refusal('is_directory');
    if (!stat.isFile()) throw new Refusal('not_regular_file', { type: describeType(stat) });
    const actual = descriptorPath(fd, canonical, stat);
    if (findRoot(context.roots, actual) === null) throw new Refusal('outside_root', { throughLink: true });
    return { fd, stat, path: actual, relativePath };
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/** Where the descriptor points now: `/proc/self/fd` on Linux, else realpath plus dev/ino match. */
function descriptorPath(fd: number, canonical: string, stat: fs.BigIntStats): string {
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    const again = fs.statSync(canonical, { bigint: true });
    if (again.dev !== stat.dev || again.ino !== stat.ino) {
      throw new Refusal('changed_during_read', { stage: 'open' });
    }
    return canonical;
  }
}

function describeType(stat: fs.BigIntStats): string {
  if (stat.isFIFO()) return 'FIFO (named pipe)';
  if (stat.isSocket()) return 'socket';
  if (stat.isCharacterDevice()) return 'character device';
  if (stat.isBlockDevice()) return 'block device';
  return 'special file';
}

function refusalForErrno(error: unknown, context: ReaderContext, requested: string): Refusal {
  const code = errnoCode(error);
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new Refusal('not_found', { suggestions: suggestPaths(context.roots, requested) });
    case 'ELOOP':
      return new Refusal('unreadable', { reason: 'a loop of symbolic links (ELOOP)' });
    case 'EACCES':
    case 'EPERM':
      return new Refusal('unreadable', { reason: `permission denied (${code})` });
    case 'ENXIO':
    case 'ENODEV':
      return new Refusal('not_regular_file', { type: 'socket or device' });
    case 'ENAMETOOLONG':
      return new Refusal('invalid_request', { issues: ['path: a component or the whole path is too long'] });
    case null:
    default:
      return new Refusal('unreadable', { reason: code ?? String(error) });
  }
}
