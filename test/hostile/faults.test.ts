/**
 * Fault injection through the real pools: real worker files (test/hostile/workers/) stand in
 * for the built entries and misbehave on cue. A text worker that exits mid-task, one that
 * exceeds its heap limit, one that fails at start-up (once, and always), a task that overruns
 * its deadline (alone and shared by two callers), a media worker killed during a render, and
 * one out of heap. Each fails only its own request with a typed error; the engine keeps serving.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, afterAll, describe, expect, it, vi } from 'vitest';
import { textPdf } from '../../fixtures/media.js';
import { createEngine, type Engine, type EngineOptions } from '../../src/index.js';
import { substituteWorkerEntry } from '../../src/worker-files.js';
import { removeTempDir, writeFile } from '../support/temp-dir.js';
import { answerOf, expectNoLeak, expectServing, hostileWorkspace, type Answer, type HostileWorkspace } from './harness.js';

const worker = (name: string) => fileURLToPath(new URL(`./workers/${name}`, import.meta.url));

let ws: HostileWorkspace;
let engine: Engine | null = null;

beforeAll(() => {
  ws = hostileWorkspace();
  for (const name of ['exit-mid-task.txt', 'throws.txt', 'heap-bomb.txt', 'overrun.txt', 'overrun-shared.txt', 'fine-1.txt', 'fine-2.txt']) writeFile(ws.root, name, `${name}\n`);
  const pdf = textPdf(3);
  for (const name of ['kill-during-render.pdf', 'heap-bomb.pdf', 'queued-1.pdf', 'queued-2.pdf']) writeFile(ws.root, name, pdf);
});

afterEach(async () => {
  await engine?.close();
  engine = null;
  substituteWorkerEntry('text-worker', null);
  substituteWorkerEntry('media-worker', null);
  delete process.env.READPOOL_FAULT_STARTS;
});

afterAll(() => removeTempDir(ws.base));

async function faultyEngine(entries: { text?: string; media?: string }, options: Partial<EngineOptions> = {}): Promise<Engine> {
  if (entries.text !== undefined) substituteWorkerEntry('text-worker', worker(entries.text));
  if (entries.media !== undefined) substituteWorkerEntry('media-worker', worker(entries.media));
  engine = await createEngine({ root: ws.root, threads: 1, ...options });
  return engine;
}

function codeOf(answer: Answer): string {
  expectNoLeak(answer.ok ? answer.result : answer.error);
  return answer.ok ? answer.result.kind : answer.error.code;
}

describe('faults in the text pool', () => {
  it('a worker that exits mid-task: its read -> internal; reads beside it -> text; the engine serves on', async () => {
    const e = await faultyEngine({ text: 'text-faults.mjs' });
    const [culprit, first, second] = await Promise.all([
      answerOf(e, { path: 'exit-mid-task.txt' }, 10_000),
      answerOf(e, { path: 'fine-1.txt' }, 10_000),
      answerOf(e, { path: 'fine-2.txt' }, 10_000),
    ]);
    expect([codeOf(culprit), codeOf(first), codeOf(second)]).toEqual(['internal', 'text', 'text']);
    if (!culprit.ok) expect(culprit.error.details.message).toContain('exited');
    await expectServing(e);
  });

  it('a handler that throws on a batch: its read -> internal with the error; reads that shared the batch -> text; the thread serves on', async () => {
    const e = await faultyEngine({ text: 'text-faults.mjs' });
    const [culprit, first, second] = await Promise.all([
      answerOf(e, { path: 'throws.txt' }, 10_000),
      answerOf(e, { path: 'fine-1.txt' }, 10_000),
      answerOf(e, { path: 'fine-2.txt' }, 10_000),
    ]);
    expect([codeOf(culprit), codeOf(first), codeOf(second)]).toEqual(['internal', 'text', 'text']);
    if (!culprit.ok) expect(String(culprit.error.details.message)).toContain('handler failure injected');
    await expectServing(e);
  });

  it('an entry that exports no batch handler: reads -> internal naming the entry, within their deadline, never a hang', async () => {
    const e = await faultyEngine({ text: 'text-no-handler.mjs' });
    const answer = await answerOf(e, { path: 'fine-1.txt', timeoutMs: 8000 }, 9000);
    expect(codeOf(answer)).toBe('internal');
    if (!answer.ok) expect(String(answer.error.details.message)).toMatch(/text-no-handler\.mjs exports no batch handler/);
  });

  it('a worker over its heap limit (workerHeapMb 32): its read -> internal naming memory; reads beside it -> text', async () => {
    const e = await faultyEngine({ text: 'text-faults.mjs' }, { workerHeapMb: 32 });
    const [culprit, beside] = await Promise.all([answerOf(e, { path: 'heap-bomb.txt' }, 20_000), answerOf(e, { path: 'fine-1.txt' }, 20_000)]);
    expect([codeOf(culprit), codeOf(beside)]).toEqual(['internal', 'text']);
    if (!culprit.ok) expect(String(culprit.error.details.message)).toMatch(/memory/i);
    await expectServing(e);
  });

  it('a worker that fails at start-up once: the pool is replaced before any request, then serves', async () => {
    const counter = path.join(ws.base, 'starts-once');
    fs.writeFileSync(counter, '1');
    process.env.READPOOL_FAULT_STARTS = counter;
    const e = await faultyEngine({ text: 'text-startup-fails.mjs' });
    // No request yet: the replacement worker starts on its own.
    const deadline = Date.now() + 10_000;
    while (fs.readFileSync(counter, 'utf8') !== '0' || startsLogged(counter) < 2) {
      if (Date.now() > deadline) throw new Error(`the pool was not replaced: ${startsLogged(counter)} start(s)`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(startsLogged(counter)).toBeGreaterThanOrEqual(2);
    await expectServing(e);
  });

  it('a worker that always fails at start-up: reads -> internal, within their deadline, never a hang', async () => {
    const counter = path.join(ws.base, 'starts-always');
    fs.writeFileSync(counter, '1000000');
    process.env.READPOOL_FAULT_STARTS = counter;
    const e = await faultyEngine({ text: 'text-startup-fails.mjs' });
    const answer = await answerOf(e, { path: 'fine-1.txt', timeoutMs: 8000 }, 9000);
    expect(codeOf(answer)).toBe('internal');
    // The failure itself, or the stop of the pool it broke (the read's retry ran there).
    if (!answer.ok) expect(String(answer.error.details.message)).toMatch(/start-up failure injected|Terminating worker thread/);
  });

  it('a worker that always fails at start-up: ready() rejects with the failure, never a hang', async () => {
    const counter = path.join(ws.base, 'starts-always-ready');
    fs.writeFileSync(counter, '1000000');
    process.env.READPOOL_FAULT_STARTS = counter;
    const e = await faultyEngine({ text: 'text-startup-fails.mjs' });
    await expect(e.ready()).rejects.toThrow(/start-up failure injected/);
  });

  it('a task that overruns its deadline (spins 4 s, timeoutMs 500): -> timeout with its stage, within 1.5 s; the engine serves on', async () => {
    const e = await faultyEngine({ text: 'text-faults.mjs' });
    const started = Date.now();
    const answer = await answerOf(e, { path: 'overrun.txt', timeoutMs: 500 }, 1500);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(codeOf(answer)).toBe('timeout');
    if (!answer.ok) expect(answer.error.details).toMatchObject({ timeoutMs: 500, stage: 'running' });
    await expectServing(e);
  });

  it('a worker answering in an older shape (no time after its outcomes): each read -> internal naming a stale build, none decoded wrongly', async () => {
    const e = await faultyEngine({ text: 'text-old-shape.mjs' });
    const answers = await Promise.all(['fine-1.txt', 'fine-2.txt'].map((name) => answerOf(e, { path: name }, 10_000)));
    expect(answers.map(codeOf)).toEqual(['internal', 'internal']);
    for (const answer of answers) if (!answer.ok) expect(String(answer.error.details.message)).toMatch(/unexpected shape.*npm run build/);
    expect(e.stats().paceMs).toBe(0);
  });

  it('a read that would wait to share a task waits no longer when that task overruns: a free worker answers it at once', async () => {
    // Four threads: while a task is out, a few reads wait for it to come back to share the next
    // one (see shareFloor), but only for a couple of milliseconds.
    const e = await faultyEngine({ text: 'text-faults.mjs' }, { threads: 4 });
    await expectServing(e);
    // Every thread up first: the read below needs a free one, and four threads starting on two
    // busy cores once took seconds (the read then waited out the overrun: 3.9 s).
    await vi.waitFor(() => expect(e.stats().text.ready).toBe(4), { timeout: 10_000 });
    const overrun = answerOf(e, { path: 'overrun.txt', timeoutMs: 3000 }, 5000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const fine = await answerOf(e, { path: 'fine-1.txt' }, 5000);
    expect(codeOf(fine)).toBe('text');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(codeOf(await overrun)).toBe('timeout');
  });

  it('an overrunning read shared by two callers (single flight): each -> timeout with timeoutMs and stage', async () => {
    const e = await faultyEngine({ text: 'text-faults.mjs' });
    const answers = await Promise.all([
      answerOf(e, { path: 'overrun-shared.txt', timeoutMs: 400 }, 1500),
      answerOf(e, { path: 'overrun-shared.txt', timeoutMs: 600 }, 1500),
    ]);
    expect(answers.map(codeOf)).toEqual(['timeout', 'timeout']);
    expect(answers.map((answer) => (answer.ok ? null : answer.error.details))).toEqual([
      { timeoutMs: 400, stage: 'running' },
      { timeoutMs: 600, stage: 'running' },
    ]);
    expect(e.stats().cache.singleFlight.joins).toBeGreaterThanOrEqual(1);
    await expectServing(e);
  });
});

describe('faults in the media pool', () => {
  it('a media worker killed during a render: its read -> internal; the reads queued behind it render; the next read renders', async () => {
    const e = await faultyEngine({ media: 'media-faults.mjs' });
    const answers = await Promise.all([
      answerOf(e, { path: 'kill-during-render.pdf', pages: '2' }, 15_000),
      answerOf(e, { path: 'queued-1.pdf', pages: '2' }, 15_000),
      answerOf(e, { path: 'queued-2.pdf', pages: '3' }, 15_000),
    ]);
    expect(answers.map(codeOf)).toEqual(['internal', 'pdf', 'pdf']);
    expect(codeOf(await answerOf(e, { path: 'queued-1.pdf', pages: '1' }, 15_000))).toBe('pdf');
    await expectServing(e);
  });

  it('a media worker over its heap limit (workerHeapMb 64): its read -> internal naming memory; the read queued behind it renders', async () => {
    const e = await faultyEngine({ media: 'media-faults.mjs' }, { workerHeapMb: 64 });
    const [culprit, queued] = await Promise.all([
      answerOf(e, { path: 'heap-bomb.pdf', pages: '1' }, 20_000),
      answerOf(e, { path: 'queued-2.pdf', pages: '1' }, 20_000),
    ]);
    expect([codeOf(culprit), codeOf(queued)]).toEqual(['internal', 'pdf']);
    if (!culprit.ok) expect(String(culprit.error.details.message)).toMatch(/memory/i);
    await expectServing(e);
  });
});

function startsLogged(counter: string): number {
  try {
    return fs.readFileSync(`${counter}.log`, 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}
