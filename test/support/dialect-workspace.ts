/**
 * One workspace every dialect's golden tests read, so each dialect is shown the same situations:
 * a normal file, a long one (for windows and truncation), a long line, an empty file, a
 * directory, a binary file, an image, two PDFs (3 and 12 pages), a notebook, a file outside the
 * root, and names that do not exist. Small and generated, so a suite starts in well under a second.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { textPdf } from '../../fixtures/media.js';
import { makeWorkspace, writeFile } from './temp-dir.js';

export interface DialectWorkspace {
  readonly base: string;
  readonly root: string;
  /** Absolute paths of the files below, by name. */
  readonly files: Readonly<Record<DialectFile, string>>;
  /** A file beside the root, outside it. */
  readonly outside: string;
  /** A path inside the root where nothing is. */
  readonly missing: string;
}

export type DialectFile =
  | 'normal'
  | 'long'
  | 'longLine'
  | 'empty'
  | 'crlf'
  | 'binary'
  | 'directory'
  | 'image'
  | 'pdf'
  | 'bigPdf'
  | 'notebook';

/** `normal.txt`: three short lines, LF-ended. */
export const NORMAL_LINES = ['alpha', 'beta', 'gamma'] as const;
/** `long.txt`: this many lines, `line 1` to `line 2500`. */
export const LONG_LINES = 2500;
/** `long-line.txt`: a short line, a line of this many `x`, a short line. */
export const LONG_LINE_CHARS = 5000;

/** Lines `first` to `last`, each rendered by `line`, joined with `\n`. */
export function lineRange(first: number, last: number, line: (n: number) => string): string {
  return Array.from({ length: last - first + 1 }, (_, i) => line(first + i)).join('\n');
}

/** The lines `first` to `last` expected of `long.txt`, joined with `\n`. */
export function longLines(first: number, last: number): string {
  return lineRange(first, last, (n) => `line ${n}`);
}

export const NOTEBOOK = {
  cells: [
    { cell_type: 'markdown', metadata: {}, source: ['# Title\n', 'Some text'] },
    {
      cell_type: 'code',
      metadata: {},
      execution_count: 1,
      source: ['print(1 + 1)'],
      outputs: [{ output_type: 'stream', name: 'stdout', text: ['2\n'] }],
    },
  ],
  metadata: {},
  nbformat: 4,
  nbformat_minor: 5,
};

/** `notebook.ipynb`'s bytes, written out: what a dialect that reads it as plain text returns. */
export const NOTEBOOK_JSON =
  '{"cells":[{"cell_type":"markdown","metadata":{},"source":["# Title\\n","Some text"]},{"cell_type":"code","metadata":{},' +
  '"execution_count":1,"source":["print(1 + 1)"],"outputs":[{"output_type":"stream","name":"stdout","text":["2\\n"]}]}],' +
  '"metadata":{},"nbformat":4,"nbformat_minor":5}';

export async function makeDialectWorkspace(): Promise<DialectWorkspace> {
  const { base, root } = makeWorkspace();
  const at = (relative: string, content: string | Uint8Array) => writeFile(root, relative, content);
  const files: Record<DialectFile, string> = {
    normal: at('normal.txt', `${NORMAL_LINES.join('\n')}\n`),
    long: at('long.txt', `${Array.from({ length: LONG_LINES }, (_, i) => `line ${i + 1}`).join('\n')}\n`),
    longLine: at('long-line.txt', `short\n${'x'.repeat(LONG_LINE_CHARS)}\nend\n`),
    empty: at('empty.txt', ''),
    crlf: at('crlf.txt', 'one\r\ntwo\r\nthree\r\n'),
    binary: at('data.bin', Buffer.from([0x52, 0x50, 0x00, 0x01, 0x02, 0x03, 0x0a, 0x41])),
    directory: path.join(root, 'dir'),
    image: at(
      'image.png',
      await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer(),
    ),
    pdf: at('small.pdf', textPdf(3)),
    bigPdf: at('big.pdf', textPdf(12)),
    notebook: at('notebook.ipynb', JSON.stringify(NOTEBOOK)),
  };
  fs.mkdirSync(files.directory);
  at('dir/inside.txt', 'inside\n');
  const outside = writeFile(base, 'outside.txt', 'secret outside the root\n');
  return { base, root, files, outside, missing: path.join(root, 'missing.txt') };
}
