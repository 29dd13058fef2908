import { CANCEL } from './wire.js';

/**
 * The cancel flags shared with the text workers (`WorkerConfig.cancel`), one slot per read in a
 * worker. The host raises a read's flag on abort or timeout; its worker polls it between
 * chunks. A slot is handed out cleared and is free again only once its batch has returned,
 * never when its read was answered: the worker may still be polling it.
 */
export class CancelSlots {
  readonly #flags: Int32Array;
  readonly #free: number[];

  constructor(flags: Int32Array) {
    this.#flags = flags;
    this.#free = Array.from({ length: flags.length }, (_, i) => i);
  }

  /** A cleared slot, or -1 when none is free (the read then runs uncancellable in its worker). */
  take(): number {
    const slot = this.#free.pop() ?? -1;
    if (slot >= 0) Atomics.store(this.#flags, slot, CANCEL.none);
    return slot;
  }

  /** Tells the worker running `slot`'s read to stop at its next chunk. */
  raise(slot: number, flag: number): void {
    if (slot >= 0) Atomics.store(this.#flags, slot, flag);
  }

  /** Returns the slots of a batch back from its worker. */
  release(slots: readonly number[]): void {
    for (const slot of slots) if (slot >= 0) this.#free.push(slot);
  }
}
