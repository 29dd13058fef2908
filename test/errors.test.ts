import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ReadError, createEngine, isReadErrorCode, type Engine, type ReadErrorCode } from '../src/index.js';
import { fixturePath } from '../fixtures/index.js';
import { textPdf } from '../fixtures/media.js';
import { CRAMPED, writeWideFile } from './support/cramped.js';
import { writeGeneratedLines } from './support/generated-file.js';
import { expectReadError, rejectionOf } from './support/read-error.js';
import { makeWorkspace, removeTempDir, writeFile } from './support/temp-dir.js';

const CODES = Object.keys(ERROR_CODES).filter(isReadErrorCode);
/** Words of an instruction: every message must tell a model what to do next. */
const NEXT_STEP = /\b(call|retry|retrying|search|check|ask|list|fix|use)\b|\binstead\b/i;
const BIG_FILE_LINES = 2_000_000; // 100 bytes each: 200 MB

let base = '';
let root = '';
/** The default engine. */
let engine: Engine;
/** maxFileBytes 1024. */
let small: Engine;
/** maxQueued 2. */
let narrow: Engine;
/** Workers capped at a 24 MiB heap, with output caps raised far past it. */
let cramped: Engine;

beforeAll(async () => {
  ({ base, root } = makeWorkspace());
  writeFile(base, 'outside.txt', 'outside the root\n');
  writeFile(root, 'hello.txt', 'hello\n');
  writeFile(root, 'config.json', '{ "name": "readpool" }\n');
  writeFile(root, 'four-kb.txt', `${'x'.repeat(63)}\n`.repeat(64));
  writeFile(root, '.env', 'API_KEY=do-not-show\n');
  fs.mkdirSync(path.join(root, 'dir'));
  fs.copyFileSync(fixturePath('binaryHead'), path.join(root, 'binary-head.bin'));
  fs.copyFileSync(fixturePath('lateNul'), path.join(root, 'late-nul.txt'));
  execFileSync('mkfifo', [path.join(root, 'pipe')]);
  fs.symlinkSync('loop-b', path.join(root, 'loop-a'));
  fs.symlinkSync('loop-a', path.join(root, 'loop-b'));
  writeGeneratedLines(path.join(root, 'big.log'), BIG_FILE_LINES, (n) => `line ${String(n).padStart(8, '0')}: ${'.'.repeat(85)}`);
  writeWideFile(root, 'wide.txt');
  writeFile(root, 'page.png', '<!doctype html>\n<html><body>404 Not Found</body></html>\n');
  writeFile(root, 'locked.pdf', textPdf(1, 'encrypt=aes-256,user-password=secret,owner-password=owner'));

  [engine, small, narrow, cramped] = await Promise.all([
    createEngine({ root, threads: 2 }),
    createEngine({ root, threads: 1, maxFileBytes: 1024 }),
    createEngine({ root, threads: 1, maxQueued: 2 }),
    createEngine({ root, ...CRAMPED }),
  ]);
});

afterAll(async () => {
  await Promise.all([engine.close(), small.close(), narrow.close(), cramped.close()]);
  removeTempDir(base);
});

/** Reads big.log while appending a line to it every millisecond until the read settles. */
async function readWhileAppending(): Promise<ReadError> {
  const file = path.join(root, 'big.log');
  const read = engine.read({ path: 'big.log' });
  let appended = 0;
  const timer = setInterval(() => {
    fs.appendFileSync(file, `appended line ${appended++}\n`);
  }, 1);
  try {
    return await rejectionOf(read);
  } finally {
    clearInterval(timer);
  }
}

/**
 * Fires 50 reads in one tick at the engine that queues at most 2. Each asks for a different
 * limit: identical reads would share one piece of work (single flight) and queue only once.
 */
async function flood(): Promise<PromiseSettledResult<unknown>[]> {
  const reads = Array.from({ length: 50 }, (_, i) => narrow.read({ path: 'hello.txt', limit: 1000 + i }));
  return Promise.allSettled(reads);
}

