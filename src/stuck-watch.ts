/**
 * The stat lane's watch on the oldest batch at its thread (see `StatLane`): one timer, made when
 * none is pending and checked when due, not one made and cleared for every batch (Node's timer
 * list, a fresh `Timeout` and its debug hooks were a twentieth of a cached read's host time).
 * While a batch is timed, the timer also keeps the process alive: the thread itself is unref'd.
 */
export class StuckWatch {
  readonly #onStuck: () => void;
  #timer: NodeJS.Timeout | undefined;
  /** When the pending timer fires (`Date.now()`). */
  #due = 0;
  /** When the timed batch counts as stuck; Infinity when none is timed. */
  #stuckAt = Infinity;

  constructor(onStuck: () => void) {
    this.#onStuck = onStuck;
  }

  /** Times the batch now oldest, from now: stuck after `ms`. */
  start(ms: number): void {
    this.#stuckAt = Date.now() + ms;
    // A timer due later (set for a larger batch) would let this one pass its time.
    if (this.#timer !== undefined && this.#due > this.#stuckAt) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#timer === undefined) this.#arm();
    else this.#timer.ref();
  }

  /** No batch is out: a pending timer may lapse, and no longer keeps the process alive. */
  idle(): void {
    this.#stuckAt = Infinity;
    this.#timer?.unref();
  }

  /** Stops watching: the lane gave its batches up, or closed. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#stuckAt = Infinity;
  }

  #arm(): void {
    this.#due = this.#stuckAt;
    this.#timer = setTimeout(this.#check, Math.max(0, this.#due - Date.now()));
  }

  /** Due: the batch timed is stuck, or the timer waits again until it would be. */
  readonly #check = (): void => {
    this.#timer = undefined;
    if (this.#stuckAt === Infinity) return;
    if (this.#stuckAt <= Date.now()) return this.#onStuck();
    this.#arm();
  };
}
