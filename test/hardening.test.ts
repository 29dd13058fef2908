import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.js';
import { CRAMPED, writeWideFile } from './support/cramped.js';
import { writeGeneratedLines } from './support/generated-file.js';
import { expectReadError } from './support/read-error.js';
import { makeWorkspace, removeTempDir, writeFile } from './support/temp-dir.js';

// Hostile and malformed inputs found in review, each through the real engine and workers.

let base = '';
let root = '';
let engine: Engine;

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

beforeAll(async () => {
  ({ base, root } = makeWorkspace());
  writeFile(base, 'outside/secret-plans.txt', 'outside\n');
  fs.symlinkSync(path.join(base, 'outside'), path.join(root, 'linkdir'));
  writeFile(root, '.env', 'TOKEN=1\n');
  writeFile(root, '.env.pub', 'TOKEN=2\n');
  writeFile(root, '.env.example', 'TOKEN=\n');
  writeFile(root, '.envrc', 'use nix\n');
  writeFile(root, 'home/.ssh/id_rsa.pub', 'ssh-ed25519 AAAA\n');
  writeFile(root, 'home/.ssh/id_rsa', 'PRIVATE\n');
  fs.symlinkSync('nowhere', path.join(root, 'dangling'));
  fs.symlinkSync('.env', path.join(root, 'env-link.txt'));
  fs.symlinkSync('/etc/hostname', path.join(root, 'host-link.txt'));
  writeFile(root, 'env-notes.txt', 'notes\n');
  writeFile(root, 'utf16-nul.txt', utf16le('text\0more\n'));
  writeFile(root, 'utf32.txt', Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.from('a\0\0\0', 'latin1')]));
  writeFile(root, 'double-bom.txt', utf16le('\ufeffhello\n'));
  writeFile(root, 'hello.txt', 'hello\n');
  writeWideFile(root, 'wide.txt');
  engine = await createEngine({ root, threads: 1 });
});

afterAll(async () => {
  await engine.close();
  removeTempDir(base);
});

describe('suggestions for a missing file', () => {
  it('offer nothing from a linked directory that leads outside the root', async () => {
    const error = await expectReadError(engine.read({ path: 'linkdir/secret-plan.txt' }), 'not_found');
    expect(error.details.suggestions).toEqual([]);
    expect(error.message).not.toContain('secret-plans');
  });

  it('never offer a name the deny rules refuse', async () => {
    // '.env' and '.envrc' are both one edit from '.envr'; only the readable one is offered.
    const error = await expectReadError(engine.read({ path: '.envr' }), 'not_found');
    expect(error.details.suggestions).toContain('.envrc');
    expect(error.details.suggestions).not.toContain('.env');
  });

  it('never offer a link whose target is denied or outside the root', async () => {
    const error = await expectReadError(engine.read({ path: 'env-link.tx' }), 'not_found');
    expect(error.details.suggestions).not.toContain('env-link.txt');
    const outside = await expectReadError(engine.read({ path: 'host-link.tx' }), 'not_found');
    expect(outside.details.suggestions).not.toContain('host-link.txt');
  });

  it('offer paths as the caller would send them, through an in-root linked directory', async () => {
    writeFile(root, 'real-dir/notes.md', 'n\n');
    fs.symlinkSync('real-dir', path.join(root, 'alias-dir'));
    const error = await expectReadError(engine.read({ path: 'alias-dir/note.md' }), 'not_found');
    expect(error.details.suggestions).toContain('alias-dir/notes.md');
  });

  it('never offer the missing name itself (a dangling link)', async () => {
    const error = await expectReadError(engine.read({ path: 'dangling' }), 'not_found');
    expect(error.details.suggestions).not.toContain('dangling');
  });
});

describe('secret rules', () => {
  it('let an exception lift only its own rule: .env.pub stays denied', async () => {
    await expectReadError(engine.read({ path: '.env.pub' }), 'denied');
  });

  it('serve templates and public keys, and deny the private key beside them', async () => {
    await expect(engine.read({ path: '.env.example' })).resolves.toMatchObject({ kind: 'text' });
    await expect(engine.read({ path: 'home/.ssh/id_rsa.pub' })).resolves.toMatchObject({ kind: 'text' });
    await expectReadError(engine.read({ path: 'home/.ssh/id_rsa' }), 'denied');
  });
});

describe('UTF-16 and UTF-32', () => {
  it('answers binary_file for a UTF-16 file holding U+0000', async () => {
    await expectReadError(engine.read({ path: 'utf16-nul.txt' }), 'binary_file');
  });

  it('answers binary_file for UTF-32, which is not decoded', async () => {
    await expectReadError(engine.read({ path: 'utf32.txt' }), 'binary_file');
  });

  it('keeps a second byte-order mark as text instead of dropping it', async () => {
    const result = await engine.read({ path: 'double-bom.txt' });
    expect(result.kind === 'text' && result.content).toBe('1\t\ufeffhello');
  });
});

