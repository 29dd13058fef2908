const RESOLVED = Promise.resolve();

/**
 * Runs `call` in a microtask, where `queueMicrotask` would: same queue, same order. Node's
 * `queueMicrotask` makes an async resource and a bound function for every call, whose shapes are
 * also lost at an idle full GC (see `RecentShapes`); a settled promise's reaction makes neither.
 * `call` must not throw: it would surface as an unhandled rejection.
 */
export function inMicrotask(call: () => void): void {
  void RESOLVED.then(call);
}
