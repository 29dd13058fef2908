import type { Task } from './text-thread.js';
import { deferredForSplit, hashAnswerOf, splitScan, type HashAnswer, type PoolAnswers } from './wire.js';

/**
 * A whole scan of one large file run as two jobs on two idle threads (`splitScan` in wire.ts):
 * the read, which leaves the xxh64 out, and a hash-only job. The caller's task settles once, with
 * the read's answer and the hash filled in:
 *
 * - a read that answered anything but text without its hash (a failure, a binary file, which
 *   hashes itself) settles at once, and the hash is not waited for;
 * - a hash of another version (the file changed between the two opens), or a hash job that
 *   failed or lost its thread, hands the task back (`again`) to run whole on one thread;
 * - a read that lost its thread fails the task, as an unsplit batch would.
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
    reject: (error) => join.readFailed(error),
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
 * `deferredForSplit`), or null when it is not a whole scan of a file the host did not stat.
 */
export function probeTask(task: Task): Task | null {
  if (task.unsplit === true) return null;
  const batch = deferredForSplit(task.batch);
  return batch === null ? null : { ...task, batch };
}

class ScanJoin {
  readonly #task: Task;
  readonly #again: (task: Task) => void;
  /** The read's answers while they wait for the hash. */
  #answers: PoolAnswers | null = null;
  /** The hash job's answer: undefined until it comes, null when it failed. */
  #hash: HashAnswer | null | undefined = undefined;
  #done = false;

  constructor(task: Task, again: (task: Task) => void) {
    this.#task = task;
    this.#again = again;
  }

  read(answers: PoolAnswers): void {
    const [first] = answers;
    const waits = first !== undefined && 'ok' in first && first.ok && first.value.kind === 'text' && first.value.xxh64 === null;
    if (!waits) return this.#settle(() => this.#task.resolve(answers));
    this.#answers = answers;
    if (this.#hash !== undefined) this.#join();
  }

  readFailed(error: Error): void {
    this.#settle(() => this.#task.reject(error));
  }

  hashed(answer: HashAnswer | null): void {
    if (this.#hash !== undefined) return;
    this.#hash = answer;
    if (this.#answers !== null) this.#join();
  }

  #join(): void {
    const answers = this.#answers as PoolAnswers;
    const [first] = answers;
    const hash = this.#hash;
    if (first !== undefined && 'ok' in first && first.ok && hash != null && first.value.version === hash.version) {
      answers[0] = { ok: true, value: { ...first.value, xxh64: hash.xxh64 } };
      return this.#settle(() => this.#task.resolve(answers));
    }
    this.#settle(() => this.#again({ ...this.#task, unsplit: true }));
  }

  #settle(then: () => void): void {
    if (this.#done) return;
    this.#done = true;
    this.#answers = null;
    then();
  }
}
