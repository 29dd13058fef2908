/**
 * A first-in, first-out queue over an array read from a head index: taking from the front moves
 * the index instead of shifting every item (in a swarm, a queue of 256 sessions is taken from on
 * every read). The array is cut down to the items left once more than half of it is taken, and
 * a taken place is cleared, so the queue holds on to nothing it has handed out.
 */
export class HeadQueue<T> {
  #items: (T | undefined)[] = [];
  #head = 0;

  /** Items not taken yet. */
  get size(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  /** The next item, left in place; undefined when empty. */
  peek(): T | undefined {
    return this.#items[this.#head];
  }

  /** Takes the next item; undefined when empty. */
  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head++] = undefined;
    if (this.#head === this.#items.length) this.clear();
    else if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  /** Keeps only the items `keep` says yes to, in their order. */
  keep(keep: (item: T) => boolean): void {
    const kept: T[] = [];
    for (let at = this.#head; at < this.#items.length; at++) {
      const item = this.#items[at] as T;
      if (keep(item)) kept.push(item);
    }
    this.#items = kept;
    this.#head = 0;
  }

  clear(): void {
    this.#items = [];
    this.#head = 0;
  }
}
