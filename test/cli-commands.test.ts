/**
 * The command line beyond a plain read: media kept off the terminal (`--out`), PDF pages, another
 * dialect's answer, many files by glob, the tool definitions, and a help that lists them all.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from './support/cli-bin.js';
import { makeDialectWorkspace, type DialectWorkspace } from './support/dialect-workspace.js';
import { removeTempDir, writeFile } from './support/temp-dir.js';


let ws: DialectWorkspace;

function run(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: ws.root, encoding: 'utf8', timeout: 30_000 });
  if (result.error !== undefined) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  ws = await makeDialectWorkspace();
  writeFile(ws.root, '.gitignore', 'ignored/\n*.log\n');
  writeFile(ws.root, 'ignored/skip.txt', 'skip\n');
  writeFile(ws.root, 'build.log', 'log\n');
  writeFile(ws.root, 'src/a.ts', 'export const a = 1;\n');
  writeFile(ws.root, 'src/b.ts', 'export const b = 2;\n');
});

afterAll(() => removeTempDir(ws.base));

describe('readpool read with media', () => {
  it('describes an image instead of printing base64, and writes it with --out', async () => {
    const plain = run(['read', 'image.png']);
    expect(plain.status).toBe(0);
    expect(plain.stdout).toMatch(/^\[64x48, served at full size; \d+ bytes served of \d+\.\]\n\n\[image\/png, \d+ bytes: pass --out FILE to save it, or --json for the base64\]\n$/);
    const out = path.join(ws.base, 'copy.png');
    const saved = run(['read', 'image.png', '--out', out]);
    expect(saved.stdout).toContain(`bytes written to ${out}`);
    expect((await sharp(out).metadata()).width).toBe(64);
  });

  it('renders the PDF pages asked for with --pages and writes one file a page', async () => {
    const out = path.join(ws.base, 'page.jpg');
    const { status, stdout } = run(['read', 'big.pdf', '--pages', '2-3', '--out', out]);
    expect(status).toBe(0);
    expect(stdout).toContain('[pages 2-3 of 12, rendered as images.');
    for (const file of ['page-1.jpg', 'page-2.jpg']) expect((await sharp(path.join(ws.base, file)).metadata()).format).toBe('jpeg');
  });
});

describe('readpool read --dialect', () => {
  it('prints what the native dialect returns, PATH filling its path field', () => {
    const { status, stdout } = run(['read', 'normal.txt', '--dialect', 'readpool', '--input', '{"offset":2}']);
    expect(status).toBe(0);
    expect(stdout).toBe('2\tbeta\n3\tgamma\n');
  });

  it('exits 1 and prints the tool error on stderr for a failure', () => {
    const { status, stderr } = run(['read', 'dir', '--dialect', 'readpool']);
    expect(status).toBe(1);
    expect(stderr).toContain('is a directory');
  });

  it('refuses an unknown dialect with the list of dialects', () => {
    const { status, stderr } = run(['read', 'normal.txt', '--dialect', 'nope']);
    expect(status).toBe(2);
    expect(stderr).toContain('--dialect must be one of readpool');
  });
});

describe('readpool read-many', () => {
  it('reads every file the globs match, in order, skipping what .gitignore excludes', () => {
    const { status, stdout } = run(['read-many', 'src/*.ts', '*.log', 'ignored/**', 'normal.txt']);
    expect(status).toBe(0);
    expect(stdout).toBe(
      '--- normal.txt ---\n1\talpha\n2\tbeta\n3\tgamma\n\n' +
        '--- src/a.ts ---\n1\texport const a = 1;\n\n' +
        '--- src/b.ts ---\n1\texport const b = 2;\n\n',
    );
  });

  it('stops at --max-files and says how many matched', () => {
    const { stdout, stderr } = run(['read-many', 'src/*.ts', '--max-files', '1']);
    expect(stdout.match(/^--- /gm)).toHaveLength(1);
    expect(stderr).toContain('2 files matched; read the first 1');
  });
});

describe('readpool serve arguments', () => {
  it('refuses a --threads, --cores, --max-sessions or --session-idle out of bounds, not a whole number or without --http, before serving anything', () => {
    for (const [args, message] of [
      [['--threads', '0'], '--threads must be from 1 to 1024 (received 0)'],
      [['--threads', '5000'], '--threads must be from 1 to 1024 (received 5000)'],
      [['--threads', 'two'], '--threads must be a whole number (received "two")'],
      [['--cores', '0'], '--cores must be from 1 to 4096 (received 0)'],
      [['--http', '0', '--session-idle', '0'], '--session-idle must be from 1 to 604800 (received 0)'],
      [['--session-idle', '60'], '--max-sessions and --session-idle apply to --http only'],
      [['--max-sessions', '8'], '--max-sessions and --session-idle apply to --http only'],
      [['--http', '0', '--max-sessions', '0'], '--max-sessions must be from 1 to 1000000 (received 0)'],
    ] as const) {
      const { status, stdout, stderr } = run(['serve', ...args]);
      expect(status).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain(message);
    }
  });

  it('prints the usage, with its options, for --help after a command', () => {
    for (const args of [['serve', '--help'], ['read', '-h'], ['read-many', '--help']]) {
      const { status, stdout, stderr } = run(args);
      expect(status).toBe(0);
      expect(stderr).toBe('');
      for (const option of ['--threads N', '--cores N', '--max-sessions N', '--session-idle SECONDS', '--max-files N']) expect(stdout).toContain(option);
    }
    // After `--`, `-h` is a path like any other: the read fails as a missing file, no usage printed.
    const { status, stdout, stderr } = run(['read', '--', '-h']);
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('not_found');
  });
});

describe('readpool tools and help', () => {
  it('prints the tool definitions of a dialect as JSON', () => {
    const { status, stdout } = run(['tools', '--dialect', 'readpool']);
    expect(status).toBe(0);
    const tools = JSON.parse(stdout) as { name: string; inputSchema: { type: string } }[];
    expect(tools.map((tool) => tool.name)).toEqual(['read']);
    expect(tools[0]?.inputSchema.type).toBe('object');
  });

  it('answers a path given where the command goes with the read it most likely meant', () => {
    const asPath = run(['notes/readme.md']);
    expect(asPath.status).toBe(2);
    expect(asPath.stderr).toContain('unknown command "notes/readme.md" (to read a file: readpool read notes/readme.md)');
    const typo = run(['raed']);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('unknown command "raed"\n');
  });

  it('lists every command in --help', () => {
    const { status, stdout } = run(['--help']);
    expect(status).toBe(0);
    for (const command of ['readpool read PATH', 'readpool read-many', 'readpool serve', 'readpool tools']) expect(stdout).toContain(command);
  });
});
