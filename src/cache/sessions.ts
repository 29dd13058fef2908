/**
 * A Map bounded in entries that forgets the least recently written first. Writes refresh an
 * entry, reads do not: cheaper than a full LRU on the hot path (a Map delete and set), and for
 * read state "least recently read" is the order that matters.
 */
class RecentMap<K, V> {
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

  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  get size(): number {
    return this.#map.size;
  }

  values(): IterableIterator<V> {
    return this.#map.values();
  }
}

/** What a session was given when it read a file: enough for stubs and for an edit tool's check. */
export interface LastRead {
  /** Canonical path of the file read. */
  readonly path: string;
  readonly relativePath: string;
  /** When the read was answered, in milliseconds since the epoch. */
  readonly readAt: number;
  /** Version key at that read (`dev:ino:size:mtimeMs:ctimeMs`); moves on when a touch kept the content. */
  readonly version: string;
  readonly size: number;
  readonly xxh64: string | null;
  readonly sha256: string | null;
  readonly startLine: number;
  readonly endLine: number;
  readonly totalLines: number | null;
  /** True when the session saw every line it asked for, uncut: only such reads earn stubs. */
  readonly complete: boolean;
  /**
   * True when the file had not changed for `settleMs` before the read, so its version alone
   * identifies the content. A mark that is not settled earns stubs by content hash only.
   */
  readonly settled: boolean;
}

/**
 * What every session given one result shares of it (see `LastRead`), made once per result: a
 * swarm's sessions read the same cached results, and a mark that copied these fields was most of
 * what each read kept.
 */
export type ReadFacts = Omit<LastRead, 'readAt' | 'version' | 'settled'>;

/** A session's read of a file: the result's shared facts, and what is the session's own. */
export interface ReadMark {
  readonly facts: ReadFacts;
  /** The range it asked for (`''` for the default one). */
  readonly range: string;
  readonly readAt: number;
  /** See `LastRead.version`: moved on by a touch that kept the content. */
  version: string;
  /** See `LastRead.settled`. */
  settled: boolean;
  /** The ledger's write count when it recorded this mark (0 until then): see `SessionState.order`. */
  written: number;
}

export interface SessionLimits {
  /** Sessions remembered; the least recently active is forgotten first. */
  readonly maxSessions: number;
  /** Reads remembered per session (ranges, and files for the ledger, each). */
  readonly maxEntries: number;
}

/**
 * Small numbers for the paths that sessions hold marks of, so that a session's marks of files are
 * an array indexed by them, not a Map of its own. In a swarm each session's map grew to hundreds
 * of entries, and inserting into 256 such maps in turn was the largest part of a cached read's
 * host time: 5.40 against 4.65 µs a read for an array indexed by these ids (a prototype, eight
 * pairs of swarm passes). An id lives while some session holds a mark of its path, then is
 * reused, so ids stay within the marks held.
 */
class PathIds {
  readonly #ids = new Map<string, number>();
  /** id → its path, while some session holds a mark of it. */
  readonly #paths: (string | undefined)[] = [];
  /** id → how many sessions hold a mark of its path. */
  readonly #holders: number[] = [];
  readonly #free: number[] = [];

  /** The path's id, if some session holds a mark of it. */
  find(path: string): number | undefined {
    return this.#ids.get(path);
  }

  /** The path's id, made if it has none: hold it at once (`hold`), or it is never freed. */
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

  /** A session took a mark of the id's path. */
  hold(id: number): void {
    this.#holders[id] = (this.#holders[id] ?? 0) + 1;
  }

  /** A session let its mark of the id's path go; the id is freed when none holds one. */
  release(id: number): void {
    const holders = (this.#holders[id] ?? 1) - 1;
    this.#holders[id] = holders;
    if (holders > 0) return;
    const path = this.#paths[id];
    if (path !== undefined) this.#ids.delete(path);
    this.#paths[id] = undefined;
    this.#free.push(id);
  }
}

/**
 * A mark answers stubs for its range only while it is complete. The last read of a file lives in
 * `files` alone, with its range: most reads are a file's only range, and a second map entry for
 * each was a tenth of a swarm read's host time. A complete mark moves to `ranges` when a read of
 * another range of the file replaces it there.
 */
interface SessionState {
  /** (path, range) → the last complete read of it, for ranges other than the one in `files`. */
  readonly ranges: RecentMap<string, ReadMark>;
  /** Path id (`PathIds`) → the last read of that file, complete or not (the read ledger), with its range. */
  readonly files: (ReadMark | undefined)[];
  /**
   * `[id, write, id, write, ...]` in the order written, from `head` on: the least recently written
   * mark is forgotten first. A pair whose write is not its file's mark's in `files` any more is
   * stale (the file was read again since, or forgotten) and is passed over. Null until the
   * session first holds more marks than the bound, when it is made from the marks: most sessions
   * never do, and a swarm read paid for keeping it (4.99 against 4.68 µs a read).
   */
  order: number[] | null;
  head: number;
  /** Marks in `files`. */
  count: number;
  /** The ledger's write count at this session's last write: the least recent is forgotten first. */
  written: number;
}

/**
 * Per-session read state: the unchanged-file stubs and the read ledger that edit tools consult.
 * Bounded in sessions and in entries per session, least recently read out first, so a swarm
 * issuing millions of distinct reads holds at most `maxSessions * maxEntries * 2` marks.
 */
export class SessionLedger {
  readonly #limits: SessionLimits;
  /**
   * Sessions by name. Recency is a write count kept in each session, not the map's order: moving
   * a session to the map's end on every write was two map operations a read in a swarm, whose
   * sessions take turns. Forgetting one (only when a new session would exceed `maxSessions`)
   * scans for the least recently written instead.
   */
  readonly #sessions = new Map<string, SessionState>();
  readonly #ids = new PathIds();
  #writes = 0;

