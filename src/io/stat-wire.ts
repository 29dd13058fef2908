/**
 * How the host and the stat thread pass each other batches (see `StatLane`): path numbers one way
 * and six numbers a path back, in memory they share; a path's string goes once, as a message.
 */
import type fs from 'node:fs';
import type { MessagePort, receiveMessageOnPort } from 'node:worker_threads';

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

/** Batches at the stat thread at once (see `StatLane`), and the most paths in one. */
export const STAT_SLOTS = 2;
export const STAT_BATCH = 128;

/** `StatShared.control`'s fields: batches the host has sent, and batches the thread has answered. */
export const SENT = 0;
export const ANSWERED = 1;

/**
 * The memory the host and the stat thread share. Batch `n` (counted from 1 for each thread) uses
 * slot `n % STAT_SLOTS`: its path count and numbers in `asks`, its answers in `stats`. The host
 * writes a batch, then raises `SENT` and wakes the thread; the thread stats it, writes the
 * answers, then raises `ANSWERED` and wakes the host. No message is made for a batch: the host
 * thread's two messages a batch were most of a cache hit's cost of the lane.
 */
export interface StatShared {
  readonly control: Int32Array;
  readonly asks: Int32Array;
  readonly stats: Float64Array;
}

export function createStatShared(): StatShared {
  return {
    control: new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT)),
    asks: new Int32Array(new SharedArrayBuffer(STAT_SLOTS * (STAT_BATCH + 1) * Int32Array.BYTES_PER_ELEMENT)),
    stats: new Float64Array(new SharedArrayBuffer(STAT_SLOTS * STAT_BATCH * STAT_FIELDS * Float64Array.BYTES_PER_ELEMENT)),
  };
}

/** Where batch `n`'s count sits in `asks` (its numbers follow), and its first answer in `stats`. */
export const askAt = (n: number): number => (n % STAT_SLOTS) * (STAT_BATCH + 1);
export const answerAt = (n: number): number => (n % STAT_SLOTS) * STAT_BATCH;

/**
 * Paths new to the thread, sent as a message before the batch that first numbers them: each is
 * numbered in order from the thread's count so far (from 0 again when `reset`), from `batch` on.
 * The thread reads the messages waiting on its port before each batch; those of later batches
 * wait until their batch comes.
 */
export interface StatPaths {
  readonly batch: number;
  readonly reset: boolean;
  readonly added: readonly string[];
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

/**
 * The stat thread's side, run by its entry (`workers/stat-worker.ts`): answers each batch the host
 * sends with `stat` of each of its paths. Sleeps in `Atomics.wait` between batches and never
 * returns to the event loop; `Worker.terminate` ends it, waiting or not. `receive` is
 * `receiveMessageOnPort`, handed in by the worker so that the host's modules, which import this
 * one, do not load `node:worker_threads` with the package.
 */
export function serveStats(shared: StatShared, port: MessagePort, receive: typeof receiveMessageOnPort, stat: (path: string) => FileStat | null): never {
  const { control, asks, stats } = shared;
  /** Paths by the number the host gave them. */
  const paths: string[] = [];
  /** Path messages received and not applied yet: each applies from its batch on. */
  const pending: StatPaths[] = [];
  let answered = 0;
  for (;;) {
    Atomics.wait(control, SENT, answered);
    const sent = Atomics.load(control, SENT);
    while (answered < sent) {
      const batch = answered + 1;
      // The paths a batch numbers were posted before it was sent; a later batch's may be here too.
      for (let entry = receive(port); entry !== undefined; entry = receive(port)) pending.push(entry.message as StatPaths);
      while (pending.length > 0 && (pending[0] as StatPaths).batch <= batch) {
        const { reset, added } = pending.shift() as StatPaths;
        if (reset) paths.length = 0;
        for (const path of added) paths.push(path);
      }
      const at = askAt(batch);
      const count = asks[at] ?? 0;
      const first = answerAt(batch);
      for (let i = 0; i < count; i++) {
        const path = paths[asks[at + 1 + i] ?? -1];
        writeStat(stats, first + i, path === undefined ? null : stat(path));
      }
      answered = batch;
      Atomics.store(control, ANSWERED, answered);
      Atomics.notify(control, ANSWERED);
    }
  }
}
