import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine, type ReadErrorCode, type ReadResult } from '../src/index.js';
import { fixturePath } from '../fixtures/index.js';
import { expectReadError } from './support/read-error.js';
import { makeWorkspace, removeTempDir, writeFile } from './support/temp-dir.js';

/** Written into every file the engine must refuse; no answer may ever contain it. */
const SECRET = `secret-${randomUUID()}`;
const FIFOS = ['pipe-1', 'pipe-2', 'pipe-3', 'pipe-4'] as const;

let base = '';
let root = '';
let engine: Engine;

function text(result: ReadResult): string {
  if (result.kind !== 'text') throw new Error(`expected a text result, got ${result.kind}`);
  return result.content;
}

/** The read must reject with `code`, and neither message nor details may leak the secret. */
async function expectRefused(promise: Promise<unknown>, code: ReadErrorCode): Promise<void> {
  const error = await expectReadError(promise, code);
  expect(error.message).not.toContain(SECRET);
  expect(JSON.stringify(error.details)).not.toContain(SECRET);
}

beforeAll(async () => {
  // base/
  //   root/          the workspace
  //   root-evil/     a sibling whose name starts with the root's name
  //   outside/       everything a link must not reach
  ({ base, root } = makeWorkspace());
  writeFile(base, 'outside/secret.txt', SECRET);
  writeFile(base, 'root-evil/secret.txt', SECRET);

  writeFile(root, 'hello.txt', 'hello from inside the root\n');
  writeFile(root, 'sub/file.txt', 'first line of sub/file.txt\nsecond line\n');
  fs.mkdirSync(path.join(root, 'dir'));
  fs.symlinkSync(path.join(base, 'outside', 'secret.txt'), path.join(root, 'link-out.txt'));
  fs.symlinkSync(path.join(base, 'outside'), path.join(root, 'linkdir'));
  fs.symlinkSync('loop-b', path.join(root, 'loop-a'));
  fs.symlinkSync('loop-a', path.join(root, 'loop-b'));
  fs.symlinkSync(path.join('sub', 'file.txt'), path.join(root, 'inner-link.txt'));
  for (const fifo of FIFOS) execFileSync('mkfifo', [path.join(root, fifo)]);

  writeFile(root, '.env', `API_KEY=${SECRET}\n`);
  writeFile(root, '.env.example', 'API_KEY=put-your-key-here\n');
  writeFile(root, 'config/.ENV.local', `API_KEY=${SECRET}\n`);
  writeFile(root, 'id_rsa', `-----BEGIN OPENSSH PRIVATE KEY-----\n${SECRET}\n`);
  writeFile(root, 'a/b.secret', SECRET);
  fs.symlinkSync('.env', path.join(root, 'innocent.txt'));

  engine = await createEngine({ root, threads: 2, deny: ['**/*.secret'] });
});

afterAll(async () => {
  await engine.close();
  removeTempDir(base);
});