  constructor(limits: SessionLimits) {
    this.#limits = limits;
  }

  /** The session's last complete read of this range, if it still holds one. */
  range(session: string, path: string, range: string): ReadMark | undefined {
    const state = this.#sessions.get(session);
    // Most reads of a swarm are first reads of a session that holds nothing yet.
    if (state === undefined || state.count === 0) return undefined;
    const id = this.#ids.find(path);
    const last = id === undefined ? undefined : state.files[id];
    if (last !== undefined && last.range === range) return last.facts.complete ? last : undefined;
    return state.ranges.size === 0 ? undefined : state.ranges.get(rangeKey(path, range));
  }

  /** The session's last read of this file, complete or not, as it stands now. */
  last(session: string, path: string): LastRead | undefined {
    const state = this.#sessions.get(session);
    const id = this.#ids.find(path);
    const mark = state === undefined || id === undefined ? undefined : state.files[id];
    return mark === undefined ? undefined : { ...mark.facts, readAt: mark.readAt, version: mark.version, settled: mark.settled };
  }

  /** Records a read of `path` (as requested, absolute) for the mark's range. */
  record(session: string, path: string, mark: ReadMark): void {
    let state = this.#sessions.get(session);
    if (state === undefined) {
      state = { ranges: new RecentMap(this.#limits.maxEntries), files: [], order: null, head: 0, count: 0, written: 0 };
      if (this.#sessions.size >= this.#limits.maxSessions) this.#forgetLeastRecent();
      this.#sessions.set(session, state);
    }
    const write = ++this.#writes;
    state.written = write;
    const id = this.#ids.idFor(path);
    const previous = state.files[id];
    const { range } = mark;
    // The file's last read was of another range: its mark keeps answering for that range.
    if (previous !== undefined && previous.range !== range && previous.facts.complete) state.ranges.set(rangeKey(path, previous.range), previous);
    if (previous === undefined) {
      this.#ids.hold(id);
      state.count++;
    }
    mark.written = write;
    state.files[id] = mark;
    const { order } = state;
    if (order !== null) {
      order.push(id, write);
      if (order.length - state.head > 4 * state.count + 64) compact(state, order);
    }
    if (state.count > this.#limits.maxEntries) this.#forgetOldestFile(state);
    // This range's mark lives in `files` now: one kept from before would be stale.
    if (state.ranges.size > 0) state.ranges.delete(rangeKey(path, range));
  }

  /** Forgets everything the session read; true when there was something to forget. */
  forget(session: string): boolean {
    const state = this.#sessions.get(session);
    if (state === undefined) return false;
    this.#release(state);
    return this.#sessions.delete(session);
  }

  stats(): { readonly sessions: number; readonly entries: number } {
    let entries = 0;
    for (const state of this.#sessions.values()) entries += state.ranges.size + state.count;
    return { sessions: this.#sessions.size, entries };
  }

  #forgetLeastRecent(): void {
    let oldest: string | undefined;
    let oldestWrite = Infinity;
    for (const [session, state] of this.#sessions) {
      if (state.written < oldestWrite) {
        oldest = session;
        oldestWrite = state.written;
      }
    }
    if (oldest !== undefined) this.forget(oldest);
  }

  /** Drops the session's least recently written mark of a file. */
  #forgetOldestFile(state: SessionState): void {
    const order = state.order ?? writeOrder(state);
    const { files } = state;
    while (state.head < order.length) {
      const id = order[state.head] as number;
      const write = order[state.head + 1];
      state.head += 2;
      if (files[id]?.written !== write) continue;
      files[id] = undefined;
      state.count--;
      this.#ids.release(id);
      break;
    }
    if (state.head > 1024 && state.head * 2 > order.length) compact(state, order);
  }

  /** Lets go of every path id the session holds a mark of. */
  #release(state: SessionState): void {
    state.files.forEach((mark, id) => {
      if (mark !== undefined) this.#ids.release(id);
    });
  }
}

/** The session's write order (see `SessionState.order`), made from its marks' writes, kept from now on. */
function writeOrder(state: SessionState): number[] {
  const marks: [number, number][] = [];
  state.files.forEach((mark, id) => {
    if (mark !== undefined) marks.push([id, mark.written]);
  });
  marks.sort((a, b) => a[1] - b[1]);
  const order = marks.flat();
  state.order = order;
  state.head = 0;
  return order;
}

/** Keeps only the live pairs of the session's write order (see `SessionState.order`). */
function compact(state: SessionState, order: number[]): void {
  const { files } = state;
  const live: number[] = [];
  for (let at = state.head; at < order.length; at += 2) {
    const id = order[at] as number;
    const write = order[at + 1] as number;
    if (files[id]?.written === write) live.push(id, write);
  }
  state.order = live;
  state.head = 0;
}

/**
 * The default range is passed as '' and keyed by the path alone: a path's string is the sandbox's
 * own (its hash computed once), where a key built per read is flattened and hashed on every
 * lookup, which was a fifth of a swarm read's host time. Paths never hold a NUL, so no key collides.
 */
function rangeKey(path: string, range: string): string {
  return range === '' ? path : `${path}\0${range}`;
}
