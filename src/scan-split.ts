import type { Task } from './text-thread.js';
import { deferredForSplit, hashAnswerOf, sizedBatch, splitScan, type HashAnswer, type PoolAnswers } from './wire.js';

/**
 * A whole scan of one large file run as two jobs on two idle threads (`splitScan` in wire.ts):
 * the read, which leaves the xxh64 out, and a hash-only job. The caller's task settles once, when
 * both have answered (so that the read's cancel slot, which both poll, is not released to another
 * read while either runs):
 *
 * - with the read's answer and the hash filled in, when the hash is of the version the read saw;
 * - with the read's answer as it came, when it needs no hash from the other: a failure, a binary
 *   file (hashed whole by the read), or a version too recently changed to be trusted across two
 *   threads, which the read hashes itself (see `TextJob.settleMs`);
 * - run again whole on one thread (`again`) when the hash is of another version (the file was
 *   written between the two opens), or its job failed or lost its thread;
 * - failed, when the read lost its thread, as an unsplit batch would be.
 *
 * Returns the two tasks to send, or null when the task's batch is not a scan to split.
 */
export function splitTask(task: Task, again: (task: Task) => void): { readonly read: Task; readonly hash: Task } | null {
  if (task.unsplit === true) return null;
  const split = splitScan(task.batch);
  if (split === null) return null;
  const join = new ScanJoin(task, again);
  const read: Task = {
    batch: split.read,
    started: task.started,
    resolve: (answers) => join.read(answers),
    reject: (error) => join.read(error),
  };
  const hash: Task = {
    batch: split.hash,
    started: undefined,
    resolve: () => join.hashed(null),
    reject: () => join.hashed(null),
    answered: (wires) => join.hashed(hashAnswerOf(wires)),
  };
  return { read, hash };
}

/**
 * `task` sent flagged to be deferred should its file be large enough to split (see
 * `deferredForSplit`): a file that is comes back as its size, and is handed to `again` sized, to
 * be split where a second thread is idle then; any other answer settles `task`. The scheduler
 * sees one batch, answered once, as it would unsplit. Null when `task` is not a whole scan of a
 * file the host did not stat.
 */
export function probeTask(task: Task, again: (task: Task) => void): Task | null {
  if (task.unsplit === true) return null;
  const batch = deferredForSplit(task.batch);
  if (batch === null) return null;
  return {
    batch,
    started: task.started,
    resolve: (answers) => {
      const [first] = answers;
      if (answers.length === 1 && first !== undefined && 'resend' in first) again({ ...task, batch: sizedBatch(task.batch, first.resend) });
      else task.resolve(answers);
    },
    reject: (error) => task.reject(error),
  };
}

/** What a half answered: undefined until it has. */
type ReadHalf = PoolAnswers | Error | undefined;

class ScanJoin {
  readonly #task: Task;
  readonly #again: (task: Task) => void;
  #read: ReadHalf = undefined;
  /** The hash job's answer: undefined until it comes, null when it failed. */
  #hash: HashAnswer | null | undefined = undefined;

  constructor(task: Task, again: (task: Task) => void) {
    this.#task = task;
    this.#again = again;
  }

  read(answer: PoolAnswers | Error): void {
    if (this.#read !== undefined) return;
    this.#read = answer;
    if (this.#hash !== undefined) this.#join();
  }

  hashed(answer: HashAnswer | null): void {
    if (this.#hash !== undefined) return;
    this.#hash = answer;
    if (this.#read !== undefined) this.#join();
  }

  #join(): void {
    const answers = this.#read;
    const hash = this.#hash;
    if (answers instanceof Error) return this.#task.reject(answers);
    if (answers === undefined) return;
    const [first] = answers;
    const waits = first !== undefined && 'ok' in first && first.ok && first.value.kind === 'text' && first.value.xxh64 === null;
    if (!waits) return this.#task.resolve(answers);
    if (hash != null && first.value.version === hash.version) {
      answers[0] = { ok: true, value: { ...first.value, xxh64: hash.xxh64 } };
      return this.#task.resolve(answers);
    }
    this.#again({ ...this.#task, unsplit: true });
  }
}
