/**
 * The session ledger's rules, written the plain way (a Map of marks per session, each bounded
 * least recently written first), for a test that checks `SessionLedger` against it operation by
 * operation. Slow on purpose: this is what the ledger must answer, not how.
 */
import type { LastRead, ReadMark, SessionLimits } from '../../src/cache/sessions.js';

function bounded<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as string);
}

interface State {
  readonly ranges: Map<string, ReadMark>;
  readonly files: Map<string, ReadMark>;
  written: number;
}

const rangeKey = (path: string, range: string) => `${path}\0${range}`;

export class ReferenceLedger {
  readonly #limits: SessionLimits;
  readonly #sessions = new Map<string, State>();
  #writes = 0;

  constructor(limits: SessionLimits) {
    this.#limits = limits;
  }

  range(session: string, path: string, range: string): ReadMark | undefined {
    const state = this.#sessions.get(session);
    if (state === undefined || state.files.size === 0) return undefined;
    const last = state.files.get(path);
    if (last !== undefined && last.range === range) return last.facts.complete ? last : undefined;
    return state.ranges.get(rangeKey(path, range));
  }

  last(session: string, path: string): LastRead | undefined {
    const mark = this.#sessions.get(session)?.files.get(path);
    return mark === undefined ? undefined : { ...mark.facts, readAt: mark.readAt, version: mark.version, settled: mark.settled };
  }

  record(session: string, path: string, mark: ReadMark): void {
    let state = this.#sessions.get(session);
    if (state === undefined) {
      state = { ranges: new Map(), files: new Map(), written: 0 };
      if (this.#sessions.size >= this.#limits.maxSessions) {
        const oldest = [...this.#sessions].sort(([, a], [, b]) => a.written - b.written)[0];
        if (oldest !== undefined) this.#sessions.delete(oldest[0]);
      }
      this.#sessions.set(session, state);
    }
    state.written = ++this.#writes;
    const previous = state.files.get(path);
    if (previous !== undefined && previous.range !== mark.range && previous.facts.complete) {
      bounded(state.ranges, rangeKey(path, previous.range), previous, this.#limits.maxEntries);
    }
    bounded(state.files, path, mark, this.#limits.maxEntries);
    state.ranges.delete(rangeKey(path, mark.range));
  }

  forget(session: string): boolean {
    return this.#sessions.delete(session);
  }

  stats(): { readonly sessions: number; readonly entries: number } {
    let entries = 0;
    for (const state of this.#sessions.values()) entries += state.ranges.size + state.files.size;
    return { sessions: this.#sessions.size, entries };
  }
}
