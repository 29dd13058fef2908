import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from './support/cli-bin.js';
import { makeTempDir, removeTempDir, writeFile } from './support/temp-dir.js';


let base = '';
let root = '';

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(args: readonly string[], cwd = root): Run {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 20_000 });
  if (result.error !== undefined) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  expect(fs.existsSync(CLI), 'the CLI is built (run npm run build)').toBe(true);
  base = makeTempDir();
  root = path.join(base, 'workspace');
  writeFile(root, 'notes.txt', 'first note\nsecond note\nthird note\n');
  writeFile(root, 'docs/guide.md', '# Guide\n');
});

afterAll(() => {
  removeTempDir(base);
});

describe('the package bin', () => {
  it('is executable after the build, as npx runs it directly (the README quick start)', () => {
    expect(() => fs.accessSync(CLI, fs.constants.X_OK)).not.toThrow();
    const direct = spawnSync(CLI, ['read', 'notes.txt', '--limit', '1'], { cwd: root, encoding: 'utf8', timeout: 20_000 });
    expect(direct.status).toBe(0);
    expect(direct.stdout).toContain('1\tfirst note');
  });
});

describe('readpool read', () => {
  it('prints numbered lines and exits 0', () => {
    const { status, stdout, stderr } = run(['read', 'notes.txt']);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toBe('1\tfirst note\n2\tsecond note\n3\tthird note\n');
  });

  it('ends quietly with status 0 when the reader of its output closes the pipe early (| head)', async () => {
    // Far more output than a pipe holds, so the CLI is still writing when the pipe closes.
    writeFile(root, 'long.log', Array.from({ length: 20_000 }, (_, i) => `log line ${i} ${'x'.repeat(60)}`).join('\n'));
    const child = spawn(process.execPath, [CLI, 'read', 'long.log', '--limit', '20000', '--max-tokens', '1000000', '--max-bytes', '4000000'], { cwd: root });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const first = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
    child.stdout.destroy();
    const status = await new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    expect(first.startsWith('1\tlog line 0 ')).toBe(true);
    expect(stderr).toBe('');
    expect(status).toBe(0);
  });

  it('writes all of a long output, in order, to a non-blocking pipe whose reader is slow', async () => {
    // The command writes its output synchronously; a descriptor opened non-blocking refuses a
    // write once its pipe is full (EAGAIN), and the rest must still arrive. A FIFO opened with
    // O_NONBLOCK gives the child such a descriptor; this side reads only after a pause.
    const lines = Array.from({ length: 20_000 }, (_, i) => `log line ${i} ${'y'.repeat(60)}`);
    writeFile(root, 'slow.log', lines.join('\n'));
    const fifo = path.join(base, 'slow.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const writer = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
    const child = spawn(process.execPath, [CLI, 'read', 'slow.log', '--limit', '20000', '--max-tokens', '1000000', '--max-bytes', '4000000'], {
      cwd: root,
      stdio: ['ignore', writer, 'pipe'],
    });
    fs.closeSync(writer);
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { Socket } = await import('node:net');
    const chunks: Buffer[] = [];
    const socket = new Socket({ fd: reader, readable: true, writable: false });
    const ended = new Promise<void>((resolve) => socket.on('end', resolve));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const status = await new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    await ended;
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(`${lines.map((line, i) => `${i + 1}\t${line}`).join('\n')}\n`);
  });

  it('exits 1 and names not_found on stderr for a missing file', () => {
    const { status, stdout, stderr } = run(['read', 'missing.txt']);
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('not_found');
  });

  it('exits 2 with the usage text on bad usage', () => {
    for (const args of [[], ['read'], ['write', 'notes.txt'], ['read', 'notes.txt', '--offset', 'two'], ['read', 'notes.txt', '--bogus']]) {
      const { status, stderr } = run(args);
      expect(status, args.join(' ')).toBe(2);
      expect(stderr, args.join(' ')).toContain('usage: readpool read PATH');
    }
  });

  it('prints the result as parseable JSON with --json', () => {
    const { status, stdout } = run(['read', 'notes.txt', '--json']);
    expect(status).toBe(0);
    const parsed: unknown = JSON.parse(stdout);
    expect(parsed).toMatchObject({ kind: 'text', content: '1\tfirst note\n2\tsecond note\n3\tthird note', totalLines: 3, truncated: false });
  });

  it('prints the error as JSON with --json when the read fails', () => {
    const { status, stdout } = run(['read', 'missing.txt', '--json']);
    expect(status).toBe(1);
    const parsed: unknown = JSON.parse(stdout);
    expect(parsed).toMatchObject({ error: { code: 'not_found' } });
  });

  it('shows the window chosen by --offset and --limit, and where to continue', () => {
    const { status, stdout } = run(['read', 'notes.txt', '--offset', '2', '--limit', '1']);
    expect(status).toBe(0);
    const [first, ...rest] = stdout.split('\n');
    expect(first).toBe('2\tsecond note');
    expect(rest.join('\n')).not.toMatch(/^\d+\t/m);
    expect(stdout).toContain('offset=3');
  });

  it('reads relative to --root DIR instead of the working directory', () => {
    const { status, stdout } = run(['read', 'docs/guide.md', '--root', root], base);
    expect(status).toBe(0);
    expect(stdout).toBe('1\t# Guide\n');
    const outside = run(['read', 'docs/guide.md'], base);
    expect(outside.status).toBe(1);
    expect(outside.stderr).toContain('not_found');
  });
});