describe('malformed calls', () => {
  it('refuses a signal that is not an AbortSignal, and nothing throws later', async () => {
    // A short deadline: had the malformed call left a timer behind, it would fire (and throw,
    // failing the run as an uncaught error) during the wait below.
    const quick = await createEngine({ root, threads: 1, timeoutMs: 30 });
    try {
      const call = { signal: { aborted: false } } as unknown as { signal: AbortSignal };
      await expectReadError(quick.read({ path: 'hello.txt' }, call), 'invalid_request');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(quick.stats()).toMatchObject({ queued: 0, running: 0 });
    } finally {
      await quick.close();
    }
  });

  it('refuses a NUL hidden in a file:// URL as %00', async () => {
    const url = `${pathToFileURL(path.join(root, 'hello.txt')).href}%00.txt`;
    await expectReadError(engine.read({ path: url }), 'invalid_request');
  });

  it('refuses a timeoutMs a timer cannot hold, naming the option', async () => {
    await expect(createEngine({ root, timeoutMs: 2 ** 31 })).rejects.toThrow(/options\.timeoutMs/);
  });

  it('refuses a maxBinaryBytes larger than base64 can be built for', async () => {
    await expect(createEngine({ root, maxBinaryBytes: 2 ** 32 })).rejects.toThrow(/options\.maxBinaryBytes/);
  });
});

describe('a worker that runs out of memory', () => {
  it('fails only its own read, and the next read on the same engine succeeds', async () => {
    const cramped = await createEngine({ root, ...CRAMPED });
    try {
      // Sent in one tick, the two reads share a batch and so the worker that dies.
      const [wide, small] = await Promise.allSettled([cramped.read({ path: 'wide.txt' }), cramped.read({ path: 'hello.txt' })]);
      expect(wide.status === 'rejected' && wide.reason instanceof Error && 'code' in wide.reason && wide.reason.code).toBe('internal');
      expect(small.status).toBe('fulfilled');
      await expect(cramped.read({ path: 'hello.txt' })).resolves.toMatchObject({ kind: 'text', content: '1\thello' });
    } finally {
      await cramped.close();
    }
  });
});

describe('kernel and special files', () => {
  it('refuses /proc pseudo-files even when the root is /', async () => {
    const everything = await createEngine({ root: '/', threads: 1 });
    try {
      const error = await expectReadError(everything.read({ path: 'proc/self/environ' }), 'not_regular_file');
      expect(error.details.type).toBe('pseudo-file');
      await expectReadError(everything.read({ path: 'dev/zero' }), 'not_regular_file');
    } finally {
      await everything.close();
    }
  });

  it('answers not_regular_file for a unix socket', async () => {
    const socket = path.join(root, 'agent.sock');
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      const error = await expectReadError(engine.read({ path: 'agent.sock' }), 'not_regular_file');
      expect(error.details.type).toBe('socket');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

/**
 * Run by a child node process: cuts the last 4096 bytes off argv[1], puts them back, and again,
 * pausing 0.2 ms a round, until killed. Prints 'ready' once the first round is done. Stops by
 * itself once its parent (argv[2]) is gone or a minute has passed, so that a test run killed
 * before its \`finally\` leaves no process behind.
 */
const KEEP_CHANGING = `
const fs = require('node:fs');
const fd = fs.openSync(process.argv[1], 'r+');
const size = fs.fstatSync(fd).size;
const tail = Buffer.alloc(4096);
fs.readSync(fd, tail, 0, tail.length, size - tail.length);
const pause = new Int32Array(new SharedArrayBuffer(4));
const parent = Number(process.argv[2]);
const end = Date.now() + 60_000;
for (let round = 0; ; round++) {
  if (round % 100 === 0 && (process.ppid !== parent || Date.now() > end)) process.exit(0);
  fs.ftruncateSync(fd, size - tail.length);
  fs.writeSync(fd, tail, 0, tail.length, size - tail.length);
  if (round === 0) fs.writeSync(1, 'ready\\n');
  Atomics.wait(pause, 0, 0, 0.2);
}
`;

describe('a file that shrinks while it is read', () => {
  it('answers changed_during_read, never a result mixing old and new bytes', async () => {
    const file = path.join(root, 'shrinking.log');
    writeGeneratedLines(file, 1_500_000, (n) => `line ${n} ${'-'.repeat(60)}`);
    // A child process keeps the file changing: its schedule cannot be starved by this process's
    // event loop or timers. It is changing before the read is sent, and until the read has settled.
    const changer = spawn(process.execPath, ['-e', KEEP_CHANGING, file, String(process.pid)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<void>((resolve) => changer.once('close', () => resolve()));
    try {
      await new Promise<void>((resolve, reject) => {
        changer.stdout.once('data', () => resolve());
        changer.once('error', reject);
        changer.once('exit', (code, signal) => reject(new Error(`the changer exited early (${code ?? signal})`)));
      });
      await expectReadError(engine.read({ path: 'shrinking.log' }), 'changed_during_read');
    } finally {
      changer.kill();
      await exited;
    }
  });
});
