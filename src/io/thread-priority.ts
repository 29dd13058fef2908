import os from 'node:os';

/**
 * Workers run at a lower priority than the host (`workerNice`), so that reads never starve the
 * host's event loop. On Linux a nice value belongs to a thread, not a process, so there a worker
 * lowers its own thread with `os.setPriority(0, …)`. Elsewhere `setPriority(0)` would lower the
 * whole process, host included, so an optional native helper (`@napi-rs/nice`, which Piscina
 * installs) does it, loaded in each worker before the worker's own module: 3 to 6 ms on the
 * way to a fresh engine's first answer, which Linux spares.
 */
export interface ThreadPriority {
  /** The nice increment a worker applies to its own thread as it boots; absent or 0: none. */
  readonly threadNice?: number;
}

/** Who applies `nice`: the native helper (`niceIncrement`) or the worker itself (`threadNice`). */
export function niceSettings(nice: number): { niceIncrement: number; threadNice: number } {
  return process.platform === 'linux' ? { niceIncrement: 0, threadNice: nice } : { niceIncrement: nice, threadNice: 0 };
}

/** Lowers the calling thread's priority by `increment` (Linux; see `ThreadPriority`). */
export function lowerThreadPriority(increment: number | undefined): void {
  if (increment === undefined || increment <= 0) return;
  try {
    os.setPriority(0, Math.min(19, os.getPriority(0) + increment));
  } catch {
    // Not permitted here (a sandboxed container): the worker keeps the host's priority, as it
    // would where Piscina's helper is not installed.
  }
}
