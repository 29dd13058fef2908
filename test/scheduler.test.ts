import { describe, expect, it } from 'vitest';
import { Scheduler, UNSIZED } from '../src/scheduler.js';
import { shareFloor } from '../src/task-sizing.js';
import { BATCH_BYTES, SOLO_READ_BYTES } from '../src/wire.js';
import { CANCEL, decodeJob, type JobBatch, type JobOutcome, type JobSpec, type PoolAnswer, type WorkerConfig } from '../src/wire.js';
import { compileDenyRules } from '../src/core/deny-rules.js';

// The scheduler is driven here by a stand-in for the worker pool, because what these tests
// watch (the shared cancel flags a worker would poll, a batch that never returns) cannot be
// produced on demand by real workers: a real worker finishes or fails in its own time. The
// engine suites cover the same scheduler over real pools.

interface Held {
  readonly batch: JobBatch;
  readonly finish: (outcomes: PoolAnswer[]) => void;
  readonly fail: (error: Error) => void;
  /** Tells the scheduler its worker has begun the batch. */
  readonly start: () => void;
}

function harness(
  options: { maxQueued?: number; maxQueuedBytes?: number; batchSize?: number; maxInFlight?: number; aloneInFlight?: number; shareFloor?: number; cores?: number; holdMs?: number; startLater?: boolean } = {},
) {
  const batchSize = options.batchSize ?? 4;
  const maxInFlight = options.maxInFlight ?? 2;
  const cancel = new Int32Array(new SharedArrayBuffer(4 * batchSize * Math.max(maxInFlight, options.aloneInFlight ?? 0)));
  const held: Held[] = [];
  const recycled = { count: 0 };
  const scheduler = new Scheduler({
    maxQueued: options.maxQueued ?? 100,
    maxQueuedBytes: options.maxQueuedBytes ?? 1e12,
    batchSize,
    maxInFlight,
    ...(options.aloneInFlight === undefined ? {} : { aloneInFlight: options.aloneInFlight }),
    ...(options.shareFloor === undefined ? {} : { shareFloor: options.shareFloor }),
    ...(options.holdMs === undefined ? {} : { holdMs: options.holdMs }),
    // A core for every thread unless a test says otherwise, whatever machine runs the tests.
    cores: options.cores ?? maxInFlight,
    // The pool stand-in takes every task and begins it at once (`maxInFlight` workers, one batch
    // each), unless `startLater`: then a batch begins when the test calls its `start`.
    cancel,
    stuckGraceMs: 50,
    recycle: () => {
      recycled.count++;
    },
    run: (batch, started) =>
      new Promise<PoolAnswer[]>((resolve, reject) => {
        held.push({ batch, finish: resolve, fail: reject, start: started });
        if (options.startLater !== true) started();
      }),
  });
  const config: WorkerConfig = {
    roots: ['/'],
    deny: compileDenyRules({ denySecrets: true, deny: [] }),
    maxFileBytes: 1,
    maxBinaryBytes: 1,
    maxLineChars: 1,
    settleMs: 0,
    render: { format: { numbered: false }, cutMarker: '' },
    cancel,
  };
  const slotOf = (h: Held, index: number) => decodeJob(h.batch, index, config).slot;
  return { scheduler, cancel, held, slotOf, recycled };
}

const spec = (path: string): JobSpec => ({
  path,
  offset: 1,
  limit: 10,
  column: 0,
  maxBytes: 1000,
  maxTokens: 1000,
  hint: null,
  allowBinary: false,
  sha256: false,
  deadline: Number.MAX_SAFE_INTEGER,
  render: null,
});

const ok = (path: string): JobOutcome => ({
  ok: true,
  value: {
    kind: 'binary',
    path,
    relativePath: path,
    size: 0,
    mtimeMs: 0,
    version: 'v',
    xxh64: '0000000000000000',
    data: '',
    sha256: '',
  },
});

const tick = () => new Promise((resolve) => setImmediate(resolve));
const names = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

