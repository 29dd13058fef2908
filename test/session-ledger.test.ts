import { describe, expect, it } from 'vitest';
import { FileMarks, PathIds } from '../src/cache/file-marks.js';
import { SessionLedger, type ReadFacts, type ReadMark, type SessionLimits } from '../src/cache/sessions.js';
import { createRandom, type Random } from './support/random.js';
import { ReferenceLedger } from './support/reference-ledger.js';

const SESSIONS = ['a', 'b', 'c', 'd', 'e'];
const PATHS = Array.from({ length: 9 }, (_, i) => `/root/file-${i}.ts`);
const RANGES = ['', '1:10', '20:5'];

function factsOf(path: string, complete: boolean): ReadFacts {
  return { path, relativePath: path.slice(6), size: 10, xxh64: 'ab', sha256: null, startLine: 1, endLine: 2, totalLines: 2, complete };
}

/**
 * A ledger and the model of its rules, given the same operations: a random read (recorded), a
 * forget, or a read that finds the session's mark and, then or some steps later (as a read does
 * once its stat or its work answers), sees the same content at a new version (a touch: renewed).
 * `compare` asks both the same questions; `forgetAll` checks that no path id is left held.
 */
class Twins {
  readonly ledger: SessionLedger;
  readonly model: ReferenceLedger;
  readonly #random: Random;
  /** Marks found and not renewed yet, with who found them. */
  readonly #found: { session: string; path: string; held: ReadMark }[] = [];
  #clock = 0;

  constructor(limits: SessionLimits, random: Random) {
    this.ledger = new SessionLedger(limits);
    this.model = new ReferenceLedger(limits);
    this.#random = random;
  }

