/**
 * A text pool thread (see `src/text-pool.ts`): loads the batch handler its first argument names
 * (the text worker's entry, or a test's stand-in for it), says it is ready, then answers each
 * batch the host sends with what the handler returns, or the error it threw. A handler that
 * fails to load fails the thread, which the pool counts as a start-up failure.
 *
 * One listener, one message each way a batch: no task ids, queues or async resources, which
 * the host would pay for on every batch. Batches are answered in the order they came (the host
 * may send the next while one runs).
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { parentPort } from 'node:worker_threads';
import { HOST_READY } from '../src/wire.js';

type Handler = (batch: unknown) => unknown;

const entry = process.argv[2] ?? '';
/** Where a thread cannot lower its own priority (not Linux: see `niceSettings`), the helper Piscina uses does. */
const helperNice = Number(process.argv[3] ?? 0);
const port = parentPort;
if (port === null) throw new Error('text-host runs only as a worker thread of the text pool');

async function lowerWithHelper(increment: number): Promise<void> {
  if (!(increment > 0)) return;
  const helper = '@napi-rs/nice';
  try {
    const loaded = (await import(helper)) as { nice?: (increment: number) => unknown };
    loaded.nice?.(increment);
  } catch {
    // Not installed here: the thread keeps the host's priority.
  }
}

// A CommonJS entry is required (no ES module loader started for it); a module is imported.
const loaded: Promise<unknown> = lowerWithHelper(helperNice).then(
  (): unknown => (entry.endsWith('.cjs') ? (createRequire(entry)(entry) as unknown) : import(pathToFileURL(entry).href)),
);

void loaded.then(async (module) => {
  const exported = (module as { default?: unknown }).default ?? module;
  const handler = await exported;
  if (typeof handler !== 'function') throw new Error(`the text pool's entry ${entry} exports no batch handler`);
  const answer = (batch: unknown): void => {
    try {
      port.postMessage((handler as Handler)(batch));
    } catch (error) {
      port.postMessage(error instanceof Error ? error : new Error(String(error)));
    }
  };
  port.on('message', answer);
  port.postMessage(HOST_READY);
});
