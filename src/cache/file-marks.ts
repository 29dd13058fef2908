import type { ReadMark } from './marks.js';
import { RecentMap } from './recent-map.js';

/**
 * Small numbers for the paths that sessions hold marks of, so that a session's marks of files
 * can be an array indexed by them (see `FileMarks`). An id lives while some session holds a mark
 * of its path in such an array, then is reused, so ids stay within the marks held.
 */
export class PathIds {
  readonly #ids = new Map<string, number>();
  /** id → its path, while some session holds a mark of it. */
  readonly #paths: (string | undefined)[] = [];
  /** id → how many sessions hold a mark of its path. */
  readonly #holders: number[] = [];
  readonly #free: number[] = [];

  /** Ids in use. */
  get size(): number {
    return this.#ids.size;
  }

  /** The path's id, if some session holds a mark of it. */
  find(path: string): number | undefined {
    return this.#ids.get(path);
  }

  /** The path's id, made if it has none: `hold` it at once, or say it was `untaken`. */
  idFor(path: string): number {
    let id = this.#ids.get(path);
    if (id === undefined) {
      id = this.#free.pop() ?? this.#paths.length;
      this.#ids.set(path, id);
      this.#paths[id] = path;
      this.#holders[id] = 0;
    }
    return id;
  }

  /** The path of a held id. */
  pathOf(id: number): string {
    return this.#paths[id] ?? '';
  }

  /** A session took a mark of the id's path. */
  hold(id: number): void {
    this.#holders[id] = (this.#holders[id] ?? 0) + 1;
  }

