import { FileMarks, PathIds, sameRead } from './file-marks.js';
import type { LastRead, MarkBase, ReadMark } from './marks.js';
import { RecentMap } from './recent-map.js';

export type { LastRead, MarkBase, ReadFacts, ReadMark } from './marks.js';

export interface SessionLimits {
  /** Sessions remembered; the least recently active is forgotten first. */
  readonly maxSessions: number;
  /** Reads remembered per session (ranges, and files for the ledger, each). */
  readonly maxEntries: number;
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
  /** The last read of each file, complete or not (the read ledger), with its range. */
  readonly files: FileMarks;
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
  /** Numbers for the paths whose marks sessions keep in arrays (see `FileMarks`). */
  readonly #ids = new PathIds();
  #writes = 0;

  constructor(limits: SessionLimits) {
    this.#limits = limits;
  }

  /** The session's last complete read of this range, if it still holds one. */
  range(session: string, path: string, range: string): ReadMark | undefined {
    const state = this.#sessions.get(session);
    // Most reads of a swarm are first reads of a session that holds nothing yet.
    if (state === undefined || state.files.size === 0) return undefined;
    const last = state.files.get(path);
    if (last !== undefined && last.range === range) return last.facts.complete ? last : undefined;
    return state.ranges.size === 0 ? undefined : state.ranges.get(rangeKey(path, range));
  }

  /** The session's last read of this file, complete or not, as it stands now. */
  last(session: string, path: string): LastRead | undefined {
    const mark = this.#sessions.get(session)?.files.get(path);
    return mark === undefined ? undefined : { ...mark.facts, readAt: mark.readAt, version: mark.version, settled: mark.settled };
  }

  /** Records a read of `path` (as requested, absolute), answered at `readAt`, for the base's range. */
  record(session: string, path: string, base: MarkBase, readAt: number): void {
    let state = this.#sessions.get(session);
    if (state === undefined) {
      const max = this.#limits.maxEntries;
      state = { ranges: new RecentMap(max), files: new FileMarks(this.#ids, max), written: 0 };
      if (this.#sessions.size >= this.#limits.maxSessions) this.#forgetLeastRecent();
      this.#sessions.set(session, state);
    }
    const write = ++this.#writes;
    state.written = write;
    const previous = state.files.set(path, base, readAt, write);
    const { range } = base;
    // The file's last read was of another range: its mark keeps answering for that range.
    if (previous !== undefined && previous.range !== range && previous.facts.complete) state.ranges.set(rangeKey(path, previous.range), previous);
    // This range's mark lives in `files` now: one kept from before would be stale.
    if (state.ranges.size > 0) state.ranges.delete(rangeKey(path, range));
  }

  /**
   * The session holds the content of `held` (a mark `range` gave) at `version` too (a touch that
   * kept it): the mark it keeps of that same read moves on to that version, in its place, wherever
   * it is kept now (see `sameRead`). Returns `held` at that version.
   */
  renew(session: string, path: string, held: ReadMark, version: string, settled: boolean): ReadMark {
    const base: MarkBase = { facts: held.facts, range: held.range, version, settled };
    const renewed: ReadMark = { ...base, readAt: held.readAt };
    const state = this.#sessions.get(session);
    if (state === undefined || state.files.renew(path, held, base)) return renewed;
    const key = rangeKey(path, held.range);
    const kept = state.ranges.get(key);
    if (kept !== undefined && sameRead(kept, held)) state.ranges.replace(key, renewed);
    return renewed;
  }

  /** Path ids in use (see `FileMarks`), for tests and diagnostics: none once every session is forgotten. */
  get pathIds(): number {
    return this.#ids.size;
  }

  /** Forgets everything the session read; true when there was something to forget. */
  forget(session: string): boolean {
    const state = this.#sessions.get(session);
    if (state === undefined) return false;
    state.files.release();
    return this.#sessions.delete(session);
  }

  stats(): { readonly sessions: number; readonly entries: number } {
    let entries = 0;
    for (const state of this.#sessions.values()) entries += state.ranges.size + state.files.size;
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
}

/**
 * The default range is passed as '' and keyed by the path alone: a path's string is the sandbox's
 * own (its hash computed once), where a key built per read is flattened and hashed on every
 * lookup, which was a fifth of a swarm read's host time. Paths never hold a NUL, so no key collides.
 */
function rangeKey(path: string, range: string): string {
  return range === '' ? path : `${path}\0${range}`;
}