describe('containment', () => {
  it('refuses a ../ traversal to a file outside the root', async () => {
    await expectRefused(engine.read({ path: '../outside/secret.txt' }), 'outside_root');
  });

  it('refuses an absolute path outside the root', async () => {
    await expectRefused(engine.read({ path: path.join(base, 'outside', 'secret.txt') }), 'outside_root');
  });

  it('refuses a sibling directory whose name starts with the root name', async () => {
    await expectRefused(engine.read({ path: `${root}-evil/secret.txt` }), 'outside_root');
    await expectRefused(engine.read({ path: '../root-evil/secret.txt' }), 'outside_root');
  });

  it('refuses a symlink that points outside the root', async () => {
    await expectRefused(engine.read({ path: 'link-out.txt' }), 'outside_root');
  });

  it('refuses a path through a symlinked directory that points outside the root', async () => {
    await expectRefused(engine.read({ path: 'linkdir/secret.txt' }), 'outside_root');
  });

  it('answers a symlink loop with unreadable', async () => {
    await expectRefused(engine.read({ path: 'loop-a' }), 'unreadable');
  });

  it('follows a symlink to another file inside the root and reports the canonical target path', async () => {
    const result = await engine.read({ path: 'inner-link.txt' });
    expect(text(result)).toBe('1\tfirst line of sub/file.txt\n2\tsecond line');
    expect(result.path).toBe(fs.realpathSync(path.join(root, 'sub', 'file.txt')));
    expect(result.relativePath).toBe('sub/file.txt');
  });

  it('allows a path with .. segments that stays inside the root', async () => {
    expect(text(await engine.read({ path: 'sub/../hello.txt' }))).toBe('1\thello from inside the root');
  });

  it('allows an absolute path inside the root', async () => {
    expect(text(await engine.read({ path: path.join(root, 'hello.txt') }))).toBe('1\thello from inside the root');
  });

  it('refuses /dev/zero when the root is a workspace', async () => {
    await expectRefused(engine.read({ path: '/dev/zero' }), 'outside_root');
  });

  it('answers not_regular_file for /dev/zero in an engine rooted at /dev, without hanging', async () => {
    const devEngine = await createEngine({ root: '/dev', threads: 1 });
    try {
      await expectRefused(devEngine.read({ path: 'zero' }), 'not_regular_file');
    } finally {
      await devEngine.close();
    }
  });

  it('resolves relative paths against the root, not the process working directory', async () => {
    expect(process.cwd()).not.toBe(root);
    expect(fs.existsSync(path.join(process.cwd(), 'sub', 'file.txt'))).toBe(false);
    expect(text(await engine.read({ path: 'sub/file.txt' }))).toBe('1\tfirst line of sub/file.txt\n2\tsecond line');
    // A path that names a real file relative to the working directory is not found in the root.
    const fromCwd = path.relative(process.cwd(), fixturePath('lf'));
    expect(fs.existsSync(fromCwd)).toBe(true);
    await expectRefused(engine.read({ path: fromCwd }), 'not_found');
  });

  it('reads a file:// URL inside the root and refuses one outside it', async () => {
    const inside = pathToFileURL(path.join(root, 'hello.txt')).href;
    expect(text(await engine.read({ path: inside }))).toBe('1\thello from inside the root');
    const outside = pathToFileURL(path.join(base, 'outside', 'secret.txt')).href;
    await expectRefused(engine.read({ path: outside }), 'outside_root');
  });
});

describe('special files', () => {
  it('answers not_regular_file at once for a FIFO with no writer', async () => {
    await expectRefused(engine.read({ path: 'pipe-1' }), 'not_regular_file');
  });

  it('answers four FIFO reads in flight at once without delaying a normal read', async () => {
    const started = performance.now();
    const fifoReads = FIFOS.map((fifo) => expectRefused(engine.read({ path: fifo }), 'not_regular_file'));
    const normal = engine.read({ path: 'hello.txt' });
    await Promise.all(fifoReads);
    expect(text(await normal)).toBe('1\thello from inside the root');
    // A bound, not a benchmark: a FIFO open that blocked a worker would hang far past this.
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('answers is_directory for a directory', async () => {
    await expectRefused(engine.read({ path: 'dir' }), 'is_directory');
  });
});

describe('request paths', () => {
  it('refuses a path containing a NUL byte as invalid_request', async () => {
    await expectRefused(engine.read({ path: 'hello.txt\0.png' }), 'invalid_request');
  });

  it('refuses an empty path as invalid_request', async () => {
    await expectRefused(engine.read({ path: '' }), 'invalid_request');
    await expectRefused(engine.read({ path: '   ' }), 'invalid_request');
  });

  it('refuses a path longer than maxPathLength as invalid_request', async () => {
    await expectRefused(engine.read({ path: 'a/'.repeat(2100) + 'x.txt' }), 'invalid_request');
  });
});

describe('deny rules', () => {
  it('refuses .env', async () => {
    await expectRefused(engine.read({ path: '.env' }), 'denied');
  });

  it('allows .env.example', async () => {
    expect(text(await engine.read({ path: '.env.example' }))).toBe('1\tAPI_KEY=put-your-key-here');
  });

  it('refuses a .env variant in a subdirectory whatever its case', async () => {
    await expectRefused(engine.read({ path: 'config/.ENV.local' }), 'denied');
  });

  it('refuses a private key named id_rsa', async () => {
    await expectRefused(engine.read({ path: 'id_rsa' }), 'denied');
  });

  it('applies deny rules to the resolved path of a symlink', async () => {
    await expectRefused(engine.read({ path: 'innocent.txt' }), 'denied');
  });

  it('refuses a file matching a configured deny glob', async () => {
    await expectRefused(engine.read({ path: 'a/b.secret' }), 'denied');
  });

  it('refuses a file matching a configured deny glob even when a secret-rule exception covers it', async () => {
    const strict = await createEngine({ root, threads: 1, deny: ['**/.env.example'] });
    try {
      await expectRefused(strict.read({ path: '.env.example' }), 'denied');
    } finally {
      await strict.close();
    }
  });
});
