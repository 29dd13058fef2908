import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** Files a message carries, as in the reference measurement. */
export const FILES_PER_MESSAGE = 32;

/**
 * Plain `worker_threads`, `threads` of them, each kept two messages deep (the next one already
 * waits when one ends, as the engine's pool does), reading `FILES_PER_MESSAGE` files a message.
 * The ceiling a worker pool reaches on this machine when the host thread does almost nothing.
 */
export class BareWorkers {
  readonly #workers: Worker[];

  private constructor(workers: Worker[]) {
    this.#workers = workers;
  }

  static async start(threads: number): Promise<BareWorkers> {
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bare-worker.js');
    const workers = Array.from({ length: threads }, () => new Worker(file));
    await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('online', resolve))));
    return new BareWorkers(workers);
  }

  /** Reads every file once; resolves with the characters rendered (so nothing is optimised away). */
  async readAll(files: readonly string[]): Promise<number> {
    let next = 0;
    let chars = 0;
    const take = (): string[] | null => {
      if (next >= files.length) return null;
      const chunk = files.slice(next, next + FILES_PER_MESSAGE);
      next += chunk.length;
      return chunk;
    };
    const lane = async (ask: (chunk: string[]) => Promise<string[]>): Promise<void> => {
      for (let chunk = take(); chunk !== null; chunk = take()) {
        for (const text of await ask(chunk)) chars += text.length;
      }
    };
    // Two lanes a worker: answers come back in the order sent, so one listener per worker
    // hands each answer to the oldest waiting lane.
    await Promise.all(
      this.#workers.map(async (worker) => {
        const waiting: ((rendered: string[]) => void)[] = [];
        const onMessage = (rendered: string[]) => waiting.shift()?.(rendered);
        worker.on('message', onMessage);
        const ask = (chunk: string[]) =>
          new Promise<string[]>((resolve) => {
            waiting.push(resolve);
            worker.postMessage(chunk);
          });
        await Promise.all([lane(ask), lane(ask)]);
        worker.off('message', onMessage);
      }),
    );
    return chars;
  }

  async close(): Promise<void> {
    await Promise.all(this.#workers.map((worker) => worker.terminate()));
  }
}
