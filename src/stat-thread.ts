import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { inMicrotask } from './microtask.js';
import { ANSWERED, answerAt, askAt, createStatShared, readStat, SENT, type FileStat, type StatPaths, type StatShared } from './io/stat-wire.js';
import { workerFile } from './worker-files.js';
import { workerThreads } from './worker-threads.js';

/** `Atomics.waitAsync` (Node 16 and later), which TypeScript types from its ES2024 library only. */
type WaitAsync = (array: Int32Array, index: number, value: number) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

/**
 * Starts the stat worker with the host's Node options inherited, as Piscina's workers are. Handed
 * as a list, they would be refused whole when they name a V8 or process option
 * (`--max-old-space-size`, `--expose-gc`: ERR_WORKER_INVALID_EXEC_ARGV), which once left every
 * host run with one stating each cache hit on its own thread. The bundled worker
 * (`stat-worker.cjs`) is loaded by `require`, which a host's `--input-type` does not touch; the
 * unbundled build's ES module is imported from a one-line script, because Node refuses to start
 * a worker from a module file under that option (ERR_INPUT_TYPE_NOT_ALLOWED).
 */
function startWorker(file: string, workerData: StatShared): Worker {
  const { Worker } = workerThreads();
  if (file.endsWith('.cjs')) return new Worker(file, { workerData });
  return new Worker(`import(${JSON.stringify(pathToFileURL(file).href)});`, { eval: true, workerData });
}

/** Why a worker was refused, its code first when it has one (`ERR_WORKER_PATH: ...`). */
function failureText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code } = error as { code?: unknown };
  return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
}

/**
 * A path's number at the stat thread, and the batch last sent with it and its entry there. Batch
 * ids only grow while the numbering lasts: numbering started over makes new `Numbered`s.
 */
interface Numbered {
  readonly number: number;
  batch: number;
  entry: number;
}

/** What the thread calls back with: each answered batch by id, and its own loss (error or exit). */
export interface StatThreadCalls {
  readonly answered: (id: number) => void;
  readonly lost: () => void;
}

/**
 * One stat thread, from its start to its end, and what only it knows: the memory it shares with
 * the host, the batches sent and answered (numbered from 1), and the numbers it knows paths by.
 * A thread given up on is stopped and dropped whole, so the next one starts with none of it, and
 * a stopped thread calls nothing back.
 */
export class StatThread {
  readonly #worker: Worker;
  readonly #memory: StatShared;
  readonly #calls: StatThreadCalls;
  readonly #numbers = new Map<string, Numbered>();
  readonly #maxNumbered: number;
  #sentCount = 0;
  #answeredCount = 0;
  /** True while a wait for the thread's next answer is set. */
  #awaiting = false;
  #ready = false;
  #stopped = false;

  /**
   * Starts a thread, or says why none can start here (the worker's file is missing from the
   * build, or Node refused the `Worker`): every stat is then made on the host.
   */
  static start(maxNumbered: number, calls: StatThreadCalls): StatThread | { readonly failed: string } {
    try {
      const memory = createStatShared();
      const worker = startWorker(workerFile('stat-worker'), memory);
      return new StatThread(worker, memory, maxNumbered, calls);
    } catch (error) {
      return { failed: failureText(error) };
    }
  }

  private constructor(worker: Worker, memory: StatShared, maxNumbered: number, calls: StatThreadCalls) {
    this.#worker = worker;
    this.#memory = memory;
    this.#maxNumbered = maxNumbered;
    this.#calls = calls;
    worker.unref();
    worker.once('online', () => {
      this.#ready = true;
    });
    const lost = () => {
      if (!this.#stopped) calls.lost();
    };
    worker.once('error', lost);
    worker.once('exit', lost);
  }

  /** True once the thread runs: batches sent before would wait for its start. */
  get ready(): boolean {
    return this.#ready;
  }

  /**
   * Writes a batch of `paths` and wakes the thread. One stat a path: reads of the same path in
   * one batch (agents of a swarm reading the same files at once) share it, as every read that
   * arrived before a stat may. `entries[i]` is set to the entry of the answer that answers
   * `paths[i]`. Returns the batch's id and how many stats it asks for.
   */
  send(paths: readonly string[], entries: Int32Array): { id: number; asked: number } {
    const memory = this.#memory;
    // Paths go by number once the thread knows them: a string costs a message.
    const reset = this.#numbers.size + paths.length > this.#maxNumbered;
    if (reset) this.#numbers.clear();
    const added: string[] = [];
    const id = ++this.#sentCount;
    const at = askAt(id);
    // The path's entry in this batch is kept with its number: one map lookup a read finds both.
    let asked = 0;
    for (let i = 0; i < paths.length; i++) {
      const path = paths[i] as string;
      let numbered = this.#numbers.get(path);
      if (numbered === undefined) {
        numbered = { number: this.#numbers.size, batch: 0, entry: 0 };
        this.#numbers.set(path, numbered);
        added.push(path);
      } else if (numbered.batch === id) {
        entries[i] = numbered.entry;
        continue;
      }
      numbered.batch = id;
      numbered.entry = asked;
      memory.asks[at + 1 + asked] = numbered.number;
      entries[i] = asked++;
    }
    memory.asks[at] = asked;
    // Posted before the batch is: the thread finds them on its port when it takes the batch up.
    if (reset || added.length > 0) {
      const message: StatPaths = { batch: id, reset, added };
      this.#worker.postMessage(message);
    }
    Atomics.store(memory.control, SENT, id);
    Atomics.notify(memory.control, SENT);
    if (!this.#awaiting) this.#awaitAnswer();
    return { id, asked };
  }

  /** Entry `entry` of batch `id`'s answer; read it while that batch is being answered. */
  statOf(id: number, entry: number): FileStat | null {
    return readStat(this.#memory.stats, answerAt(id) + entry);
  }

  /**
   * Stops the thread; nothing is called back after this. A thread stuck in a system call stops
   * only when the call returns: nothing waits for that. Nor for its answer: the host's wait on
   * its memory, if set, is left to lapse with it.
   */
  stop(): Promise<void> {
    this.#stopped = true;
    return this.#worker.terminate().then(
      () => undefined,
      () => undefined,
    );
  }

  /**
   * Takes the thread's answers once it has made the next one. The wait is a promise that the
   * thread's `Atomics.notify` settles: no message is made, received or dispatched for an answer.
   */
  #awaitAnswer(): void {
    this.#awaiting = true;
    const wait = waitAsync(this.#memory.control, ANSWERED, this.#answeredCount);
    if (wait.async) void wait.value.then(() => this.#answered());
    else inMicrotask(() => this.#answered());
  }

  #answered(): void {
    const answered = Atomics.load(this.#memory.control, ANSWERED);
    while (this.#answeredCount < answered && !this.#stopped) this.#calls.answered(++this.#answeredCount);
    this.#awaiting = false;
    if (this.#sentCount > this.#answeredCount && !this.#stopped) this.#awaitAnswer();
  }
}
