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
 *   `[id, write, ...]` from `#head` on; a pair whose write is no longer its id's is stale.
 * - A `Map` of marks by path, in write order, once an id would reach `denseLimit`: agents that each
 *   read their own files (a worktree each) hold ids far apart, and arrays of them were mostly
 *   holes (forgetting a session walked them all, 18 ms against 0.3, and a third more memory).
 *   Such a session holds no ids, so its reads pay no lookup of them either. Recording 512
 *   sessions of 1 024 files of their own, in turns, takes about a fifth longer than one map a
 *   session did (the ledger alone: 687 to 740 against 582 to 592 ms; lookups alike), while 512
 *   sessions of one tree of 1 024 files take a third of the time (152 against 582 ms) and
 *   lookups a third (63 against 189).
 */
export class FileMarks {
  readonly #ids: PathIds;
  readonly #max: number;
  /** By id: the mark's base, or undefined; null once the marks are kept by path. */
  #bases: (MarkBase | undefined)[] | null = [];
  /**
   * By id, two numbers: when the mark's read was answered (ms since the epoch), and the ledger's
   * write that recorded it (0 where no mark is). Off the JS heap, so that growing it to a far id
   * makes no garbage for young collections to sweep.
   */
  #times = new Float64Array(0);
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
    return base === undefined ? undefined : markOf(base, this.#times[2 * (id as number)] as number);
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
    byPath.set(path, keptMark(base, readAt));
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
      byPath.replace(path, keptMark(base, held.readAt));
      return true;
    }
    const id = this.#ids.find(path);
    if (id === undefined) return false;
    const kept = bases[id];
    if (kept === undefined || kept.facts !== held.facts || kept.range !== held.range || this.#times[2 * id] !== held.readAt) return false;
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
    // Filling up to a new id keeps V8's elements packed, not a dictionary of holes.
    for (let at = bases.length; at <= id; at++) bases.push(undefined);
    const times = this.#timesFor(id);
    const kept = bases[id];
    const previous = kept === undefined ? undefined : markOf(kept, times[2 * id] as number);
    bases[id] = base;
    times[2 * id] = readAt;
    times[2 * id + 1] = write;
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

  /** `#times`, grown to hold `id`. */
  #timesFor(id: number): Float64Array {
    const times = this.#times;
    if (2 * id < times.length) return times;
    const grown = new Float64Array(Math.max(128, 2 * (id + 1), 2 * times.length));
    grown.set(times);
    this.#times = grown;
    return grown;
  }

  /** The ledger's write that recorded the mark of `id`, or 0. */
  #writeOf(id: number): number {
    return this.#times[2 * id + 1] ?? 0;
  }

  /** Drops the least recently written mark. */
  #dropOldest(bases: (MarkBase | undefined)[]): void {
    const order = this.#order ?? this.#writeOrder();
    while (this.#head < order.length) {
      const id = order[this.#head] as number;
      const write = order[this.#head + 1];
      this.#head += 2;
      if (bases[id] === undefined || this.#writeOf(id) !== write) continue;
      bases[id] = undefined;
      this.#times[2 * id] = 0;
      this.#times[2 * id + 1] = 0;
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
    const live: number[] = [];
    for (let at = this.#head; at < order.length; at += 2) {
      const id = order[at] as number;
      const write = order[at + 1] as number;
      if (this.#writeOf(id) === write) live.push(id, write);
    }
    this.#order = live;
    this.#head = 0;
  }

  /** `[id, write, ...]` of every mark held, oldest write first. */
  #liveOrder(): number[] {
    const bases = this.#bases ?? [];
    const ids: number[] = [];
    for (let id = 0; id < bases.length; id++) if (bases[id] !== undefined) ids.push(id);
    ids.sort((a, b) => this.#writeOf(a) - this.#writeOf(b));
    const order: number[] = [];
    for (const id of ids) order.push(id, this.#writeOf(id));
    return order;
  }

  /** Becomes a `Map` of marks by path for good, in write order, letting go of its ids. */
  #toByPath(): void {
    const bases = this.#bases as (MarkBase | undefined)[];
    const byPath = new RecentMap<string, ReadMark>(this.#max);
    const order = this.#liveOrder();
    for (let at = 0; at < order.length; at += 2) {
      const id = order[at] as number;
      byPath.set(this.#ids.pathOf(id), keptMark(bases[id] as MarkBase, this.#times[2 * id] as number));
      this.#ids.release(id);
    }
    this.#bases = null;
    this.#count = 0;
    this.#times = new Float64Array(0);
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

/** A mark as the ledger answers it from its arrays: made for the caller, who soon drops it. */
function markOf(base: MarkBase, readAt: number): ReadMark {
  return { facts: base.facts, range: base.range, version: base.version, settled: base.settled, readAt };
}

/**
 * A mark kept by path. Made apart from `markOf`: V8 decides per allocation site whether its
 * objects are made in the old generation (most of these are kept, most of those are dropped), and
 * one site for both cost a session kept by path about a microsecond a read.
 */
function keptMark(base: MarkBase, readAt: number): ReadMark {
  return { facts: base.facts, range: base.range, version: base.version, settled: base.settled, readAt };
}