  step(session: string, path: string, where: string, odds = { forget: 0.05, renew: 0.1, complete: 0.8 }): void {
    const random = this.#random;
    const readAt = ++this.#clock;
    if (random.chance(odds.forget)) {
      expect(this.ledger.forget(session), where).toBe(this.model.forget(session));
      return;
    }
    const range = random.pick(RANGES);
    if (random.chance(odds.renew)) {
      const held = this.ledger.range(session, path, range);
      expect(held, where).toEqual(this.model.range(session, path, range));
      if (held !== undefined) this.#found.push({ session, path, held });
      if (this.#found.length > 8) this.#found.shift();
      if (this.#found.length === 0 || random.chance(0.3)) return;
      const [found] = this.#found.splice(random.int(0, this.#found.length - 1), 1);
      if (found === undefined) return;
      const version = `v${readAt}`;
      expect(this.ledger.renew(found.session, found.path, found.held, version, true), where).toEqual({ ...found.held, version, settled: true });
      this.model.renew(found.session, found.path, found.held, version, true);
      return;
    }
    const mark: ReadMark = { facts: factsOf(path, random.chance(odds.complete)), range, readAt, version: `v${random.int(1, 3)}`, settled: random.chance(0.9) };
    this.ledger.record(session, path, mark, readAt);
    this.model.record(session, path, mark);
  }

  forgetAll(sessions: readonly string[], where: string): void {
    for (const session of sessions) expect(this.ledger.forget(session), where).toBe(this.model.forget(session));
    expect(this.ledger.stats(), where).toEqual({ sessions: 0, entries: 0 });
    expect(this.ledger.pathIds, `${where}: path ids left held`).toBe(0);
  }

  compare(sessions: readonly string[], paths: (session: string) => readonly string[], where: string): void {
    expect(this.ledger.stats(), where).toEqual(this.model.stats());
    for (const asked of sessions) {
      for (const path of paths(asked)) {
        expect(this.ledger.last(asked, path), `${where}: last(${asked}, ${path})`).toEqual(this.model.last(asked, path));
        for (const range of RANGES) expect(this.ledger.range(asked, path, range), `${where}: range(${asked}, ${path}, ${range})`).toEqual(this.model.range(asked, path, range));
      }
    }
  }
}

describe('SessionLedger', () => {
  it('answers every query as a plain model of its rules does, through random reads, touches, forgets and evictions', () => {
    for (let seed = 1; seed <= 25; seed++) {
      const random = createRandom(seed);
      // Small bounds, so that sessions and marks are forgotten often.
      const limits = { maxSessions: random.int(1, 4), maxEntries: random.int(1, 5) };
      const twins = new Twins(limits, random);
      for (let step = 0; step < 500; step++) {
        const where = `seed ${seed}, step ${step}, limits ${JSON.stringify(limits)}`;
        twins.step(random.pick(SESSIONS), random.pick(PATHS), where);
        // Every question, every few steps.
        if (step % 7 === 0) twins.compare(SESSIONS, () => PATHS, where);
      }
      twins.forgetAll(SESSIONS, `seed ${seed}`);
    }
  });

  it('answers as the model does over a long run with many files, each session past its bound many times', () => {
    const random = createRandom(4242);
    const paths = Array.from({ length: 300 }, (_, i) => `/root/deep/file-${i}.ts`);
    const twins = new Twins({ maxSessions: 6, maxEntries: 40 }, random);
    for (let step = 0; step < 6000; step++) {
      twins.step(random.pick(SESSIONS), random.pick(paths), `step ${step}`, { forget: 0.01, renew: 0.05, complete: 0.9 });
      if (step % 200 === 0) twins.compare(SESSIONS, () => paths.slice(0, 60), `step ${step}`);
    }
    twins.forgetAll(SESSIONS, 'the end');
  });

  it('answers as the model does when each session reads files of its own (a worktree each) beside a few shared ones', () => {
    // Each session's own paths get ids far from the others', so its marks leave the arrays for a
    // map by path part-way (see FileMarks); the shared paths' ids are held by several sessions.
    for (let seed = 1; seed <= 6; seed++) {
      const random = createRandom(seed * 97);
      const own = new Map(SESSIONS.map((session) => [session, Array.from({ length: 100 }, (_, i) => `/wt-${session}/src/file-${i}.ts`)]));
      const shared = PATHS.slice(0, 4);
      // Sessions together hold more ids than one session's arrays take (`FileMarks.denseLimit`).
      const limits = { maxSessions: random.int(3, 5), maxEntries: random.int(40, 90) };
      const twins = new Twins(limits, random);
      for (let step = 0; step < 5000; step++) {
        const session = random.pick(SESSIONS);
        const where = `seed ${seed}, step ${step}, limits ${JSON.stringify(limits)}`;
        const path = random.chance(0.2) ? random.pick(shared) : random.pick(own.get(session) ?? []);
        twins.step(session, path, where, { forget: 0.01, renew: 0.1, complete: 0.9 });
        if (step % 100 === 0) twins.compare(SESSIONS, (asked) => [...shared, ...(own.get(asked) ?? []), ...(own.get('a') ?? []).slice(0, 5)], where);
      }
      twins.forgetAll(SESSIONS, `seed ${seed}`);
    }
  });

  it('holds a mark per session and file, however many times the files are read again', () => {
    const ledger = new SessionLedger({ maxSessions: 4, maxEntries: 3 });
    for (let round = 0; round < 10_000; round++) {
      const path = PATHS[round % 2] as string;
      ledger.record('a', path, { facts: factsOf(path, true), range: '', version: 'v', settled: true }, round);
    }
    expect(ledger.stats()).toEqual({ sessions: 1, entries: 2 });
    expect(ledger.last('a', PATHS[0] as string)?.readAt).toBe(9998);
    expect(ledger.last('a', PATHS[1] as string)?.readAt).toBe(9999);
  });

  it('shares one base among the sessions given a result, and keeps each session its own time and touches', () => {
    const ledger = new SessionLedger({ maxSessions: 8, maxEntries: 8 });
    const path = PATHS[0] as string;
    const base = { facts: factsOf(path, true), range: '', version: 'v1', settled: true };
    ledger.record('a', path, base, 100);
    ledger.record('b', path, base, 200);
    expect(ledger.last('a', path)).toMatchObject({ readAt: 100, version: 'v1' });
    expect(ledger.last('b', path)).toMatchObject({ readAt: 200, version: 'v1' });
    // A touch seen by one session moves its mark alone.
    const held = ledger.range('a', path, '');
    expect(held).toBeDefined();
    ledger.renew('a', path, held as ReadMark, 'v2', true);
    expect(ledger.last('a', path)).toMatchObject({ readAt: 100, version: 'v2' });
    expect(ledger.last('b', path)).toMatchObject({ readAt: 200, version: 'v1' });
    // A mark the session no longer keeps is not renewed in place of the newer one.
    ledger.record('b', path, { ...base, version: 'v3' }, 300);
    ledger.renew('b', path, { ...base, readAt: 200 }, 'v4', true);
    expect(ledger.last('b', path)).toMatchObject({ readAt: 300, version: 'v3' });
  });
});

describe('SessionLedger.renew', () => {
  // A read finds its session's mark, then waits for its stat or its work; meanwhile other reads of
  // the session may record. When it then sees the same content at a new version (a touch), the
  // mark of its read moves on wherever the session keeps it now.
  const baseOf = (path: string, range = '') => ({ facts: factsOf(path, true), range, version: 'v1', settled: true });

  it("renews a mark that a read of another range moved to the session's ranges", () => {
    const ledger = new SessionLedger({ maxSessions: 4, maxEntries: 8 });
    const path = PATHS[0] as string;
    const base = baseOf(path);
    ledger.record('a', path, base, 1);
    const held = ledger.range('a', path, '') as ReadMark;
    ledger.record('a', path, { ...base, range: '1:10' }, 2);
    ledger.renew('a', path, held, 'v2', true);
    expect(ledger.range('a', path, '')).toMatchObject({ version: 'v2', readAt: 1 });
  });

  it('renews a mark found while the session kept arrays, after it came to keep its marks by path', () => {
    const ledger = new SessionLedger({ maxSessions: 10, maxEntries: 30 });
    let clock = 0;
    // Five sessions hold ids 0 to 123, all below what a session's arrays take (`denseLimit(30)`).
    for (const session of ['s0', 's1', 's2', 's3', 's4']) {
      for (let i = 0; i < (session === 's4' ? 4 : 30); i++) ledger.record(session, `/${session}/f${i}`, baseOf(`/${session}/f${i}`), ++clock);
    }
    expect(FileMarks.denseLimit(30)).toBe(124);
    ledger.record('a', '/s0/f0', baseOf('/s0/f0'), ++clock);
    const held = ledger.range('a', '/s0/f0', '') as ReadMark;
    // Its next file takes id 124: the session keeps its marks by path from now on.
    ledger.record('a', '/a/own', baseOf('/a/own'), ++clock);
    ledger.renew('a', '/s0/f0', held, 'v2', true);
    expect(ledger.last('a', '/s0/f0')?.version).toBe('v2');
    expect(ledger.last('s0', '/s0/f0')?.version).toBe('v1');
  });

  it('keeps the version of the last touch seen when two reads found the same mark', () => {
    const ledger = new SessionLedger({ maxSessions: 4, maxEntries: 8 });
    const path = PATHS[0] as string;
    ledger.record('a', path, baseOf(path), 1);
    const first = ledger.range('a', path, '') as ReadMark;
    const second = ledger.range('a', path, '') as ReadMark;
    ledger.renew('a', path, first, 'v2', true);
    ledger.renew('a', path, second, 'v3', true);
    expect(ledger.last('a', path)?.version).toBe('v3');
  });
});

describe('FileMarks', () => {
  const baseOf = (path: string) => ({ facts: factsOf(path, true), range: '', version: 'v', settled: true });

  it('frees a path id once no session holds a mark of its path, and takes none for a session whose ids are far apart', () => {
    const ids = new PathIds();
    const holder = new FileMarks(ids, 300);
    for (let i = 0; i < 300; i++) holder.set(`/tree/file-${i}.ts`, baseOf(`/tree/file-${i}.ts`), i, i + 1);
    expect(ids.size).toBe(300);
    // A second session sharing ten of the files holds the same ids.
    const sharer = new FileMarks(ids, 300);
    for (let i = 0; i < 10; i++) sharer.set(`/tree/file-${i}.ts`, baseOf(`/tree/file-${i}.ts`), i, 400 + i);
    expect(ids.size).toBe(300);
    // A session of its own files: its first new id (300) is past what its arrays take, so it
    // keeps its marks by path and holds no id.
    const own = new FileMarks(ids, 5);
    expect(FileMarks.denseLimit(5)).toBeLessThan(300);
    for (let i = 0; i < 8; i++) own.set(`/worktree/file-${i}.ts`, baseOf(`/worktree/file-${i}.ts`), i, 500 + i);
    expect(ids.size).toBe(300);
    expect(own.size).toBe(5);
    expect(own.get('/worktree/file-7.ts')?.readAt).toBe(7);
    expect(own.get('/worktree/file-2.ts')).toBeUndefined();
    holder.release();
    expect(ids.size).toBe(10);
    sharer.release();
    own.release();
    expect(ids.size).toBe(0);
  });
});
