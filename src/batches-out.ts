import type { Batch } from './ticket.js';

/**
 * The scheduler's batches in workers: a Set of batches, not of reads, which the host would fill
 * and empty a read at a time. It knows which of them their workers have begun (a worker runs one
 * at a time; the next may wait in its port), and watches for a stuck worker: a batch whose every
 * read was answered early (abort, timeout) and that has begun must come back within `graceMs`, or
 * its worker is taken for stuck in a system call (a hung network mount) and `recycle` is called.
 * A batch still waiting in a port is not timed until it begins.
 */
export class BatchesOut {
  readonly #batches = new Set<Batch>();
  #begun = 0;
  readonly #graceMs: number;
  readonly #recycle: () => void;

  constructor(graceMs: number, recycle: () => void) {
    this.#graceMs = graceMs;
    this.#recycle = recycle;
  }

  get size(): number {
    return this.#batches.size;
  }

  /** Batches their workers have begun: one a busy worker. */
  get begun(): number {
    return this.#begun;
  }

  values(): IterableIterator<Batch> {
    return this.#batches.values();
  }

  add(batch: Batch): void {
    this.#batches.add(batch);
  }

  /** Its worker has begun `batch` (the pool says so). */
  began(batch: Batch): void {
    if (!this.#batches.has(batch) || batch.started) return;
    batch.started = true;
    this.#begun++;
    if (batch.unanswered === 0) this.#watch(batch);
  }

  /** Every read of `batch` has been answered early, while it is in a worker. */
  answeredEarly(batch: Batch): void {
    if (batch.started) this.#watch(batch);
  }

  returned(batch: Batch): void {
    clearTimeout(batch.stuckTimer);
    if (!this.#batches.delete(batch)) return;
    if (batch.started) this.#begun--;
  }

  #watch(batch: Batch): void {
    if (batch.stuckTimer !== undefined) return;
    batch.stuckTimer = setTimeout(this.#recycle, this.#graceMs);
    batch.stuckTimer.unref();
  }
}