async function firstOverloaded(): Promise<ReadError> {
  const settled = await flood();
  const refused = settled.find((entry) => entry.status === 'rejected');
  if (refused === undefined) throw new Error('no read of the 50 was refused');
  const reason: unknown = refused.reason;
  if (!(reason instanceof ReadError)) throw new Error(`a refused read rejected with ${String(reason)}, not a ReadError`);
  return reason;
}

async function closedEngineRead(): Promise<ReadError> {
  const closing = await createEngine({ root, threads: 1 });
  await closing.close();
  return rejectionOf(closing.read({ path: 'hello.txt' }));
}

/**
 * One honest way to reach each code through the real engine, real files and real workers.
 * Typed over every code, so a code added to the catalogue fails the typecheck until it has one.
 *
 * `internal` is reached through a real worker failure rather than a fault injected for the
 * test: an engine whose workers are capped at a 24 MiB heap is asked for 48 MB of output, the
 * worker runs out of memory and is terminated, and only that read fails.
 */
const REACHERS: Record<ReadErrorCode, () => Promise<ReadError>> = {
  invalid_request: () => rejectionOf(engine.read({ path: 'hello.txt', offset: 0 })),
  not_found: () => rejectionOf(engine.read({ path: 'config.jsn' })),
  is_directory: () => rejectionOf(engine.read({ path: 'dir' })),
  outside_root: () => rejectionOf(engine.read({ path: '../outside.txt' })),
  denied: () => rejectionOf(engine.read({ path: '.env' })),
  not_regular_file: () => rejectionOf(engine.read({ path: 'pipe' })),
  binary_file: () => rejectionOf(engine.read({ path: 'binary-head.bin' })),
  file_too_large: () => rejectionOf(small.read({ path: 'four-kb.txt' })),
  unreadable: () => rejectionOf(engine.read({ path: 'loop-a' })),
  changed_during_read: readWhileAppending,
  corrupt_media: () => rejectionOf(engine.read({ path: 'page.png' })),
  encrypted: () => rejectionOf(engine.read({ path: 'locked.pdf' })),
  overloaded: firstOverloaded,
  aborted: () => rejectionOf(engine.read({ path: 'hello.txt' }, { signal: AbortSignal.abort() })),
  timeout: () => rejectionOf(engine.read({ path: 'big.log', timeoutMs: 1 })),
  closed: closedEngineRead,
  internal: () => rejectionOf(cramped.read({ path: 'wide.txt' })),
};

const reached = new Map<ReadErrorCode, Promise<ReadError>>();

/** Reaches `code` once per run; both the reach test and the message test use the same error. */
function reach(code: ReadErrorCode): Promise<ReadError> {
  let error = reached.get(code);
  if (error === undefined) {
    error = REACHERS[code]();
    reached.set(code, error);
  }
  return error;
}

