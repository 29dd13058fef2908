/**
 * Special files: devices (`/dev/zero`, `/dev/urandom`, `/dev/null`, `/dev/stdin`, `/dev/tty`),
 * `/proc/self/*` files that report size 0, FIFOs with and without a writer, a Unix socket,
 * directories, and a permission-denied file. None may block a worker or stream forever.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/index.js';
import { removeTempDir, writeFile } from '../support/temp-dir.js';
import { check, hostileWorkspace, type Expected, type HostileWorkspace } from './harness.js';

let ws: HostileWorkspace;
/** Confined to the hostile workspace. */
let engine: Engine;
/** Rooted at `/`, so devices and kernel files are inside its root: only the kind check refuses them. */
let wide: Engine;
let socketServer: net.Server;
let writer: fs.WriteStream;

beforeAll(async () => {
  ws = hostileWorkspace();
  writeFile(ws.root, 'sub/inner.txt', 'inner\n');
  execFileSync('mkfifo', [path.join(ws.root, 'fifo-idle')]);
  execFileSync('mkfifo', [path.join(ws.root, 'fifo-fed')]);
  // A writer that keeps the FIFO open: a reader that opened it for reading would stream forever.
  const fd = fs.openSync(path.join(ws.root, 'fifo-fed'), fs.constants.O_RDWR);
  writer = fs.createWriteStream('', { fd });
  writer.write('endless\n'.repeat(1000));
  socketServer = net.createServer();
  await new Promise<void>((resolve) => socketServer.listen(path.join(ws.root, 'socket'), resolve));
  engine = await createEngine({ root: ws.root, threads: 1 });
  writeFile(ws.root, 'ok.txt', 'ok, still serving\n');
  wide = await createEngine({ root: '/', threads: 1 });
});

afterAll(async () => {
  writer.destroy();
  await new Promise((resolve) => socketServer.close(resolve));
  await Promise.all([engine.close(), wide.close()]);
  removeTempDir(ws.base);
});

const inRoot: readonly [name: string, path: string, expected: Expected][] = [
  ['a FIFO with no writer', 'fifo-idle', 'not_regular_file'],
  ['a FIFO a writer keeps open and full', 'fifo-fed', 'not_regular_file'],
  ['a Unix socket', 'socket', 'not_regular_file'],
  ['the root directory', '.', 'is_directory'],
  ['a directory', 'sub', 'is_directory'],
  ['a directory with a trailing slash', 'sub/', 'is_directory'],
];

/** Paths under an engine rooted at `/`: each inside its root, each refused by kind. */
const system: readonly [name: string, path: string, expected: Expected][] = [
  ['/dev/zero (endless zeros)', 'dev/zero', 'not_regular_file'],
  ['/dev/urandom (endless random bytes)', 'dev/urandom', 'not_regular_file'],
  ['/dev/null', 'dev/null', 'not_regular_file'],
  ['/dev/tty (opening it could take a terminal)', 'dev/tty', 'not_regular_file'],
  ['/proc/self/status (size 0, content nonetheless)', 'proc/self/status', 'not_regular_file'],
  ['/proc/self/environ (the process environment)', 'proc/self/environ', 'not_regular_file'],
  ['/proc/self/cmdline', 'proc/self/cmdline', 'not_regular_file'],
  ['/proc/self/maps', 'proc/self/maps', 'not_regular_file'],
  ['/proc/self/mem', 'proc/self/mem', 'not_regular_file'],
  ['/proc/cpuinfo', 'proc/cpuinfo', 'not_regular_file'],
  ['/sys/kernel/mm/transparent_hugepage/enabled', 'sys/kernel/mm/transparent_hugepage/enabled', 'not_regular_file'],
];

describe('special files inside the root', () => {
  for (const [name, at, expected] of inRoot) {
    it(`${name}: ${at} -> ${String(expected)}`, async () => {
      await check(engine, { path: at }, expected, 3000);
    });
  }

  it('a FIFO read with allowBinary and media off: fifo-fed -> not_regular_file', async () => {
    await check(engine, { path: 'fifo-fed', allowBinary: true, media: false }, 'not_regular_file', 3000);
  });
});

describe('devices and kernel files (an engine rooted at /)', () => {
  for (const [name, at, expected] of system) {
    it(`${name}: ${at} -> ${String(expected)}`, async () => {
      await check(wide, { path: at, allowBinary: true }, expected, 3000, ws.root);
    });
  }
});

describe('descriptor links (an engine rooted at /)', () => {
  it('/proc/self/fd/N of a FIFO this process holds open -> not_regular_file', async () => {
    const fd = fs.openSync(path.join(ws.root, 'fifo-idle'), fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      await check(wide, { path: `proc/self/fd/${fd}` }, 'not_regular_file', 3000, ws.root);
      await check(wide, { path: `dev/fd/${fd}` }, 'not_regular_file', 3000, ws.root);
    } finally {
      fs.closeSync(fd);
    }
  });

  it('/dev/stdin -> never an endless read: not_found for a pipe or socket (no path), not_regular_file for a tty or /dev/null', async () => {
    // The runner decides what fd 0 is. A pipe's or socket's link names no path ("pipe:[N]").
    let expected: Expected = 'not_found';
    try {
      const target = fs.readlinkSync('/proc/self/fd/0');
      if (target.startsWith('/')) {
        expected = fs.statSync(target).isFile() ? (result) => expect(['text', 'binary']).toContain(result.kind) : 'not_regular_file';
      }
    } catch {
      expected = 'not_found';
    }
    await check(wide, { path: 'dev/stdin' }, expected, 3000, ws.root);
  });
});

describe('permission-denied files', () => {
  it('a mode-000 file -> unreadable (EACCES), read as an unprivileged user; the engine then serves ok.txt', async () => {
    const denied = writeFile(ws.root, 'locked.txt', 'locked\n');
    fs.chmodSync(denied, 0o000);
    // The workspace's temp dirs are private to their creator; the reading user must pass them.
    fs.chmodSync(ws.base, 0o755);
    fs.chmodSync(ws.root, 0o755);
    fs.chmodSync(path.join(ws.root, 'ok.txt'), 0o644);
    const script = fileURLToPath(new URL('./workers/read-as.mjs', import.meta.url));
    // Root reads a mode-000 file, so as root the read runs as `nobody`; otherwise as ourselves.
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const { stdout } = await promisify(execFile)(process.execPath, [script, ws.root, 'locked.txt'], { ...asUser, timeout: 20_000 });
    const { first, next, uid } = JSON.parse(stdout) as { first: { ok: boolean; code?: string; message?: string }; next: { ok: boolean; content?: string }; uid: number };
    expect(uid).not.toBe(0);
    expect(first).toMatchObject({ ok: false, code: 'unreadable' });
    expect(first.message).toContain('locked.txt');
    expect(next).toMatchObject({ ok: true, content: '1\tok, still serving' });
  });
});
