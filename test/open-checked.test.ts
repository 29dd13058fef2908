import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import xxhash from 'xxhash-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openChecked, type OpenStrategy } from '../src/io/open-checked.js';
import { createReadTools, readFile, type ReadTools } from '../src/io/read-file.js';
import { createReaderContext, type ReaderContext } from '../src/io/reader-context.js';
import { isSystemError, Refusal, systemRefusal } from '../src/io/refusal.js';
import { writeGeneratedLines } from './support/generated-file.js';
import { textJob } from './support/text-job.js';
import { makeWorkspace, removeTempDir, writeFile } from './support/temp-dir.js';
import { compileDenyRules } from '../src/core/deny-rules.js';

// The worker's half of the sandbox, called directly (no pool) so that both open strategies
// meet every hostile case: the Linux O_PATH handle and the portable realpath fallback.

let base = '';
let root = '';
let context: ReaderContext;
let tools: ReadTools;

beforeAll(async () => {
  ({ base, root } = makeWorkspace());
  writeFile(base, 'outside/secret.txt', 'outside\n');
  writeFile(root, 'inside.txt', 'inside\n');
  writeFile(root, '.env', 'TOKEN=1\n');
  fs.mkdirSync(path.join(root, 'dir'));
  fs.symlinkSync(path.join(base, 'outside/secret.txt'), path.join(root, 'escape'));
  fs.symlinkSync(path.join(base, 'outside'), path.join(root, 'linkdir'));
  fs.symlinkSync('inside.txt', path.join(root, 'alias'));
  fs.symlinkSync('.env', path.join(root, 'innocent.txt'));
  fs.symlinkSync('loop-b', path.join(root, 'loop-a'));
  fs.symlinkSync('loop-a', path.join(root, 'loop-b'));
  execFileSync('mkfifo', [path.join(root, 'pipe')]);
  writeGeneratedLines(path.join(root, 'three-mb.log'), 30_000, (n) => `line ${n} ${'.'.repeat(90)}`);
  context = createReaderContext({
    roots: [root],
    deny: compileDenyRules({ denySecrets: true, deny: [] }),
    maxFileBytes: 1024 ** 3,
    maxBinaryBytes: 1024 ** 2,
  });
  tools = createReadTools(await xxhash());
});

afterAll(() => removeTempDir(base));

function refusalOf(action: () => unknown): Refusal {
  try {
    action();
  } catch (error) {
    if (error instanceof Refusal) return error;
    throw error;
  }
  throw new Error('expected a Refusal');
}

describe.each<OpenStrategy>(['handle', 'realpath'])('openChecked through the %s strategy', (strategy) => {
  const open = (relative: string) => openChecked(context, path.join(root, relative), strategy);
  const refused = (relative: string) => refusalOf(() => open(relative));

  it('opens a file inside the root and reports its canonical path', () => {
    const opened = open('inside.txt');
    fs.closeSync(opened.fd);
    expect(opened.path).toBe(path.join(root, 'inside.txt'));
    expect(opened.relativePath).toBe('inside.txt');
  });

  it('follows a symbolic link inside the root and reports the target', () => {
    const opened = open('alias');
    fs.closeSync(opened.fd);
    expect(opened.relativePath).toBe('inside.txt');
  });

  it('refuses a link to a file outside the root', () => {
    expect(refused('escape').code).toBe('outside_root');
  });

  it('refuses a file reached through a linked directory that leads outside', () => {
    expect(refused('linkdir/secret.txt').code).toBe('outside_root');
  });

  it('refuses a link whose target is a denied file', () => {
    expect(refused('innocent.txt').code).toBe('denied');
  });

  it('answers a FIFO with no writer at once, without opening it for reading', () => {
    const refusal = refused('pipe');
    expect(refusal.code).toBe('not_regular_file');
    expect(refusal.details.type).toBe('fifo');
  });

  it('answers is_directory for a directory', () => {
    expect(refused('dir').code).toBe('is_directory');
  });

  it('answers unreadable with ELOOP for a loop of links', () => {
    const refusal = refused('loop-a');
    expect(refusal.code).toBe('unreadable');
    expect(refusal.details.errno).toBe('ELOOP');
  });

  it('answers not_found with a suggestion for a near miss', () => {
    const refusal = refused('insid.txt');
    expect(refusal.code).toBe('not_found');
    expect(refusal.details.suggestions).toContain('inside.txt');
  });
});

describe('readFile cancellation, polled between chunks', () => {
  const job = (relative: string) => textJob(path.join(root, relative));

  it('stops a multi-chunk read at the first poll that says aborted', () => {
    let polls = 0;
    const refusal = refusalOf(() =>
      readFile(context, tools, job('three-mb.log'), () => {
        polls++;
        return 'aborted';
      }),
    );
    expect(refusal.code).toBe('aborted');
    expect(polls).toBe(1);
    expect(refusal.details.bytesRead).toBeLessThan(fs.statSync(path.join(root, 'three-mb.log')).size);
  });

  it('stops with timeout when the poll says timeout', () => {
    expect(refusalOf(() => readFile(context, tools, job('three-mb.log'), () => 'timeout')).code).toBe('timeout');
  });

  it('reads to the end when no poll cancels it', () => {
    const result = readFile(context, tools, job('three-mb.log'), () => null);
    expect(result.kind === 'text' && result.totalLines).toBe(30_000);
  });
});

describe('systemRefusal', () => {
  const failing = (action: () => unknown): unknown => {
    try {
      action();
    } catch (error) {
      return error;
    }
    throw new Error('expected the action to throw');
  };

  it('turns an error from a system call into unreadable with its errno', () => {
    const error = failing(() => fs.readFileSync(path.join(root, 'dir')));
    expect(isSystemError(error)).toBe(true);
    expect(systemRefusal(error)).toMatchObject({ code: 'unreadable', details: { errno: 'EISDIR' } });
  });

  it('rethrows Node’s own argument errors, which are bugs and must stay internal', () => {
    const error = failing(() => fs.readSync(-1, Buffer.alloc(1), 0, 5, 0));
    expect(isSystemError(error)).toBe(false);
    expect(() => systemRefusal(error)).toThrow(error instanceof Error ? error.message : 'never');
  });
});
