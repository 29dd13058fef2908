import { describe, expect, it } from 'vitest';
import { FileMarks, PathIds } from '../src/cache/file-marks.js';
import { SessionLedger, type ReadFacts, type ReadMark } from '../src/cache/sessions.js';
import { createRandom } from './support/random.js';
import { ReferenceLedger } from './support/reference-ledger.js';

const SESSIONS = ['a', 'b', 'c', 'd', 'e'];
const PATHS = Array.from({ length: 9 }, (_, i) => `/root/file-${i}.ts`);
const RANGES = ['', '1:10', '20:5'];

function factsOf(path: string, complete: boolean): ReadFacts {
  return { path, relativePath: path.slice(6), size: 10, xxh64: 'ab', sha256: null, startLine: 1, endLine: 2, totalLines: 2, complete };
}

describe('SessionLedger', () => {
  it('answers every query as a plain model of its rules does, through random reads, forgets and evictions', () => {
    for (let seed = 1; seed <= 25; seed++) {
      const random = createRandom(seed);
      // Small bounds, so that sessions and marks are forgotten often.
      const limits = { maxSessions: random.int(1, 4), maxEntries: random.int(1, 5) };
      const ledger = new SessionLedger(limits);
      const model = new ReferenceLedger(limits);
      for (let step = 0; step < 500; step++) {
        const session = random.pick(SESSIONS);
        const where = `seed ${seed}, step ${step}, limits ${JSON.stringify(limits)}`;
        if (random.chance(0.05)) {
          expect(ledger.forget(session), where).toBe(model.forget(session));
        } else {
          const path = random.pick(PATHS);
          const mark: ReadMark = { facts: factsOf(path, random.chance(0.8)), range: random.pick(RANGES), readAt: step, version: `v${random.int(1, 3)}`, settled: random.chance(0.9) };
          ledger.record(session, path, mark);
          model.record(session, path, mark);
        }
        expect(ledger.stats(), where).toEqual(model.stats());
        // Every question, every few steps (each a mark or its absence, the very object kept).
        if (step % 7 !== 0) continue;
        for (const asked of SESSIONS) {
          for (const path of PATHS) {
            expect(ledger.last(asked, path), `${where}: last(${asked}, ${path})`).toEqual(model.last(asked, path));
            for (const range of RANGES) expect(ledger.range(asked, path, range), `${where}: range(${asked}, ${path}, ${range})`).toBe(model.range(asked, path, range));
          }
        }
      }
    }
  });

  it('answers as the model does over a long run with many files, each session past its bound many times', () => {
    const random = createRandom(4242);
    const paths = Array.from({ length: 300 }, (_, i) => `/root/deep/file-${i}.ts`);
    const limits = { maxSessions: 6, maxEntries: 40 };
    const ledger = new SessionLedger(limits);
    const model = new ReferenceLedger(limits);
    for (let step = 0; step < 6000; step++) {
      const session = random.pick(SESSIONS);
      if (random.chance(0.01)) {
        expect(ledger.forget(session)).toBe(model.forget(session));
        continue;
      }
      const path = random.pick(paths);
      const mark: ReadMark = { facts: factsOf(path, random.chance(0.9)), range: random.pick(RANGES), readAt: step, version: 'v', settled: true };
      ledger.record(session, path, mark);
      model.record(session, path, mark);
      if (step % 200 !== 0) continue;
      expect(ledger.stats(), `step ${step}`).toEqual(model.stats());
      for (const asked of SESSIONS) {
        for (const checked of paths.slice(0, 60)) {
          expect(ledger.last(asked, checked), `step ${step}: last(${asked}, ${checked})`).toEqual(model.last(asked, checked));
          expect(ledger.range(asked, checked, ''), `step ${step}: range(${asked}, ${checked})`).toBe(model.range(asked, checked, ''));
        }
      }
    }
  });

  it('answers as the model does when each session reads files of its own (a worktree each) beside a few shared ones', () => {
    // Each session's own paths get ids far from the others', so its marks leave the array for a
    // map by path part-way (see FileMarks); the shared paths' ids are held by several sessions.
    for (let seed = 1; seed <= 6; seed++) {
      const random = createRandom(seed * 97);
      const own = new Map(SESSIONS.map((session) => [session, Array.from({ length: 100 }, (_, i) => `/wt-${session}/src/file-${i}.ts`)]));
      const shared = PATHS.slice(0, 4);
      // Sessions together hold more ids than one session's array takes (`FileMarks.denseLimit`).
      const limits = { maxSessions: random.int(3, 5), maxEntries: random.int(40, 90) };
      const ledger = new SessionLedger(limits);
      const model = new ReferenceLedger(limits);
      for (let step = 0; step < 5000; step++) {
        const session = random.pick(SESSIONS);
        const where = `seed ${seed}, step ${step}, limits ${JSON.stringify(limits)}`;
        if (random.chance(0.01)) {
          expect(ledger.forget(session), where).toBe(model.forget(session));
          continue;
        }
        const path = random.chance(0.2) ? random.pick(shared) : random.pick(own.get(session) ?? []);
        const mark: ReadMark = { facts: factsOf(path, random.chance(0.9)), range: random.pick(RANGES), readAt: step, version: 'v', settled: true };
        ledger.record(session, path, mark);
        model.record(session, path, mark);
        if (step % 100 !== 0) continue;
        expect(ledger.stats(), where).toEqual(model.stats());
        for (const asked of SESSIONS) {
          for (const checked of [...shared, ...(own.get(asked) ?? []), ...(own.get('a') ?? []).slice(0, 5)]) {
            expect(ledger.last(asked, checked), `${where}: last(${asked}, ${checked})`).toEqual(model.last(asked, checked));
            expect(ledger.range(asked, checked, ''), `${where}: range(${asked}, ${checked})`).toBe(model.range(asked, checked, ''));
          }
        }
      }
    }
  });

  it('holds a mark per session and file, however many times the files are read again', () => {
    const ledger = new SessionLedger({ maxSessions: 4, maxEntries: 3 });
    for (let round = 0; round < 10_000; round++) {
      const path = PATHS[round % 2] as string;
      ledger.record('a', path, { facts: factsOf(path, true), range: '', readAt: round, version: 'v', settled: true });
    }
    expect(ledger.stats()).toEqual({ sessions: 1, entries: 2 });
    expect(ledger.last('a', PATHS[0] as string)?.readAt).toBe(9998);
    expect(ledger.last('a', PATHS[1] as string)?.readAt).toBe(9999);
  });
});

describe('FileMarks', () => {
  const markOf = (path: string, readAt: number): ReadMark => ({ facts: factsOf(path, true), range: '', readAt, version: 'v', settled: true, written: 0 });

  it('frees a path id once no session holds a mark of its path, and takes none for a session whose ids are far apart', () => {
    const ids = new PathIds();
    const holder = new FileMarks(ids, 300);
    for (let i = 0; i < 300; i++) holder.set(`/tree/file-${i}.ts`, markOf(`/tree/file-${i}.ts`, i), i + 1);
    expect(ids.size).toBe(300);
    // A second session sharing ten of the files holds the same ids.
    const sharer = new FileMarks(ids, 300);
    for (let i = 0; i < 10; i++) sharer.set(`/tree/file-${i}.ts`, markOf(`/tree/file-${i}.ts`, i), 400 + i);
    expect(ids.size).toBe(300);
    // A session of its own files: its first new id (300) is past what its array takes, so it
    // keeps its marks by path and holds no id.
    const own = new FileMarks(ids, 5);
    expect(FileMarks.denseLimit(5)).toBeLessThan(300);
    for (let i = 0; i < 8; i++) own.set(`/worktree/file-${i}.ts`, markOf(`/worktree/file-${i}.ts`, i), 500 + i);
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
