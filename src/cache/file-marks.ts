import type { MarkBase, ReadMark } from './marks.js';
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
 * - Arrays indexed by path id while the session's ids are small, as in a swarm whose agents read
 *   one tree (they share the same few hundred ids): each id's mark base (shared with the other
 *   sessions given the same result), when it was read, and the write that recorded it. Each
 *   session's own `Map` had been the largest part of a swarm's cached read on the host (inserting
 *   into 256 maps of 500 entries in turn), and a mark object kept per read the next largest (V8
 *   made them in the old generation once most survived, each store a barrier). A mark is made
 *   only when asked for (`get`). The write order, kept only once the session passes its bound, is
 *   `[id, write, ...]` from `head` on; a pair whose write is no longer its id's is stale.
 * - A `Map` of marks by path, in write order, once an id would reach `denseLimit`: agents that each
 *   read their own files (a worktree each) hold ids far apart, and arrays of them were mostly
 *   holes (forgetting a session walked them all, 18 ms against 0.3, and a third more memory).
 *   Such a session holds no ids, so its reads pay no lookup of them either.
 */
export class FileMarks {
  readonly #ids: PathIds;
  readonly #max: number;
  /** By id: the mark's base, or undefined; null once the marks are kept by path. */
  #bases: (MarkBase | undefined)[] | null = [];
  /** By id: when the mark's read was answered (ms since the epoch); 0 where no mark is. */
  readonly #readAts: number[] = [];
  /** By id: the ledger's write that recorded the mark; 0 where no mark is. */
  readonly #writes: number[] = [];
  #count = 0;
  #order: number[] | null = null;
  #head = 0;
  #byPath: RecentMap<string, ReadMark> | null = null;

  constructor(ids: PathIds, max: number) {
    this.#ids = ids;
    this.#max = max;
  }

  /** The ids the arrays hold are below this (so a session's arrays are at most about twice its bound). */
  static denseLimit(max: number): number {
    return 2 * max + 64;
  }

  get size(): number {
    return this.#byPath === null ? this.#count : this.#byPath.size;
  }

