/**
 * A Map bounded in entries that forgets the least recently written first. Writes refresh an
 * entry, reads do not: cheaper than a full LRU on the hot path (a Map delete and set), and for
 * read state "least recently read" is the order that matters.
 */
export class RecentMap<K, V> {
  readonly #map = new Map<K, V>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  get(key: K): V | undefined {
    return this.#map.get(key);
  }

  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.#max) {
      const oldest = this.#map.keys().next();
      if (oldest.done !== true) this.#map.delete(oldest.value);
    }
  }

  /** Gives an entry a new value in its place (its recency unchanged); nothing when it has none. */
  replace(key: K, value: V): void {
    if (this.#map.has(key)) this.#map.set(key, value);
  }

  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  get size(): number {
    return this.#map.size;
  }
}