  /** A session let its mark of the id's path go; the id is freed when none holds one. */
  release(id: number): void {
    const holders = (this.#holders[id] ?? 1) - 1;
    this.#holders[id] = holders;
    if (holders <= 0) this.#freeId(id);
  }

  /** An id made by `idFor` and not taken after all: freed unless some session holds it. */
  untaken(id: number): void {
    if ((this.#holders[id] ?? 0) === 0) this.#freeId(id);
  }

  #freeId(id: number): void {
    const path = this.#paths[id];
    if (path !== undefined) this.#ids.delete(path);
    this.#paths[id] = undefined;
    this.#free.push(id);
  }
}

/**
 * One session's marks of files (the read ledger), at most `max`, the least recently written
 * forgotten first. Two forms:
 *
 * - An array indexed by path id while the session's ids are small, as in a swarm whose agents
 *   read one tree (they share the same few hundred ids). Each session's own `Map` had been the
 *   largest part of a swarm's cached read on the host: inserting into 256 maps of 500 entries in
 *   turn. The write order, kept only once the session passes its bound, is `[id, write, ...]`
 *   from `head` on; a pair whose write is no longer its id's mark's is stale and passed over.
 * - A `Map` by path, in write order, once an id would pass `denseLimit`: agents that each read
 *   their own files (a worktree each) hold ids far apart, and an array of them was mostly holes
 *   (forgetting a session walked them all, 18 ms against 0.3, and a third more memory). Such a
 *   session holds no ids, so its reads pay no lookup of them either.
 */
export class FileMarks {
  readonly #ids: PathIds;
  readonly #max: number;
  #dense: (ReadMark | undefined)[] | null = [];
  #count = 0;
  #order: number[] | null = null;
  #head = 0;
  #byPath: RecentMap<string, ReadMark> | null = null;

  constructor(ids: PathIds, max: number) {
    this.#ids = ids;
    this.#max = max;
  }

  /** The largest id an array holds (then a session's array is at most twice its bound). */
  static denseLimit(max: number): number {
    return 2 * max + 64;
  }

  get size(): number {
    return this.#byPath === null ? this.#count : this.#byPath.size;
  }

  get(path: string): ReadMark | undefined {
    const dense = this.#dense;
    if (dense === null) return this.#byPath?.get(path);
    const id = this.#ids.find(path);
    return id === undefined ? undefined : dense[id];
  }

  /** Records `mark` as the session's last read of `path`, as its `write`-th; returns the mark it replaces. */
  set(path: string, mark: ReadMark, write: number): ReadMark | undefined {
    const dense = this.#dense;
    if (dense !== null) {
      const id = this.#ids.idFor(path);
      if (id < FileMarks.denseLimit(this.#max)) return this.#setDense(dense, id, mark, write);
      this.#ids.untaken(id);
      this.#toByPath();
    }
    const byPath = this.#byPath as RecentMap<string, ReadMark>;
    const previous = byPath.get(path);
    byPath.set(path, mark);
    return previous;
  }

  /** Lets go of the ids it holds (the session is forgotten). */
  release(): void {
    const dense = this.#dense;
    if (dense === null) return;
    for (let id = 0; id < dense.length; id++) if (dense[id] !== undefined) this.#ids.release(id);
  }

  #setDense(dense: (ReadMark | undefined)[], id: number, mark: ReadMark, write: number): ReadMark | undefined {
    // Filling up to a new id keeps V8's elements packed, not a dictionary of holes.
    for (let at = dense.length; at < id; at++) dense.push(undefined);
    const previous = dense[id];
    mark.written = write;
    dense[id] = mark;
    if (previous === undefined) {
      this.#ids.hold(id);
      this.#count++;
    }
    const order = this.#order;
    if (order !== null) {
      order.push(id, write);
      if (order.length - this.#head > 4 * this.#count + 64) this.#compact(dense, order);
    }
    if (this.#count > this.#max) this.#dropOldest(dense);
    return previous;
  }

  /** Drops the least recently written mark. */
  #dropOldest(dense: (ReadMark | undefined)[]): void {
    const order = this.#order ?? this.#writeOrder(dense);
    while (this.#head < order.length) {
      const id = order[this.#head] as number;
      const write = order[this.#head + 1];
      this.#head += 2;
      if (dense[id]?.written !== write) continue;
      dense[id] = undefined;
      this.#count--;
      this.#ids.release(id);
      break;
    }
    if (this.#head > 1024 && this.#head * 2 > order.length) this.#compact(dense, order);
  }

  /**
   * The write order, made from the marks when the session first passes its bound and kept from
   * then on: most sessions never pass it, and a swarm read paid for keeping it (4.99 against 4.68
   * µs a read).
   */
  #writeOrder(dense: (ReadMark | undefined)[]): number[] {
    const order = this.#liveOrder(dense);
    this.#order = order;
    this.#head = 0;
    return order;
  }

  /** Keeps only the live pairs of the write order. */
  #compact(dense: (ReadMark | undefined)[], order: number[]): void {
    const live: number[] = [];
    for (let at = this.#head; at < order.length; at += 2) {
      const id = order[at] as number;
      const write = order[at + 1] as number;
      if (dense[id]?.written === write) live.push(id, write);
    }
    this.#order = live;
    this.#head = 0;
  }

  /** `[id, write, ...]` of every mark held, oldest write first. */
  #liveOrder(dense: (ReadMark | undefined)[]): number[] {
    const marks: [number, number][] = [];
    for (let id = 0; id < dense.length; id++) {
      const written = dense[id]?.written;
      if (written !== undefined) marks.push([id, written]);
    }
    marks.sort((a, b) => a[1] - b[1]);
    return marks.flat();
  }

  /** Becomes a `Map` by path for good, in write order, letting go of its ids. */
  #toByPath(): void {
    const dense = this.#dense as (ReadMark | undefined)[];
    const byPath = new RecentMap<string, ReadMark>(this.#max);
    const order = this.#liveOrder(dense);
    for (let at = 0; at < order.length; at += 2) {
      const id = order[at] as number;
      byPath.set(this.#ids.pathOf(id), dense[id] as ReadMark);
      this.#ids.release(id);
    }
    this.#dense = null;
    this.#order = null;
    this.#byPath = byPath;
  }
}
