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

/**
 * A call made at most once a turn: `request()` from anywhere in a turn runs `call` once, in a
 * microtask after the code that asked (so reads submitted in the same tick share what it does).
 * A request made while `call` runs, or after, asks for the next run.
 */
export class OncePerTurn {
  readonly #call: () => void;
  #pending = false;
  readonly #run = (): void => {
    this.#pending = false;
    this.#call();
  };

  /** `call` must not throw (see `inMicrotask`). */
  constructor(call: () => void) {
    this.#call = call;
  }

  request(): void {
    if (this.#pending) return;
    this.#pending = true;
    inMicrotask(this.#run);
  }
}