describe('the error catalogue', () => {
  it.each(CODES)('reaches %s through the real engine', async (code) => {
    const error = await reach(code);
    expect(error).toBeInstanceOf(ReadError);
    expect(error).toBeInstanceOf(Error);
    expect(error.code, error.message).toBe(code);
  });

  it.each(CODES)('words the %s message so that a model knows what to do next', async (code) => {
    const { message } = await reach(code);
    expect(message.trim().length).toBeGreaterThan(0);
    expect(message).toMatch(NEXT_STEP);
  });

  it('documents exactly the catalogue codes in the README error table, each once', () => {
    const readme = new URL('../README.md', import.meta.url);
    expect(fs.existsSync(readme), 'README.md exists at the repository root').toBe(true);
    const text = fs.readFileSync(readme, 'utf8');
    const heading = /^## Errors[ \t]*$/m.exec(text);
    expect(heading, 'README.md has a "## Errors" section').not.toBeNull();
    const after = text.slice((heading?.index ?? 0) + (heading?.[0].length ?? 0));
    const next = after.search(/^## /m);
    const section = next === -1 ? after : after.slice(0, next);
    const documented = [...section.matchAll(/^\|\s*`([a-z_]+)`\s*\|/gm)].map((match) => match[1]);
    expect(new Set(documented).size, 'no code is documented twice').toBe(documented.length);
    expect([...documented].sort()).toEqual([...CODES].sort());
  });
});

describe('invalid_request', () => {
  it('refuses offset 0 and names the field', async () => {
    const error = await expectReadError(engine.read({ path: 'hello.txt', offset: 0 }), 'invalid_request');
    expect(error.message).toContain('offset');
    expect(error.details.issues).toBeInstanceOf(Array);
  });

  it('refuses an unknown field such as file_path and names it', async () => {
    const request = { path: 'hello.txt', file_path: 'hello.txt' };
    const error = await expectReadError(engine.read(request), 'invalid_request');
    expect(error.message).toContain('file_path');
  });
});

describe('not_found', () => {
  it('suggests the similarly named file for a typo in the extension', async () => {
    const error = await expectReadError(engine.read({ path: 'config.jsn' }), 'not_found');
    expect(error.details.suggestions).toContain('config.json');
    expect(error.message).toContain('config.json');
  });

  it('suggests the file that differs only in case', async () => {
    const error = await expectReadError(engine.read({ path: 'Config.json' }), 'not_found');
    expect(error.details.suggestions).toContain('config.json');
  });

  it('offers a path written with Windows separators with slashes, or what is near it', async () => {
    writeFile(root, 'nested/deeper/settings.yaml', 'a: 1\n');
    const exact = await expectReadError(engine.read({ path: 'nested\\deeper\\settings.yaml' }), 'not_found');
    expect(exact.details.suggestions).toEqual(['nested/deeper/settings.yaml']);
    expect(exact.message).toContain('Did you mean "nested/deeper/settings.yaml"?');
    const typo = await expectReadError(engine.read({ path: 'nested\\deeper\\setings.yaml' }), 'not_found');
    expect(typo.details.suggestions).toEqual(['nested/deeper/settings.yaml']);
  });
});

describe('binary_file', () => {
  it('refuses a file with a NUL in its head and gives its size and sha256', async () => {
    const bytes = fs.readFileSync(fixturePath('binaryHead'));
    const error = await expectReadError(engine.read({ path: 'binary-head.bin' }), 'binary_file');
    expect(error.details.size).toBe(bytes.length);
    expect(error.details.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(error.details.nulAt).toBe(bytes.indexOf(0));
  });

  it('refuses a file whose first NUL comes after the 8 KiB sniff window, never returning mixed text', async () => {
    const bytes = fs.readFileSync(fixturePath('lateNul'));
    expect(bytes.indexOf(0)).toBeGreaterThan(8192);
    const error = await expectReadError(engine.read({ path: 'late-nul.txt' }), 'binary_file');
    expect(error.details.nulAt).toBe(bytes.indexOf(0));
    expect(error.details.size).toBe(bytes.length);
  });
});

describe('file_too_large', () => {
  it('refuses a 4 KB file when maxFileBytes is 1024 and names the limit', async () => {
    const error = await expectReadError(small.read({ path: 'four-kb.txt' }), 'file_too_large');
    expect(error.details).toMatchObject({ size: 4096, limit: 1024, limitName: 'maxFileBytes' });
  });
});

describe('scheduling errors', () => {
  it('refuses reads beyond maxQueued with overloaded and a retry hint, and answers each of 50 reads once', async () => {
    const answeredBefore = narrow.stats().answered;
    const settled = await flood();
    expect(settled).toHaveLength(50);
    const fulfilled = settled.filter((entry) => entry.status === 'fulfilled');
    const refused = settled.flatMap((entry): unknown[] => (entry.status === 'rejected' ? [entry.reason] : []));
    expect(fulfilled.length).toBeGreaterThanOrEqual(2);
    expect(refused.length).toBeGreaterThan(0);
    for (const error of refused) {
      expect(error).toBeInstanceOf(ReadError);
      if (!(error instanceof ReadError)) continue;
      expect(error.code).toBe('overloaded');
      expect(error.details.retryAfterMs).toBeGreaterThan(0);
    }
    expect(narrow.stats().answered - answeredBefore).toBe(50);
  });

  it('answers overloaded for a read the byte admission refuses at once, beside one it admitted', async () => {
    // Sized reads (paths the cache knows, changed since; settleMs 0 lets fresh versions be cached):
    // the first is admitted alone, the second would take the bytes queued past maxQueuedBytes and
    // is refused while its work is started, before its caller waits for that work.
    const bytes = await createEngine({ root, threads: 1, batchSize: 1, maxQueuedBytes: 300, settleMs: 0 });
    try {
      writeFile(root, 'sized-a.txt', 'a'.repeat(199) + '\n');
      writeFile(root, 'sized-b.txt', 'b'.repeat(199) + '\n');
      await Promise.all([bytes.read({ path: 'sized-a.txt' }), bytes.read({ path: 'sized-b.txt' })]);
      writeFile(root, 'sized-a.txt', 'A'.repeat(249) + '\n');
      writeFile(root, 'sized-b.txt', 'B'.repeat(249) + '\n');
      const [first, second] = await Promise.allSettled([bytes.read({ path: 'sized-a.txt' }), bytes.read({ path: 'sized-b.txt' })]);
      expect(first.status).toBe('fulfilled');
      const error: unknown = second.status === 'rejected' ? second.reason : null;
      expect(error).toBeInstanceOf(ReadError);
      expect((error as ReadError).code).toBe('overloaded');
      expect((error as ReadError).details.retryAfterMs).toBeGreaterThan(0);
    } finally {
      await bytes.close();
    }
  });

  it('answers aborted for a signal aborted before the call', async () => {
    const controller = new AbortController();
    controller.abort();
    await expectReadError(engine.read({ path: 'hello.txt' }, { signal: controller.signal }), 'aborted');
  });

  it('answers aborted for a signal aborted right after the call', async () => {
    const controller = new AbortController();
    const read = engine.read({ path: 'big.log' }, { signal: controller.signal });
    controller.abort();
    await expectReadError(read, 'aborted');
  });

  it('answers timeout when a read of a large file overruns timeoutMs', async () => {
    const error = await expectReadError(engine.read({ path: 'big.log', timeoutMs: 1 }), 'timeout');
    expect(error.details.timeoutMs).toBe(1);
  });

  it('answers closed for a read after close()', async () => {
    const error = await closedEngineRead();
    expect(error.code).toBe('closed');
  });

  it('answers queued reads with closed when close() is called, and lets running ones finish', async () => {
    // Twenty scans of big.log exceed the default byte admission (2 GiB): raise it, this test is about close().
    const closing = await createEngine({ root, threads: 1, batchSize: 1, maxQueuedBytes: 2 ** 40 });
    // Distinct requests (by limit), since identical ones would share one piece of work.
    const reads = Promise.allSettled(Array.from({ length: 20 }, (_, i) => closing.read({ path: 'big.log', limit: 1000 + i })));
    await nextTurn();
    const { queued, running } = closing.stats();
    expect(queued + running).toBe(20);
    expect(queued).toBeGreaterThan(0);
    await closing.close();
    const settled = await reads;
    expect(settled).toHaveLength(20);
    const closed = settled.filter((entry) => entry.status === 'rejected' && entry.reason instanceof ReadError && entry.reason.code === 'closed');
    const finished = settled.filter((entry) => entry.status === 'fulfilled');
    // Every queued read is answered closed; running ones finish, unless a very slow machine
    // keeps them past close()'s grace period, when they too are answered closed.
    expect(closed.length).toBeGreaterThanOrEqual(queued);
    expect(finished.length).toBeLessThanOrEqual(running);
    expect(finished.length, 'running reads finish within the 5 s grace').toBeGreaterThan(0);
    expect(closed.length + finished.length).toBe(20);
  });
});

describe('read-time errors', () => {
  it('answers changed_during_read when the file grows while it is read', async () => {
    const error = await reach('changed_during_read');
    expect(error.code).toBe('changed_during_read');
  });

  it('answers unreadable for a loop of symbolic links', async () => {
    const error = await expectReadError(engine.read({ path: 'loop-a' }), 'unreadable');
    expect(error.details.errno).toBe('ELOOP');
    expect(error.message).toContain('loop of symbolic links');
  });
});
