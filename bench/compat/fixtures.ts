/**
 * A deterministic fixture set for the differential probes, written into a fresh temp folder:
 * `<tmp>/root/` is what the tools may read, `<tmp>/outside.txt` lies beside it (outside).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * text: read with windows; binary/image: read whole; missing/directory: error paths;
 * huge: > 20 MiB (sparse), for size limits only.
 */
export type FixtureKind = 'text' | 'binary' | 'image' | 'missing' | 'directory' | 'huge';

export interface Fixture {
  /** path relative to the root, '/'-separated */
  name: string;
  kind: FixtureKind;
  /** what the file holds, in words */
  about: string;
  /** absolute path */
  path: string;
  /** the exact bytes written, as hex, for files under 64 bytes */
  hex?: string;
}

export interface FixtureSet {
  /** the temp folder holding root/ and outside.txt */
  base: string;
  /** the folder the tools are given */
  root: string;
  /** a file beside root, outside it */
  outside: string;
  fixtures: Fixture[];
  remove(): void;
}

/** A 1x1 PNG (red pixel). */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

function utf16be(text: string): Buffer {
  const le = Buffer.from(text, 'utf16le');
  return Buffer.from(le).swap16();
}

/** `line 1\n` ... `line N\n` */
function numbered(count: number): string {
  let out = '';
  for (let i = 1; i <= count; i++) out += `line ${i}\n`;
  return out;
}

/** 10 000 characters: `0123456789` repeated, so the cut position reads off the digits. */
const LONG_LINE = '0123456789'.repeat(1000);

interface Spec {
  name: string;
  kind: FixtureKind;
  about: string;
  bytes?: Buffer;
}

const SPECS: readonly Spec[] = [
  { name: 'lf.txt', kind: 'text', about: 'three LF lines, trailing newline', bytes: Buffer.from('alpha\nbeta\ngamma\n') },
  { name: 'crlf.txt', kind: 'text', about: 'three CRLF lines, trailing CRLF', bytes: Buffer.from('alpha\r\nbeta\r\ngamma\r\n') },
  {
    name: 'bom-utf8.txt',
    kind: 'text',
    about: 'UTF-8 BOM + two LF lines',
    bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('alpha\nbeta\n')]),
  },
  {
    name: 'utf16le.txt',
    kind: 'text',
    about: 'UTF-16 LE with BOM, two LF lines',
    bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('alpha\nbeta\n', 'utf16le')]),
  },
  {
    name: 'utf16be.txt',
    kind: 'text',
    about: 'UTF-16 BE with BOM, two LF lines',
    bytes: Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be('alpha\nbeta\n')]),
  },
  {
    name: 'long-line.txt',
    kind: 'text',
    about: "line 1: 10 000 chars ('0123456789' x 1000), line 2: 'short', trailing newline",
    bytes: Buffer.from(`${LONG_LINE}\nshort\n`),
  },
  { name: 'lines-2500.txt', kind: 'text', about: "'line 1\\n' .. 'line 2500\\n'", bytes: Buffer.from(numbered(2500)) },
  { name: 'empty.txt', kind: 'text', about: 'zero bytes', bytes: Buffer.alloc(0) },
  { name: 'no-eol.txt', kind: 'text', about: 'three LF lines, no trailing newline', bytes: Buffer.from('alpha\nbeta\ngamma') },
  { name: 'single-line.txt', kind: 'text', about: 'one line, no newline at all', bytes: Buffer.from('only line') },
  {
    name: 'single-line-eol.txt',
    kind: 'text',
    about: 'one line followed by a newline',
    bytes: Buffer.from('only line\n'),
  },
  { name: 'unicode.txt', kind: 'text', about: 'multi-byte UTF-8 (2, 3, 4 bytes)', bytes: Buffer.from('héllo\n世界\n😀 end\n') },
  {
    name: 'notebook.ipynb',
    kind: 'text',
    about: 'a two-cell Jupyter notebook (JSON, indented, trailing newline)',
    bytes: Buffer.from(`${JSON.stringify({ cells: [{ cell_type: 'markdown', metadata: {}, source: ['# Title'] }, { cell_type: 'code', metadata: {}, source: ['print(1)'], outputs: [], execution_count: 1 }], metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1)}\n`),
  },
  {
    name: 'binary.bin',
    kind: 'binary',
    about: 'bytes 00..0f then "text" then 00 00',
    bytes: Buffer.concat([Buffer.from([...Array(16).keys()]), Buffer.from('text'), Buffer.from([0, 0])]),
  },
  {
    name: 'binary.dat',
    kind: 'binary',
    about: 'same bytes as binary.bin, extension .dat',
    bytes: Buffer.concat([Buffer.from([...Array(16).keys()]), Buffer.from('text'), Buffer.from([0, 0])]),
  },
  { name: 'image.png', kind: 'image', about: '1x1 PNG', bytes: Buffer.from(PNG_1X1, 'base64') },
  { name: 'missing.txt', kind: 'missing', about: 'never created' },
  { name: 'dir', kind: 'directory', about: 'a directory holding one file (inner.txt)' },
  { name: 'huge.txt', kind: 'huge', about: 'sparse file of 21 MiB (fs.truncateSync), all NUL bytes' },
];

export const HUGE_BYTES = 21 * 1024 * 1024;

/** Writes the fixture set into a fresh temp folder. */
export function writeFixtures(): FixtureSet {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'readpool-compat-')));
  const root = path.join(base, 'root');
  fs.mkdirSync(root);
  const outside = path.join(base, 'outside.txt');
  fs.writeFileSync(outside, 'outside\n');
  const fixtures: Fixture[] = [];
  for (const spec of SPECS) {
    const file = path.join(root, spec.name);
    if (spec.kind === 'directory') {
      fs.mkdirSync(file);
      fs.writeFileSync(path.join(file, 'inner.txt'), 'inner\n');
    } else if (spec.kind === 'huge') {
      fs.writeFileSync(file, '');
      fs.truncateSync(file, HUGE_BYTES);
    } else if (spec.bytes !== undefined) {
      fs.writeFileSync(file, spec.bytes);
    }
    const fixture: Fixture = { name: spec.name, kind: spec.kind, about: spec.about, path: file };
    if (spec.bytes !== undefined && spec.bytes.length < 64) fixture.hex = spec.bytes.toString('hex');
    fixtures.push(fixture);
  }
  return { base, root, outside, fixtures, remove: () => fs.rmSync(base, { recursive: true, force: true }) };
}

export function fixture(set: FixtureSet, name: string): Fixture {
  const found = set.fixtures.find((f) => f.name === name);
  if (found === undefined) throw new Error(`no fixture ${name}`);
  return found;
}
