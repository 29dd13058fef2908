import type { Stats } from 'node:fs';
import fs from '../node-fs.js';

/**
 * The last stat made, kept so that `fs.Stats`'s hidden class outlives an idle full GC (see
 * `RecentShapes`): the cache-hit path that embeds it is not thrown away whenever the thread
 * collects while no read is in flight.
 */
const recent: { stat: Stats | null } = { stat: null };

/**
 * The file's stat when the path leads to a regular file, else null (missing, a link loop, a FIFO,
 * any error): those reads go to a worker, which owns the sandbox's verdicts and their messages.
 * Its version (`dev:ino:size:mtimeMs:ctimeMs`) keys the caches. A plain stat, not a bigint one: it
 * runs on every cache hit, and fourteen bigints cost more than the precision they carry here (a
 * version is trusted only once its ctime is `settleMs` old, so a later write moves it by far more
 * than a double's quarter-microsecond step).
 */
export function statFile(absolute: string): Stats | null {
  try {
    const stat = fs.statSync(absolute, { throwIfNoEntry: false });
    if (stat !== undefined) recent.stat = stat;
    return stat?.isFile() === true ? stat : null;
  } catch {
    return null;
  }
}