describe('Scheduler', () => {
  it('batches reads submitted in the same tick into one task', async () => {
    const { scheduler, held } = harness({ batchSize: 8, maxInFlight: 1 });
    const answers = ['a', 'b', 'c'].map((p) => scheduler.submit(spec(p), 10_000));
    await tick();
    expect(held).toHaveLength(1);
    expect(held[0]?.batch.paths).toEqual(['a', 'b', 'c']);
    held[0]?.finish(['a', 'b', 'c'].map(ok));
    expect((await Promise.all(answers)).every((outcome) => outcome.ok)).toBe(true);
  });

  it('shares the backlog among the free workers: one that frees up while the others work takes all of it, up to batchSize', async () => {
    const { scheduler, held } = harness({ batchSize: 8, maxInFlight: 2 });
    const first = ['a', 'b'].map((name) => scheduler.submit(spec(name), 10_000, undefined, 's', 10));
    await tick();
    // Two free workers, two reads: one each.
    expect(held.map((h) => h.batch.paths)).toEqual([['a'], ['b']]);
    const later = Array.from({ length: 10 }, (_, i) => scheduler.submit(spec(`r${i}`), 10_000, undefined, 's', 10));
    await tick();
    expect(held).toHaveLength(2);
    held[0]?.finish([ok('a')]);
    await first[0];
    await tick();
    // The one free worker takes the backlog up to batchSize, not its share among all workers (5).
    expect(held[2]?.batch.paths).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7']);
    held[1]?.finish([ok('b')]);
    held[2]?.finish(['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7'].map((name) => ok(name)));
    await tick();
    expect(held[3]?.batch.paths).toEqual(['r8', 'r9']);
    held[3]?.finish([ok('r8'), ok('r9')]);
    expect((await Promise.all([...first, ...later])).every((read) => read.ok)).toBe(true);
  });

  it('sets a running read’s shared flag to aborted when its signal fires', async () => {
    const { scheduler, cancel, held, slotOf } = harness();
    const controller = new AbortController();
    const answer = scheduler.submit(spec('a'), 10_000, controller.signal);
    await tick();
    const batch = held[0];
    if (batch === undefined) throw new Error('no batch was sent');
    const slot = slotOf(batch, 0);
    expect(Atomics.load(cancel, slot)).toBe(CANCEL.none);
    controller.abort();
    expect(await answer).toMatchObject({ ok: false, code: 'aborted' });
    expect(Atomics.load(cancel, slot)).toBe(CANCEL.aborted);
    batch.finish([ok('a')]);
  });

  it('sets a running read’s shared flag to timeout when its deadline passes', async () => {
    const { scheduler, cancel, held, slotOf } = harness();
    const answer = scheduler.submit(spec('a'), 20);
    await tick();
    const batch = held[0];
    if (batch === undefined) throw new Error('no batch was sent');
    expect(await answer).toMatchObject({ ok: false, code: 'timeout' });
    expect(Atomics.load(cancel, slotOf(batch, 0))).toBe(CANCEL.timeout);
    batch.finish([ok('a')]);
  });

  it('gives no cancel slot to a new read while the batch holding it is still in a worker', async () => {
    const { scheduler, held, slotOf } = harness({ batchSize: 1, maxInFlight: 2 });
    const controller = new AbortController();
    const first = scheduler.submit(spec('a'), 10_000, controller.signal);
    await tick();
    controller.abort();
    expect(await first).toMatchObject({ ok: false, code: 'aborted' });
    // The first read is answered, but its worker still holds the batch and polls its slot.
    const second = scheduler.submit(spec('b'), 10_000);
    await tick();
    const [a, b] = held;
    if (a === undefined || b === undefined) throw new Error('batches missing');
    expect(slotOf(b, 0)).not.toBe(slotOf(a, 0));
    a.finish([ok('a')]);
    b.finish([ok('b')]);
    expect(await second).toMatchObject({ ok: true });
  });

  it('recycles the workers when a batch outlives every read in it', async () => {
    const { scheduler, held, recycled } = harness();
    const answer = scheduler.submit(spec('a'), 10);
    await tick();
    expect(await answer).toMatchObject({ ok: false, code: 'timeout' });
    expect(held).toHaveLength(1);
    expect(recycled.count).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(recycled.count).toBe(1);
  });

  it('times a batch whose reads were all answered early only from when its worker begins it', async () => {
    // A batch waiting in a worker's port behind another is not stuck, however long that one runs.
    const { scheduler, held, recycled } = harness({ startLater: true });
    const answer = scheduler.submit(spec('a'), 10);
    await tick();
    expect(await answer).toMatchObject({ ok: false, code: 'timeout' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(recycled.count).toBe(0);
    held[0]?.start();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(recycled.count).toBe(1);
  });

  it('sends a second task a worker while one session reads, and one a worker while several do', async () => {
    const { scheduler, held } = harness({ batchSize: 2, maxInFlight: 2, aloneInFlight: 4, holdMs: 60_000 });
    const alone = names('a', 8).map((name) => scheduler.submit(spec(name), 10_000, undefined, 'one'));
    await tick();
    expect(held).toHaveLength(4);
    for (const h of held.splice(0)) h.finish(h.batch.paths.map((path) => ok(path)));
    await Promise.all(alone);
    // Two sessions waiting: the tasks in flight stop at maxInFlight.
    const shared = [...names('b', 6).map((name) => scheduler.submit(spec(name), 10_000, undefined, 'one')), ...names('c', 6).map((name) => scheduler.submit(spec(name), 10_000, undefined, 'two'))];
    await tick();
    expect(held).toHaveLength(2);
    while (held.length > 0) {
      for (const h of held.splice(0)) h.finish(h.batch.paths.map((path) => ok(path)));
      await tick();
    }
    expect((await Promise.all(shared)).every((read) => read.ok)).toBe(true);
    // One session again, but several were reading a moment ago: one task a worker still.
    const soon = names('d', 8).map((name) => scheduler.submit(spec(name), 10_000, undefined, 'one'));
    await tick();
    expect(held).toHaveLength(2);
    while (held.length > 0) {
      for (const h of held.splice(0)) h.finish(h.batch.paths.map((path) => ok(path)));
      await tick();
    }
    await Promise.all(soon);
    // Past that moment (100 ms), two again.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const later = names('e', 8).map((name) => scheduler.submit(spec(name), 10_000, undefined, 'one'));
    await tick();
    expect(held).toHaveLength(4);
    for (const h of held.splice(0)) h.finish(h.batch.paths.map((path) => ok(path)));
    await Promise.all(later);
  });

  it("sends a task that would wait in a busy worker's port only with half a batch, else when a worker frees up", async () => {
    const { scheduler, held } = harness({ batchSize: 8, maxInFlight: 2, aloneInFlight: 4, holdMs: 60_000 });
    const first = names('a', 16).map((name) => scheduler.submit(spec(name), 10_000, undefined, 'one'));
    await tick();
    expect(held.map((h) => h.batch.paths.length)).toEqual([4, 4, 4, 4]);
    const more = names('b', 2).map((name) => scheduler.submit(spec(name), 10_000, undefined, 'one'));
    await tick();
    expect(held).toHaveLength(4);
    // Each worker still holds a task (the one that waited in its port runs now): the two wait on.
    for (const h of held.slice(0, 2)) h.finish(h.batch.paths.map((path) => ok(path)));
    await tick();
    expect(held).toHaveLength(4);
    // A worker with nothing left: they go.
    held[2]?.finish(held[2].batch.paths.map((path) => ok(path)));
    await tick();
    expect(held.map((h) => h.batch.paths)).toHaveLength(5);
    expect(held[4]?.batch.paths).toEqual(['b0', 'b1']);
    for (const h of [held[3], held[4]]) h?.finish(h.batch.paths.map((path) => ok(path)));
    expect((await Promise.all([...first, ...more])).every((read) => read.ok)).toBe(true);
  });

  it("fills idle workers' tasks up to batchSize, and a port's only to half of it", async () => {
    // A session that starts reading then waits behind at most half a batch more in each worker.
    const { scheduler, held } = harness({ batchSize: 8, maxInFlight: 2, aloneInFlight: 4, holdMs: 60_000 });
    const reads = names('a', 40).map((name) => scheduler.submit(spec(name), 10_000, undefined, 'one'));
    await tick();
    expect(held.map((h) => h.batch.paths.length)).toEqual([8, 8, 4, 4]);
    while (held.length > 0) {
      for (const h of held.splice(0)) h.finish(h.batch.paths.map((path) => ok(path)));
      await tick();
    }
    expect((await Promise.all(reads)).every((read) => read.ok)).toBe(true);
  });

  it('does not recycle while a read of the batch is still unanswered', async () => {
    const { scheduler, held, recycled } = harness({ batchSize: 2, maxInFlight: 1 });
    const quick = scheduler.submit(spec('a'), 10);
    const patient = scheduler.submit(spec('b'), 10_000);
    await tick();
    expect(held[0]?.batch.paths).toEqual(['a', 'b']);
    expect(await quick).toMatchObject({ ok: false, code: 'timeout' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(recycled.count).toBe(0);
    held[0]?.finish([ok('a'), ok('b')]);
    expect(await patient).toMatchObject({ ok: true });
  });

  it('retries each read of a batch whose worker died alone, so only the culprit fails', async () => {
    const { scheduler, held } = harness({ batchSize: 3, maxInFlight: 1 });
    const answers = ['a', 'b', 'c'].map((p) => scheduler.submit(spec(p), 10_000));
    await tick();
    held[0]?.fail(new Error('Worker terminated due to reaching memory limit'));
    await tick();
    held[1]?.finish([ok('a')]);
    await tick();
    held[2]?.fail(new Error('Worker terminated due to reaching memory limit'));
    await tick();
    held[3]?.finish([ok('c')]);
    const outcomes = await Promise.all(answers);
    expect(outcomes.map((o) => (o.ok ? 'ok' : o.code))).toEqual(['ok', 'internal', 'ok']);
    expect(held.slice(1).map((h) => h.batch.paths)).toEqual([['a'], ['b'], ['c']]);
  });

  it('answers each of many reads exactly once: run, overloaded or closed', async () => {
    const { scheduler, held } = harness({ maxQueued: 5, batchSize: 2, maxInFlight: 1 });
    let answers = 0;
    const all = Array.from({ length: 20 }, (_, i) =>
      scheduler.submit(spec(String(i)), 10_000).then((outcome) => {
        answers++;
        return outcome;
      }),
    );
    await tick();
    const closing = scheduler.close(1000);
    held[0]?.finish(held[0].batch.paths.map(ok));
    await closing;
    const outcomes = await Promise.all(all);
    expect(answers).toBe(20);
    const codes = outcomes.map((outcome) => (outcome.ok ? 'ok' : outcome.code));
    expect(codes.filter((code) => code === 'overloaded')).toHaveLength(15);
    expect(codes.filter((code) => code === 'ok')).toHaveLength(2);
    expect(codes.filter((code) => code === 'closed')).toHaveLength(3);
  });


  it('spreads the retry hints of a burst turned away in one turn, and forgets the burst once its hints have come due', async () => {
    const { scheduler, held } = harness({ maxQueued: 5, batchSize: 2, maxInFlight: 1 });
    const hintsOf = (outcomes: JobOutcome[]) => outcomes.flatMap((outcome) => (!outcome.ok && outcome.code === 'overloaded' ? [Number(outcome.details.retryAfterMs)] : []));
    const burst = Array.from({ length: 20 }, (_, i) => scheduler.submit(spec(`b${i}`), 10_000));
    const admitted = burst.slice(0, 5);
    const hints = hintsOf(await Promise.all(burst.slice(5)));
    expect(hints).toHaveLength(15);
    // Each read turned away counts the ones turned away before it: later ones are told to wait longer.
    for (let i = 1; i < hints.length; i++) expect(hints[i]).toBeGreaterThan(hints[i - 1] ?? Infinity);
    const first = hints[0] ?? 0;
    expect(first).toBeGreaterThanOrEqual(50);

    // Once the longest hint has passed, a read turned away is told what the first of the burst was.
    await new Promise((resolve) => setTimeout(resolve, Math.max(...hints) + 5));
    // The first batch went to the (held) worker: two more fill the queue again.
    const refill = [scheduler.submit(spec('r0'), 10_000), scheduler.submit(spec('r1'), 10_000)];
    const [late] = hintsOf([await scheduler.submit(spec('late'), 10_000)]);
    expect(late).toBe(first);

    await tick();
    held[0]?.finish(held[0].batch.paths.map(ok));
    await scheduler.close(1000);
    expect((await Promise.all(admitted)).filter((outcome) => outcome.ok)).toHaveLength(2);
    expect((await Promise.all(refill)).map((outcome) => (outcome.ok ? 'ok' : outcome.code))).toEqual(['closed', 'closed']);
  });
  it('answers reads still in a worker with closed once close() has waited its grace period', async () => {
    const { scheduler } = harness();
    const answer = scheduler.submit(spec('a'), 10_000);
    await tick();
    await scheduler.close(20);
    expect(await answer).toMatchObject({ ok: false, code: 'closed' });
  });

  it('serves sessions round-robin: a read of a second session goes in the next batch, not after the first session\'s queue', async () => {
    const { scheduler, held } = harness({ batchSize: 4, maxInFlight: 1 });
    const greedy = Array.from({ length: 40 }, (_, i) => scheduler.submit(spec(`g${i}`), 10_000, undefined, 'greedy'));
    await tick();
    expect(held[0]?.batch.paths).toEqual(['g0', 'g1', 'g2', 'g3']);
    const other = scheduler.submit(spec('other'), 10_000, undefined, 'polite');
    expect(scheduler.stats()).toMatchObject({ lanes: 2, deepestLanes: [{ session: 'greedy', queued: 36 }, { session: 'polite', queued: 1 }] });
    held[0]?.finish(['g0', 'g1', 'g2', 'g3'].map(ok));
    await tick();
    expect(held[1]?.batch.paths).toContain('other');
    for (let sent = 1; sent < held.length; sent++) {
      const batch = held[sent];
      batch?.finish(batch.batch.paths.map(ok));
      await tick();
    }
    expect(held).toHaveLength(11);
    expect((await other).ok).toBe(true);
    expect((await Promise.all(greedy)).every((outcome) => outcome.ok)).toBe(true);
    expect(scheduler.stats().waitMs.max).toBeGreaterThan(0);
  });

  it('bounds admission by bytes, with a retry hint, yet always admits a read alone', async () => {
    const { scheduler, held } = harness({ maxQueuedBytes: 100, maxInFlight: 1 });
    const first = scheduler.submit(spec('a'), 10_000, undefined, 's', 60);
    const refused = await scheduler.submit(spec('b'), 10_000, undefined, 's', 60);
    expect(refused).toMatchObject({ ok: false, code: 'overloaded', details: { bytes: 60 } });
    if (refused.ok) return;
    expect(refused.details.retryAfterMs).toBeGreaterThan(0);
    expect(scheduler.stats().bytesAdmitted).toBe(60);
    await tick();
    held[0]?.finish([ok('a')]);
    expect((await first).ok).toBe(true);
    expect(scheduler.stats().bytesAdmitted).toBe(0);
    const huge = scheduler.submit(spec('huge'), 10_000, undefined, 's', 10_000);
    await tick();
    held[1]?.finish([ok('huge')]);
    expect((await huge).ok).toBe(true);
  });

  describe('with many threads, a task carries at least the share floor while another is out', () => {
    it('sends a thin backlog in tasks of 8, not a sliver to each free worker; a few more wait for a task to come back', async () => {
      // A hold that no timer ends within this test: what ends it here is the task coming back.
      const { scheduler, held } = harness({ batchSize: 32, maxInFlight: 8, holdMs: 60_000 });
      expect(shareFloor(8)).toBe(16);
      const first = names('r', 24).map((name) => scheduler.submit(spec(name), 10_000, undefined, 's', 100));
      await tick();
      // Split by the 8 free workers these would be tasks of 3; 3 reads a thread lower the floor
      // from 16 to 8, not below: three tasks of 8.
      expect(held.map((h) => h.batch.paths)).toEqual([names('r', 8), names('r', 24).slice(8, 16), names('r', 24).slice(16)]);
      const second = names('s', 6).map((name) => scheduler.submit(spec(name), 10_000, undefined, 's', 100));
      await tick();
      expect(held).toHaveLength(3);
      held[0]?.finish(names('r', 8).map(ok));
      const third = names('t', 10).map((name) => scheduler.submit(spec(name), 10_000, undefined, 's', 100));
      await tick();
      // A task came back and more reads came: the 6 that waited and the 10 new go as two of 8.
      expect(held.slice(3).map((h) => h.batch.paths)).toEqual([[...names('s', 6), 't0', 't1'], names('t', 10).slice(2)]);
      for (const h of held.slice(1)) h.finish(h.batch.paths.map(ok));
      expect((await Promise.all([...first, ...second, ...third])).every((read) => read.ok)).toBe(true);
    });

    it('raises the floor with the backlog per thread, up to twice the thread count', async () => {
      const { scheduler, held } = harness({ batchSize: 32, maxInFlight: 8, maxQueued: 400, holdMs: 60_000 });
      // 128 reads on 8 threads: 16 a thread, the floor's ceiling; a task each.
      const first = names('r', 128).map((name) => scheduler.submit(spec(name), 10_000, undefined, 's', 100));
      await tick();
      expect(held.map((h) => h.batch.paths.length)).toEqual([16, 16, 16, 16, 16, 16, 16, 16]);
      // One task back, 112 reads still out, and 12 more: the backlog is still 16 a thread, so
      // the 12 wait for more tasks to come back (at a floor of 8 they would go now).
      held[0]?.finish(held[0].batch.paths.map(ok));
      const second = names('s', 12).map((name) => scheduler.submit(spec(name), 10_000, undefined, 's', 100));
      await tick();
      expect(held).toHaveLength(8);
      for (const h of held.slice(1, 8)) h.finish(h.batch.paths.map(ok));
      await tick();
      // Nothing else in the engine: the floor is 8 again, and the 12 go as one task.
      expect(held.slice(8).map((h) => h.batch.paths)).toEqual([names('s', 12)]);
      held[8]?.finish(names('s', 12).map(ok));
      expect((await Promise.all([...first, ...second])).every((read) => read.ok)).toBe(true);
    });

    it('lowers the floor to the backlog per thread between 8 and 16: 100 reads on 8 threads go as 7 tasks of 13 or more', async () => {
      const { scheduler, held } = harness({ batchSize: 32, maxInFlight: 8, maxQueued: 200, holdMs: 60_000 });
      const reads = names('r', 100).map((name) => scheduler.submit(spec(name), 10_000, undefined, 's', 100));
      await tick();
      // 13 reads a thread: the floor, so 7 tasks (not 8 of 12 or 12 or 13, nor 6 of 16 or 17).
      expect(held.map((h) => h.batch.paths.length)).toEqual([15, 15, 14, 14, 14, 14, 14]);
      for (const h of held) h.finish(h.batch.paths.map(ok));
      expect((await Promise.all(reads)).every((read) => read.ok)).toBe(true);
    });

    it('keeps more threads busy with the floor lowered: 64 reads on 16 threads go as 8 tasks of 8, not 4 of 16', async () => {
      const { scheduler, held } = harness({ batchSize: 32, maxInFlight: 16, holdMs: 60_000 });
      expect(shareFloor(16)).toBe(16);
      const reads = names('r', 64).map((name) => scheduler.submit(spec(name), 10_000, undefined, 's', 100));
      await tick();
      expect(held.map((h) => h.batch.paths.length)).toEqual([8, 8, 8, 8, 8, 8, 8, 8]);
      for (const h of held) h.finish(h.batch.paths.map(ok));
      expect((await Promise.all(reads)).every((read) => read.ok)).toBe(true);
    });

    it('refuses a core count that is not a positive integer', () => {
      for (const cores of [0, -1, 1.5, Number.NaN]) expect(() => harness({ maxInFlight: 8, cores })).toThrow(RangeError);
    });

    it('keeps no more threads busy than there are cores: 64 reads on 16 threads and 2 cores go as 4 tasks of 16', async () => {
      const { scheduler, held } = harness({ batchSize: 32, maxInFlight: 16, cores: 2, holdMs: 60_000 });
      const reads = names('r', 64).map((name) => scheduler.submit(spec(name), 10_000, undefined, 's', 100));
      await tick();
      expect(held.map((h) => h.batch.paths.length)).toEqual([16, 16, 16, 16]);
      for (const h of held) h.finish(h.batch.paths.map(ok));
      expect((await Promise.all(reads)).every((read) => read.ok)).toBe(true);
    });

    it('spreads slow reads over the free workers, one task each, as before', async () => {
      const { scheduler, held } = harness({ batchSize: 32, maxInFlight: 8 });
      const first = names('r', 8).map((name) => scheduler.submit(spec(name), 10_000, undefined, 's', 100));
      await tick();
      expect(held.map((h) => h.batch.paths.length)).toEqual([8]);
      // 8 reads in 48 ms or more: 6 ms a read, far from page-cache speed (FLOOR_TASK_MS).
      await new Promise((resolve) => setTimeout(resolve, 48));
      held[0]?.finish(names('r', 8).map(ok));
      expect((await Promise.all(first)).every((read) => read.ok)).toBe(true);
      const slow = names('s', 8).map((name) => scheduler.submit(spec(name), 10_000, undefined, 's', 100));
      await tick();
      expect(held.slice(1).map((h) => h.batch.paths)).toEqual(names('s', 8).map((name) => [name]));
      for (const h of held.slice(1)) h.finish(h.batch.paths.map(ok));
      expect((await Promise.all(slow)).every((read) => read.ok)).toBe(true);
    });

    it('keeps sharing the backlog among free workers while several sessions wait, as fairness wants', async () => {
      const { scheduler, held } = harness({ batchSize: 32, maxInFlight: 8 });
      const reads = [...names('a', 12), ...names('b', 12)].map((name) => scheduler.submit(spec(name), 10_000, undefined, name.slice(0, 1), 100));
      await tick();
      expect(held.map((h) => h.batch.paths.length)).toEqual([3, 3, 3, 3, 3, 3, 3, 3]);
      for (const h of held) h.finish(h.batch.paths.map(ok));
      expect((await Promise.all(reads)).every((read) => read.ok)).toBe(true);
    });

    it('sends a batch of one read of each session waiting, up to a full one (a swarm), and a quarter batch for a few sessions', async () => {
      const { scheduler, held } = harness({ batchSize: 32, maxInFlight: 2, maxQueued: 400 });
      // 80 sessions with a read each: one round of the lanes fills a task of 32 on each worker.
      const swarm = names('agent', 80).map((name) => scheduler.submit(spec(name), 10_000, undefined, name, 100));
      await tick();
      expect(held.map((h) => h.batch.paths)).toEqual([names('agent', 32), names('agent', 64).slice(32)]);
      for (const h of held) h.finish(h.batch.paths.map(ok));
      await tick();
      // 16 sessions left and a worker free: one round of them.
      expect(held.slice(2).map((h) => h.batch.paths)).toEqual([names('agent', 80).slice(64)]);
      held[2]?.finish(held[2].batch.paths.map(ok));
      expect((await Promise.all(swarm)).every((read) => read.ok)).toBe(true);
      // 12 sessions with 3 reads each, both workers free: a round of the 12 each.
      const twelve = names('s', 12);
      const rounds = [0, 1, 2].flatMap(() => twelve.map((session) => scheduler.submit(spec(session), 10_000, undefined, session, 100)));
      await tick();
      expect(held.slice(3).map((h) => h.batch.paths)).toEqual([twelve, twelve]);
      for (const h of held.slice(3)) h.finish(h.batch.paths.map(ok));
      await tick();
      expect(held.slice(5).map((h) => h.batch.paths)).toEqual([twelve]);
      held[5]?.finish(twelve.map(ok));
      expect((await Promise.all(rounds)).every((read) => read.ok)).toBe(true);
      // Fewer sessions than a batch, each with several reads: tasks of a quarter batch, as before.
      const few = ['a', 'b', 'c'].flatMap((session) => names(session, 20).map((name) => scheduler.submit(spec(name), 10_000, undefined, session, 100)));
      await tick();
      expect(held.slice(6).map((h) => h.batch.paths)).toEqual([
        ['a0', 'b0', 'c0', 'a1', 'b1', 'c1', 'a2', 'b2'],
        ['c2', 'a3', 'b3', 'c3', 'a4', 'b4', 'c4', 'a5'],
      ]);
      // The rest as tasks come back.
      const finished = new Set(held.slice(0, 6));
      const all = Promise.all(few);
      let settled = false;
      void all.then(() => (settled = true));
      while (!settled) {
        for (const h of held) {
          if (finished.has(h)) continue;
          finished.add(h);
          h.finish(h.batch.paths.map(ok));
        }
        await tick();
      }
      expect((await all).every((read) => read.ok)).toBe(true);
    });

    it('holds a few reads no longer than a couple of milliseconds when no task comes back', async () => {
      const { scheduler, held } = harness({ batchSize: 32, maxInFlight: 8 });
      const stuck = names('r', 8).map((name) => scheduler.submit(spec(name), 10_000, undefined, 's', 100));
      await tick();
      const started = performance.now();
      const late = scheduler.submit(spec('late'), 10_000, undefined, 's', 100);
      while (held.length < 2 && performance.now() - started < 1000) await new Promise((resolve) => setTimeout(resolve, 1));
      expect(held[1]?.batch.paths).toEqual(['late']);
      expect(performance.now() - started).toBeLessThan(100);
      held[1]?.finish([ok('late')]);
      expect((await late).ok).toBe(true);
      held[0]?.finish(names('r', 8).map(ok));
      expect((await Promise.all(stuck)).every((read) => read.ok)).toBe(true);
    });

    it('sends a few reads at once when their files are large enough to be worth a task', async () => {
      const { scheduler, held } = harness({ batchSize: 32, maxInFlight: 8 });
      const first = names('r', 8).map((name) => scheduler.submit(spec(name), 10_000, undefined, 's', 100));
      await tick();
      const large = scheduler.submit(spec('large'), 10_000, undefined, 's', BATCH_BYTES / 2);
      await tick();
      expect(held.map((h) => h.batch.paths)).toEqual([names('r', 8), ['large']]);
      for (const h of held) h.finish(h.batch.paths.map(ok));
      expect((await Promise.all([...first, large])).every((read) => read.ok)).toBe(true);
    });
  });

  it('sends a read of a very large file alone, so it delays no small read of its batch', async () => {
    const { scheduler, held } = harness({ batchSize: 8, maxInFlight: 2 });
    const answers = [
      scheduler.submit(spec('small-1'), 10_000, undefined, 's', 100),
      scheduler.submit(spec('big'), 10_000, undefined, 's', SOLO_READ_BYTES),
      scheduler.submit(spec('small-2'), 10_000, undefined, 's', 100),
    ];
    await tick();
    expect(held.map((h) => h.batch.paths)).toEqual([['small-1'], ['big']]);
    for (const h of held.splice(0)) h.finish(h.batch.paths.map(ok));
    await tick();
    expect(held[0]?.batch.paths).toEqual(['small-2']);
    held[0]?.finish([ok('small-2')]);
    expect((await Promise.all(answers)).every((outcome) => outcome.ok)).toBe(true);
  });
  it('sends again, alone, a read its worker deferred, and answers it closed when closing finds it running', async () => {
    // Every read its own task while a worker is free (the rule for one or two threads).
    const { scheduler, held } = harness({ batchSize: 8, maxInFlight: 3, shareFloor: 1 });
    // Two reads out first, one a batch; then 'big' and 'small' share the one free slot's batch.
    const fillers = ['f1', 'f2'].map((name) => scheduler.submit(spec(name), 10_000, undefined, 's', UNSIZED));
    await tick();
    const big = scheduler.submit(spec('big'), 10_000, undefined, 's', UNSIZED);
    const small = scheduler.submit(spec('small'), 10_000, undefined, 's', UNSIZED);
    await tick();
    expect(held.map((h) => h.batch.paths)).toEqual([['f1'], ['f2'], ['big', 'small']]);
    // One slot free again: room to send 'big' again before its first batch's bookkeeping ends.
    held[0]?.finish([ok('f1')]);
    expect((await fillers[0])?.ok).toBe(true);
    await tick();
    // Its worker found 'big' too large to share the batch: it answers its size instead.
    held[2]?.finish([{ resend: SOLO_READ_BYTES }, ok('small')]);
    // A read submitted before that batch's bookkeeping ends may send 'big' out again at once.
    const other = scheduler.submit(spec('other'), 10_000, undefined, 's', 100);
    expect((await small).ok).toBe(true);
    await tick();
    const resent = held.filter((h) => h.batch.paths.includes('big')).at(-1);
    expect(resent?.batch.paths).toEqual(['big']);
    // Now sized, it counts against maxQueuedBytes (beside the 100 bytes of `other`).
    expect(scheduler.stats().bytesAdmitted).toBe(SOLO_READ_BYTES + 100);
    // Closing answers every read still running once its grace is over, 'big' included.
    await scheduler.close(20);
    expect(await big).toMatchObject({ ok: false, code: 'closed', details: { stage: 'running' } });
    const answered = await other;
    expect(answered.ok || answered.code === 'closed').toBe(true);
    expect(await fillers[1]).toMatchObject({ ok: false, code: 'closed' });
  });
  it('answers closed a read its worker deferred after closing began, at once, not at its deadline', async () => {
    const { scheduler, held } = harness({ batchSize: 8, maxInFlight: 2 });
    const big = scheduler.submit(spec('big'), 60_000, undefined, 's', UNSIZED);
    const small = scheduler.submit(spec('small'), 60_000, undefined, 's', UNSIZED);
    // Four reads for two free slots: 'big' shares its batch with 'small'.
    const rest = ['x1', 'x2'].map((name) => scheduler.submit(spec(name), 60_000, undefined, 's', UNSIZED));
    await tick();
    expect(held[0]?.batch.paths).toEqual(['big', 'small']);
    const closing = scheduler.close(5_000);
    // The batch comes back after closing emptied the lanes: 'big' must not wait there for good.
    held[0]?.finish([{ resend: SOLO_READ_BYTES }, ok('small')]);
    held[1]?.finish([ok('x1'), ok('x2')]);
    expect((await Promise.all(rest)).every((read) => read.ok)).toBe(true);
    expect(await big).toMatchObject({ ok: false, code: 'closed' });
    expect((await small).ok).toBe(true);
    await closing;
  });

  it('holds a deferred read to maxQueuedBytes when it comes back sized, with a retry hint', async () => {
    const { scheduler, held } = harness({ batchSize: 8, maxInFlight: 2, maxQueuedBytes: 1024 * 1024 });
    // A read out first; then 'big' and 'small' share the one free slot's batch.
    const filler = scheduler.submit(spec('filler'), 10_000, undefined, 's', UNSIZED);
    await tick();
    const big = scheduler.submit(spec('big'), 10_000, undefined, 's', UNSIZED);
    const small = scheduler.submit(spec('small'), 10_000, undefined, 's', UNSIZED);
    await tick();
    expect(held.map((h) => h.batch.paths)).toEqual([['filler'], ['big', 'small']]);
    // Another read's bytes are admitted meanwhile; 'big' is found to be 1 GiB.
    const sized = scheduler.submit(spec('sized'), 10_000, undefined, 's', 1000);
    held[1]?.finish([{ resend: 1024 ** 3 }, ok('small')]);
    const refused = await big;
    expect(refused).toMatchObject({ ok: false, code: 'overloaded' });
    if (!refused.ok) expect(refused.details.retryAfterMs).toBeGreaterThan(0);
    expect(scheduler.stats().bytesAdmitted).toBe(1000);
    await tick();
    for (const h of [held[0], ...held.slice(2)]) h?.finish(h.batch.paths.map(ok));
    expect((await small).ok && (await sized).ok && (await filler).ok).toBe(true);
  });
});
