/**
 * The session ledger's rules as a log of entries, searched and trimmed the slow, obvious way, for a
 * test that checks `SessionLedger` against it operation by operation. It shares no structure with
 * the ledger on purpose: a model that copied it would agree with its bugs.
 *
 * Rules: a session holds its last read of each file (with that read's range), and its last
 * complete read of each other range of a file; each of the two holds at most `maxEntries`, the
 * least recently written dropped first; at most `maxSessions` sessions, the one least recently
 * written to dropped when a new one comes. A session that holds no file answers no range. A
 * touch renews the mark a session holds of a read (now at another version) in its place.
 */
import type { LastRead, ReadMark, SessionLimits } from '../../src/cache/sessions.js';

interface Entry {
  readonly session: string;
  readonly kind: 'file' | 'range';
  readonly path: string;
  /** The range, for a `range` entry; '' for a file's. */
  readonly range: string;
  mark: ReadMark;
  /** When it was written (one clock for the whole ledger). */
  readonly at: number;
}

export class ReferenceLedger {
  readonly #limits: SessionLimits;
  #log: Entry[] = [];
  /** Sessions and when each was last written to, oldest first by `at`. */
  readonly #touched = new Map<string, number>();
  #clock = 0;

  constructor(limits: SessionLimits) {
    this.#limits = limits;
  }

  #entry(session: string, kind: Entry['kind'], path: string, range = ''): Entry | undefined {
    return this.#log.find((entry) => entry.session === session && entry.kind === kind && entry.path === path && entry.range === range);
  }

  range(session: string, path: string, range: string): ReadMark | undefined {
    if (!this.#log.some((entry) => entry.session === session && entry.kind === 'file')) return undefined;
    const last = this.#entry(session, 'file', path)?.mark;
    if (last?.range === range) return last.facts.complete ? last : undefined;
    return this.#entry(session, 'range', path, range)?.mark;
  }

  last(session: string, path: string): LastRead | undefined {
    const mark = this.#entry(session, 'file', path)?.mark;
    return mark === undefined ? undefined : { ...mark.facts, readAt: mark.readAt, version: mark.version, settled: mark.settled };
  }

  record(session: string, path: string, mark: ReadMark): void {
    if (!this.#touched.has(session) && this.#touched.size >= this.#limits.maxSessions) {
      const oldest = [...this.#touched].reduce((a, b) => (b[1] < a[1] ? b : a));
      this.forget(oldest[0]);
    }
    this.#touched.set(session, ++this.#clock);
    const previous = this.#entry(session, 'file', path)?.mark;
    if (previous !== undefined && previous.range !== mark.range && previous.facts.complete) this.#write(session, 'range', path, previous.range, previous);
    this.#write(session, 'file', path, '', mark);
    this.#log = this.#log.filter((entry) => !(entry.session === session && entry.kind === 'range' && entry.path === path && entry.range === mark.range));
  }

  /** Writes one entry in place of the same one, then drops the session's oldest of that kind past the bound. */
  #write(session: string, kind: Entry['kind'], path: string, range: string, mark: ReadMark): void {
    const same = this.#entry(session, kind, path, range);
    this.#log = this.#log.filter((entry) => entry !== same);
    this.#log.push({ session, kind, path, range, mark, at: ++this.#clock });
    const mine = this.#log.filter((entry) => entry.session === session && entry.kind === kind);
    if (mine.length <= this.#limits.maxEntries) return;
    const oldest = mine.reduce((a, b) => (b.at < a.at ? b : a));
    this.#log = this.#log.filter((entry) => entry !== oldest);
  }

  /**
   * The entry holding a mark of the same read as `held` (the same facts and range, read at the same
   * time; file first, then its range) takes the renewed mark, in its place.
   */
  renew(session: string, path: string, held: ReadMark, version: string, settled: boolean): void {
    const same = (mark: ReadMark): boolean => mark.facts === held.facts && mark.range === held.range && mark.readAt === held.readAt;
    const entry = [this.#entry(session, 'file', path), this.#entry(session, 'range', path, held.range)].find((candidate) => candidate !== undefined && same(candidate.mark));
    if (entry !== undefined) entry.mark = { facts: held.facts, range: held.range, readAt: held.readAt, version, settled };
  }

  forget(session: string): boolean {
    this.#log = this.#log.filter((entry) => entry.session !== session);
    return this.#touched.delete(session);
  }

  stats(): { readonly sessions: number; readonly entries: number } {
    return { sessions: this.#touched.size, entries: this.#log.length };
  }
}