  get(path: string): ReadMark | undefined {
    const bases = this.#bases;
    if (bases === null) return this.#byPath?.get(path);
    const id = this.#ids.find(path);
    const base = id === undefined ? undefined : bases[id];
    return base === undefined ? undefined : markOf(base, this.#readAts[id as number] as number);
  }

  /**
   * Records the session's read of `path`, answered at `readAt`, as the ledger's `write`-th;
   * returns the mark it replaces.
   */
  set(path: string, base: MarkBase, readAt: number, write: number): ReadMark | undefined {
    const bases = this.#bases;
    if (bases !== null) {
      const id = this.#ids.idFor(path);
      if (id < FileMarks.denseLimit(this.#max)) return this.#setDense(bases, id, base, readAt, write);
      this.#ids.untaken(id);
      this.#toByPath();
    }
    const byPath = this.#byPath as RecentMap<string, ReadMark>;
    const previous = byPath.get(path);
    byPath.set(path, markOf(base, readAt));
    return previous;
  }

  /**
   * Gives the session's mark of `path` a new base if it is a mark of the same read as `held`
   * (`sameRead`), keeping its place in the write order. True when it was.
   */
  renew(path: string, held: ReadMark, base: MarkBase): boolean {
    const bases = this.#bases;
    if (bases === null) {
      const byPath = this.#byPath as RecentMap<string, ReadMark>;
      const kept = byPath.get(path);
      if (kept === undefined || !sameRead(kept, held)) return false;
      byPath.replace(path, markOf(base, held.readAt));
      return true;
    }
    const id = this.#ids.find(path);
    if (id === undefined) return false;
    const kept = bases[id];
    if (kept === undefined || kept.facts !== held.facts || kept.range !== held.range || this.#readAts[id] !== held.readAt) return false;
    bases[id] = base;
    return true;
  }

  /** Lets go of the ids it holds (the session is forgotten). */
  release(): void {
    const bases = this.#bases;
    if (bases === null) return;
    for (let id = 0; id < bases.length; id++) if (bases[id] !== undefined) this.#ids.release(id);
  }

  #setDense(bases: (MarkBase | undefined)[], id: number, base: MarkBase, readAt: number, write: number): ReadMark | undefined {
    const readAts = this.#readAts;
    const writes = this.#writes;
    // Filling up to a new id keeps V8's elements packed (and the numbers unboxed), not a dictionary of holes.
    for (let at = bases.length; at < id; at++) {
      bases.push(undefined);
      readAts.push(0);
      writes.push(0);
    }
    const kept = bases[id];
    const previous = kept === undefined ? undefined : markOf(kept, readAts[id] as number);
    bases[id] = base;
    readAts[id] = readAt;
    writes[id] = write;
    if (kept === undefined) {
      this.#ids.hold(id);
      this.#count++;
    }
    const order = this.#order;
    if (order !== null) {
      order.push(id, write);
      if (order.length - this.#head > 4 * this.#count + 64) this.#compact(order);
    }
    if (this.#count > this.#max) this.#dropOldest(bases);
    return previous;
  }

  /** Drops the least recently written mark. */
  #dropOldest(bases: (MarkBase | undefined)[]): void {
    const order = this.#order ?? this.#writeOrder();
    const writes = this.#writes;
    while (this.#head < order.length) {
      const id = order[this.#head] as number;
      const write = order[this.#head + 1];
      this.#head += 2;
      if (bases[id] === undefined || writes[id] !== write) continue;
      bases[id] = undefined;
      this.#readAts[id] = 0;
      writes[id] = 0;
      this.#count--;
      this.#ids.release(id);
      break;
    }
    if (this.#head > 1024 && this.#head * 2 > order.length) this.#compact(order);
  }

  /**
   * The write order, made from the marks when the session first passes its bound and kept from
   * then on: most sessions never pass it, and a swarm read paid for keeping it (4.99 against 4.68
   * µs a read).
   */
  #writeOrder(): number[] {
    const order = this.#liveOrder();
    this.#order = order;
    this.#head = 0;
    return order;
  }

  /** Keeps only the live pairs of the write order. */
  #compact(order: number[]): void {
    const writes = this.#writes;
    const live: number[] = [];
    for (let at = this.#head; at < order.length; at += 2) {
      const id = order[at] as number;
      const write = order[at + 1] as number;
      if (writes[id] === write) live.push(id, write);
    }
    this.#order = live;
    this.#head = 0;
  }

  /** `[id, write, ...]` of every mark held, oldest write first. */
  #liveOrder(): number[] {
    const writes = this.#writes;
    const marks: [number, number][] = [];
    for (let id = 0; id < writes.length; id++) {
      const write = writes[id] as number;
      if (write !== 0) marks.push([id, write]);
    }
    marks.sort((a, b) => a[1] - b[1]);
    return marks.flat();
  }

  /** Becomes a `Map` of marks by path for good, in write order, letting go of its ids. */
  #toByPath(): void {
    const bases = this.#bases as (MarkBase | undefined)[];
    const byPath = new RecentMap<string, ReadMark>(this.#max);
    const order = this.#liveOrder();
    for (let at = 0; at < order.length; at += 2) {
      const id = order[at] as number;
      byPath.set(this.#ids.pathOf(id), markOf(bases[id] as MarkBase, this.#readAts[id] as number));
      this.#ids.release(id);
    }
    this.#bases = null;
    this.#count = 0;
    this.#readAts.length = 0;
    this.#writes.length = 0;
    this.#order = null;
    this.#byPath = byPath;
  }
}

/**
 * True when two marks are of the same read: the same result's facts, for the same range, answered
 * at the same time. Marks are values made when asked for, so a read that found one and later saw
 * a touch (`SessionLedger.renew`) finds its read by these, whether the session still keeps it as
 * its file's last read, in its ranges, or by path since, and whatever version an earlier touch
 * gave it meanwhile.
 */
export function sameRead(a: ReadMark, b: ReadMark): boolean {
  return a.facts === b.facts && a.range === b.range && a.readAt === b.readAt;
}

/** A mark as the ledger answers it. */
function markOf(base: MarkBase, readAt: number): ReadMark {
  return { facts: base.facts, range: base.range, version: base.version, settled: base.settled, readAt };
}
