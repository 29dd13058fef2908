/**
 * The stat lane (src/stat-lane.ts): the stats behind cache hits are made on the stat thread in
 * busy turns and on the host in quiet ones, with the same answers and the same freshness either
 * way; a stuck or failed stat thread costs its reads a detour through the text pool, never an
 * answer. Real engines, real worker threads, real files.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.js';
import { NOT_STATTED, StatLane, type FileStat, type StatAnswer } from '../src/stat-lane.js';
import { substituteWorkerEntry } from '../src/worker-files.js';
import { makeWorkspace, removeTempDir, writeFile } from './support/temp-dir.js';

const FILES = 64;
const names = Array.from({ length: FILES }, (_, i) => `file-${i}.txt`);
let ws: { base: string; root: string };
let engine: Engine | null = null;

beforeAll(() => {
  ws = makeWorkspace();
  for (const name of names) writeFile(ws.root, name, `${name}\nsecond line\n`);
});

afterEach(async () => {
  await engine?.close();
  engine = null;
  substituteWorkerEntry('stat-worker', null);
  delete process.env.READPOOL_FAULT_STAT;
  delete process.env.READPOOL_FAULT_STAT_MS;
});

afterAll(() => removeTempDir(ws.base));

/** An engine whose stat thread is the fault worker in `mode` (see test/hostile/workers/stat-faults.mjs). */
async function engineWithStatFault(mode: 'silent' | 'crash' | 'boot' | 'slow' | 'hang'): Promise<Engine> {
  process.env.READPOOL_FAULT_STAT = mode;
  substituteWorkerEntry('stat-worker', fileURLToPath(new URL('./hostile/workers/stat-faults.mjs', import.meta.url)));
  engine = await createEngine({ root: ws.root, threads: 1, settleMs: 0 });
  return engine;
}

/**
 * Reads every file once (the result cache fills), then all at once (a busy turn starts the stat
 * thread), and gives the thread time to come up. The files' contents, in order.
 */
async function primed(e: Engine): Promise<string[]> {
  const expected = await oneByOne(e);
  await Promise.all(names.map((name) => contentOf(e, name)));
  await new Promise((resolve) => setTimeout(resolve, 300));
  return expected;
}

const contentOf = async (e: Engine, name: string) => {
  const result = await e.read({ path: name });
  if (result.kind !== 'text') throw new Error(`expected text for ${name}, got ${result.kind}`);
  return result.content;
};

/** Every file's content, read one at a time (each read fills the result cache). */
async function oneByOne(e: Engine): Promise<string[]> {
  const contents: string[] = [];
  for (const name of names) contents.push(await contentOf(e, name));
  return contents;
}

