/**
 * What the stat thread and the host pass each other (see `StatLane`): a batch of paths one way,
 * six numbers a path back in a transferred `Float64Array`.
 */
import type fs from 'node:fs';

/** The fields of a stat that make a file's version (`versionKey`), all a cache check needs. */
export type FileStat = Pick<fs.Stats, 'dev' | 'ino' | 'size' | 'mtimeMs' | 'ctimeMs'>;

/**
 * `dev:ino:size:mtimeMs:ctimeMs`: changes whenever the file may have changed. Written by this one
 * function on both threads, from a plain stat: the host's on a cache hit, a worker's `fstat` for
 * the version a result is cached under, so the two are equal for the same file by construction.
 */
export function versionKey(stat: FileStat): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
}

/** Numbers a path takes in a reply: regular-file flag (1, else 0), dev, ino, size, mtimeMs, ctimeMs. */
export const STAT_FIELDS = 6;

/**
 * A batch: the paths to stat, by number. A path is sent as a string once, in `added`, and numbered
 * in order from the thread's count so far (from 0 again when `reset`); later batches send only
 * its number. The reply has an entry for each number, in order.
 */
export interface StatAsk {
  readonly id: number;
  readonly reset: boolean;
  readonly added: readonly string[];
  readonly numbers: Int32Array;
}

export interface StatReply {
  readonly id: number;
  readonly stats: Float64Array;
}

/** Writes `stat` (null: not a plain regular file) at entry `i`. */
export function writeStat(stats: Float64Array, i: number, stat: FileStat | null): void {
  const at = i * STAT_FIELDS;
  if (stat === null) {
    stats[at] = 0;
    return;
  }
  stats[at] = 1;
  stats[at + 1] = stat.dev;
  stats[at + 2] = stat.ino;
  stats[at + 3] = stat.size;
  stats[at + 4] = stat.mtimeMs;
  stats[at + 5] = stat.ctimeMs;
}

/** The stat at entry `i`, or null. */
export function readStat(stats: Float64Array, i: number): FileStat | null {
  const at = i * STAT_FIELDS;
  if (stats[at] !== 1) return null;
  return { dev: stats[at + 1] ?? 0, ino: stats[at + 2] ?? 0, size: stats[at + 3] ?? 0, mtimeMs: stats[at + 4] ?? 0, ctimeMs: stats[at + 5] ?? 0 };
}