/** Reads every file at once (a busy turn), round after round, until the stat thread has answered one. */
async function untilThreadAnswers(e: Engine): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error('the stat thread never answered');
    const before = e.stats().stat;
    await Promise.all(names.map((name) => e.read({ path: name })));
    const after = e.stats().stat;
    if (after.onThread > before.onThread && after.abandoned === before.abandoned) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Resolves once `condition()` holds, polling every 10 ms; throws after 10 s. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition never held');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('stat lane', () => {
  it('stats on the host when reads come one at a time', async () => {
    engine = await createEngine({ root: ws.root, threads: 1, settleMs: 0 });
    for (const name of names.slice(0, 8)) await contentOf(engine, name);
    for (const name of names.slice(0, 8)) await contentOf(engine, name);
    const { stat, cache } = engine.stats();
    expect(cache.result.hits).toBe(8);
    expect(stat).toEqual({ onHost: 8, onThread: 0, shared: 0, batches: 0, abandoned: 0, waiting: 0, lost: 0, threadUp: false, unavailable: null });
  });

  it('starts its stat thread at the first busy turn, not with the engine, and stats that turn on the host', async () => {
    // Not with the engine: a thread's boot took a fresh engine's first pass over a tree (no
    // stats at all) from 435 to 475 ms on 2 cores, for 0.15 µs a read off a swarm's first pass.
    engine = await createEngine({ root: ws.root, threads: 1, settleMs: 0 });
    const alone = await oneByOne(engine);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(engine.stats().stat.threadUp).toBe(false);
    expect(await Promise.all(names.map((name) => contentOf(engine as Engine, name)))).toEqual(alone);
    expect(engine.stats().stat).toMatchObject({ onHost: FILES, onThread: 0 });
    await until(() => (engine as Engine).stats().stat.threadUp);
    await untilThreadAnswers(engine);
  });

  it('says why when no stat thread can be made, and stats every busy turn on the host with the same answers', async () => {
    // A bare file name: Node refuses it as a worker's path at once (ERR_WORKER_PATH), as it refuses
    // a V8 option listed for a worker, so no thread ever starts.
    substituteWorkerEntry('stat-worker', 'stat-worker.cjs');
    engine = await createEngine({ root: ws.root, threads: 1, settleMs: 0 });
    const expected = await oneByOne(engine);
    for (let round = 0; round < 3; round++) expect(await Promise.all(names.map((name) => contentOf(engine as Engine, name)))).toEqual(expected);
    const { stat, cache } = engine.stats();
    expect(stat.unavailable).toMatch(/^ERR_WORKER_PATH: .*absolute path/);
    expect(stat).toMatchObject({ onHost: 3 * names.length, onThread: 0, batches: 0, lost: 0 });
    expect(cache.result.hits).toBe(3 * names.length);
  });

  it('stats a busy turn on the stat thread, with the answers a one-at-a-time read gives', async () => {
    engine = await createEngine({ root: ws.root, threads: 1, settleMs: 0 });
    const alone = await oneByOne(engine);
    await untilThreadAnswers(engine);
    const before = engine.stats();
    const together = await Promise.all(names.map((name) => contentOf(engine as Engine, name)));
    const after = engine.stats();
    expect(together).toEqual(alone);
    expect(after.cache.result.hits - before.cache.result.hits).toBe(FILES);
    expect(after.stat.onThread - before.stat.onThread).toBe(FILES);
    // Split between the two free places, so the host answers one part while the thread stats the next.
    expect(after.stat.batches - before.stat.batches).toBeGreaterThanOrEqual(2);
    expect(after.stat.onHost).toBe(before.stat.onHost);
  });

  it('sees every write that finished before a read was asked for, on either thread', async () => {
    const name = 'changing.txt';
    writeFile(ws.root, name, 'round -1\n');
    engine = await createEngine({ root: ws.root, threads: 1, settleMs: 0 });
    await untilThreadAnswers(engine);
    for (let round = 0; round < 12; round++) {
      // A new size each round, so each write is a new version whatever the clock's resolution.
      fs.writeFileSync(path.join(ws.root, name), `round ${round}\n${'x'.repeat(round)}\n`);
      const busy = round % 2 === 0;
      const reads = busy ? Array.from({ length: 48 }, () => contentOf(engine as Engine, name)) : [contentOf(engine, name)];
      for (const content of await Promise.all(reads)) expect(content).toContain(`round ${round}\n`);
    }
    expect(engine.stats().stat.onThread).toBeGreaterThan(0);
  });

  it('a stat thread that never answers (stuck in the kernel): its reads and those behind them go to the text pool after 1 s, answered right and recorded', async () => {
    const faulty = await engineWithStatFault('silent');
    const expected = await primed(faulty);
    const started = Date.now();
    // One turn's reads fill both places at the thread; the next turn's wait behind them.
    const earlier = names.map((name, i) => faulty.read({ path: name, session: `s${i % 2}` }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(faulty.stats().stat.waiting).toBe(FILES);
    const behind = names.map((name, i) => faulty.read({ path: name, session: `s${i % 2}` }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(faulty.stats().stat.waiting).toBe(2 * FILES);
    const answers = await Promise.all([...earlier, ...behind]);
    expect(answers.map((answer) => (answer.kind === 'text' ? answer.content : answer.kind))).toEqual([...expected, ...expected]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    // Read by a worker, and recorded as read: an edit tool sees the version the session was given.
    const first = answers[0];
    expect(faulty.lastRead('s0', names[0] as string)?.version).toBe(first?.version);
    const { stat } = faulty.stats();
    expect(stat.abandoned).toBe(2);
    expect(stat.lost).toBe(1);
    expect(stat.waiting).toBe(0);
    expect(faulty.stats().errors).toEqual({});
  }, 20_000);

  it('a slow but healthy file system (6 ms a stat): batches waiting behind others are not taken for stuck', async () => {
    process.env.READPOOL_FAULT_STAT_MS = '6';
    const slow = await engineWithStatFault('slow');
    const expected = await oneByOne(slow);
    await untilThreadAnswers(slow);
    // Four reads of each file in one turn: two batches of 128, the second waiting about 0.8 s
    // behind the first before the thread takes it up.
    const answers = await Promise.all([...names, ...names, ...names, ...names].map((name) => contentOf(slow, name)));
    expect(answers).toEqual([...expected, ...expected, ...expected, ...expected]);
    expect(slow.stats().stat).toMatchObject({ abandoned: 0, lost: 0, waiting: 0 });
  }, 20_000);

  it('a small batch stuck right after large ones is given up on by its own time, not theirs', async () => {
    const faulty = await engineWithStatFault('hang');
    writeFile(ws.root, 'hang.txt', 'a file on a mount about to hang\n');
    const expected = await primed(faulty);
    const hanging = await contentOf(faulty, 'hang.txt');
    // Two batches of 128 reads (each would count as stuck after 1 s and 8 ms a read: 2.02 s),
    // answered; then two of 8 reads (1.06 s), the first of which the thread never answers.
    const many = [...names, ...names, ...names, ...names];
    expect(await Promise.all(many.map((name) => contentOf(faulty, name)))).toEqual([...expected, ...expected, ...expected, ...expected]);
    expect(faulty.stats().stat).toMatchObject({ abandoned: 0, lost: 0 });
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 16 }, () => contentOf(faulty, 'hang.txt')));
    const waited = Date.now() - started;
    expect(answers).toEqual(Array.from({ length: 16 }, () => hanging));
    expect(faulty.stats().stat).toMatchObject({ abandoned: 2, lost: 1 });
    expect(waited).toBeGreaterThanOrEqual(1000);
    expect(waited).toBeLessThan(1700);
  }, 20_000);

  it('a read waiting for its stat answers its abort or its deadline once the stat is given up on', async () => {
    const faulty = await engineWithStatFault('silent');
    await primed(faulty);
    const controller = new AbortController();
    const reads = names.map((name, i) =>
      i === 0 ? faulty.read({ path: name }, { signal: controller.signal }) : i === 1 ? faulty.read({ path: name, timeoutMs: 200 }) : faulty.read({ path: name }),
    );
    setTimeout(() => controller.abort(), 10);
    const settled = await Promise.allSettled(reads);
    const codes = settled.map((entry) => (entry.status === 'rejected' ? (entry.reason as { code?: string }).code : entry.value.kind));
    expect(codes.slice(0, 2)).toEqual(['aborted', 'timeout']);
    expect(codes.slice(2).every((code) => code === 'text')).toBe(true);
    expect(faulty.stats().errors).toEqual({ aborted: 1, timeout: 1 });
  }, 20_000);

  it('a stat thread that fails to start is not started again on every busy turn', async () => {
    const faulty = await engineWithStatFault('boot');
    const expected = await oneByOne(faulty);
    const deadline = Date.now() + 400;
    let turns = 0;
    while (Date.now() < deadline) {
      expect(await Promise.all(names.map((name) => contentOf(faulty, name)))).toEqual(expected);
      turns++;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(turns).toBeGreaterThan(5);
    // One thread tried and lost; the busy turns after it stat on the host until the backoff ends.
    expect(faulty.stats().stat.lost).toBe(1);
    // At most the parts sent before its failure showed.
    expect(faulty.stats().stat.abandoned).toBeLessThanOrEqual(2);
    expect(faulty.stats().errors).toEqual({});
  }, 20_000);

  it('a stat thread that fails: its reads go to the text pool at once, and a fresh thread serves busy turns after a pause', async () => {
    const faulty = await engineWithStatFault('crash');
    const expected = await oneByOne(faulty);
    const started = Date.now();
    const deadline = started + 10_000;
    while (faulty.stats().stat.abandoned === 0) {
      if (Date.now() > deadline) throw new Error('the failing stat thread was never given up on');
      expect(await Promise.all(names.map((name) => contentOf(faulty, name)))).toEqual(expected);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Given up on when it failed, not a second later as a thread that never answers would be.
    expect(Date.now() - started).toBeLessThan(900);
    // The built thread again: the next busy turns are served by it.
    substituteWorkerEntry('stat-worker', null);
    const abandoned = faulty.stats().stat.abandoned;
    await untilThreadAnswers(faulty);
    const before = faulty.stats().stat.onThread;
    expect(await Promise.all(names.map((name) => contentOf(faulty, name)))).toEqual(expected);
    expect(faulty.stats().stat.onThread).toBeGreaterThan(before);
    expect(faulty.stats().stat.abandoned).toBe(abandoned);
    expect(faulty.stats().errors).toEqual({});
  }, 30_000);

  it('answers closed for reads waiting on the stat thread when the engine closes', async () => {
    const faulty = await engineWithStatFault('silent');
    await primed(faulty);
    const waiting = Promise.allSettled(names.map((name) => contentOf(faulty, name)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await faulty.close();
    const settled = await waiting;
    expect(Date.now() - started).toBeLessThan(1500);
    expect(settled.every((entry) => entry.status === 'rejected' && (entry.reason as { code?: string }).code === 'closed')).toBe(true);
  }, 20_000);
  /** Runs `script` (an ES module) in a process of its own with Node options `options`; its stdout. */
  function runScript(script: string, options: string[]): string {
    const child = spawnSync(process.execPath, [...options, script], { encoding: 'utf8', timeout: 20_000 });
    expect(child.error).toBeUndefined();
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    return child.stdout;
  }

  /** An ES module that reads in busy turns until the stat thread has answered, prints the lane's figures, and does not close. */
  const busyScript = () => `
    const { createEngine } = await import(${JSON.stringify(new URL('../dist/src/index.js', import.meta.url).href)});
    const engine = await createEngine({ root: ${JSON.stringify(ws.root)}, threads: 1, settleMs: 0 });
    const names = ${JSON.stringify(names)};
    const deadline = Date.now() + 10000;
    while (engine.stats().stat.onThread === 0 && engine.stats().stat.unavailable === null && Date.now() < deadline) {
      await Promise.all(names.map((name) => engine.read({ path: name })));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    process.stdout.write(JSON.stringify(engine.stats().stat));`;

  it('a program that never closes its engine still exits once its reads are answered, with the stat thread up', () => {
    const script = path.join(ws.base, 'never-closes.mjs');
    fs.writeFileSync(script, busyScript());
    expect(JSON.parse(runScript(script, []))).toMatchObject({ onThread: 64, abandoned: 0, lost: 0, waiting: 0 });
  }, 30_000);

  it('a host run as `node --input-type=module -e` keeps its stat thread (the worker is required or imported, which that option does not touch)', () => {
    expect(JSON.parse(runScript(busyScript(), ['--input-type=module', '-e']))).toMatchObject({ onThread: 64, abandoned: 0, lost: 0, waiting: 0 });
  }, 30_000);

  it('a host run with V8 options keeps its stat thread (a worker refuses them when they are listed for it)', () => {
    const script = path.join(ws.base, 'v8-options.mjs');
    fs.writeFileSync(script, busyScript());
    const v8 = ['--expose-gc', '--max-old-space-size=512'];
    expect(JSON.parse(runScript(script, v8))).toMatchObject({ onThread: 64, abandoned: 0, lost: 0, waiting: 0, unavailable: null });
    expect(JSON.parse(runScript(busyScript(), [...v8, '--input-type=module', '-e']))).toMatchObject({ onThread: 64, abandoned: 0, lost: 0, waiting: 0, unavailable: null });
  }, 30_000);
});

describe('StatLane on its own', () => {
  const statOf = (lane: StatLane, file: string) => new Promise<StatAnswer>((resolve) => lane.stat(file, resolve));
  const expected = (file: string): FileStat | null => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    return stat?.isFile() === true ? { dev: stat.dev, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs } : null;
  };
  const fields = (stat: StatAnswer) => (stat === null || stat === NOT_STATTED ? stat : { dev: stat.dev, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs });

  it('answers each path as a stat on the host would, when paths are renumbered every batch', async () => {
    // Ten numbered paths at most: each batch of 32 starts the numbering over.
    const lane = new StatLane({ maxNumbered: 10 });
    try {
      const files = [...names.map((name) => path.join(ws.root, name)), path.join(ws.root, 'missing.txt'), ws.root];
      const deadline = Date.now() + 10_000;
      while (lane.stats().batches < 6) {
        if (Date.now() > deadline) throw new Error('the stat thread never took a batch');
        // A different mix each round, every path twice.
        const round = [...files, ...files].sort(() => Math.random() - 0.5);
        const answers = await Promise.all(round.map((file) => statOf(lane, file)));
        expect(answers.map(fields)).toEqual(round.map(expected));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(lane.stats().abandoned).toBe(0);
    } finally {
      await lane.close();
    }
  });

  it('stats a path once for all the reads of it in one batch, each answered as a stat on the host would', async () => {
    const lane = new StatLane();
    try {
      const files = names.map((name) => path.join(ws.root, name));
      const deadline = Date.now() + 10_000;
      while (lane.stats().batches === 0) {
        if (Date.now() > deadline) throw new Error('the stat thread never took a batch');
        await Promise.all(files.map((file) => statOf(lane, file)));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const before = lane.stats();
      // Every path four times in one turn, as agents of a swarm reading the same files at once.
      const round = [...files, ...files, ...files, ...files];
      const answers = await Promise.all(round.map((file) => statOf(lane, file)));
      expect(answers.map(fields)).toEqual(round.map(expected));
      const after = lane.stats();
      expect(after.onThread - before.onThread).toBe(round.length);
      // A batch holds each of the FILES paths at most once unshared.
      const batches = after.batches - before.batches;
      expect(after.shared - before.shared).toBeGreaterThanOrEqual(round.length - FILES * batches);
      expect(after.shared - before.shared).toBeGreaterThan(0);
      expect(after.abandoned).toBe(0);
    } finally {
      await lane.close();
    }
  });

  it('answers NOT_STATTED for what waits when closed, and for what is asked after', async () => {
    const lane = new StatLane();
    const waiting = statOf(lane, path.join(ws.root, names[0] as string));
    await lane.close();
    expect(await waiting).toBe(NOT_STATTED);
    expect(await statOf(lane, path.join(ws.root, names[0] as string))).toBe(NOT_STATTED);
  });
});
