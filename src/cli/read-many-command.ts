/**
 * `readpool read-many PATTERN...`: the files the glob patterns match under the root (honouring
 * the root's `.gitignore`, never inside `.git` or `node_modules`), read at once through the
 * engine, each printed under a `--- path ---` header; a progress bar on stderr when it is a
 * terminal. Bounded by `--max-files`, so a pattern that matches a whole disk cannot flood a model.
 */
import fs from '../node-fs.js';
import path from 'node:path';
import { isatty } from 'node:tty';
import { parseArgs } from 'node:util';
import ignore from 'ignore';
import { glob } from 'tinyglobby';
import { createEngine } from '../engine.js';
import type { ReadRequest } from '../request.js';
import { nativeOutput } from '../dialects/readpool-output.js';
import { errorText, wholeNumber, type UsageError } from './args.js';
import { print } from './print.js';

const DEFAULT_MAX_FILES = 500;

/** The files `patterns` match under `root`, sorted, minus what `.gitignore` excludes. */
export async function matchFiles(root: string, patterns: readonly string[]): Promise<string[]> {
  const found = await glob([...patterns], { cwd: root, dot: true, onlyFiles: true, ignore: ['**/.git/**', '**/node_modules/**'] });
  const gitignore = path.join(root, '.gitignore');
  const rules = ignore();
  if (fs.existsSync(gitignore)) rules.add(fs.readFileSync(gitignore, 'utf8'));
  return found.filter((file) => !rules.ignores(file)).sort();
}

export async function runReadMany(argv: readonly string[], usageError: UsageError): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        root: { type: 'string' },
        limit: { type: 'string' },
        'max-files': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    usageError(errorText(error));
  }
  const { values, positionals } = parsed;
  if (positionals.length === 0) usageError('read-many needs at least one PATTERN');
  const root = path.resolve(values.root ?? process.cwd());
  const limit = wholeNumber('limit', values.limit, usageError);
  const maxFiles = wholeNumber('max-files', values['max-files'], usageError) ?? DEFAULT_MAX_FILES;
  const files = await matchFiles(root, positionals);
  const taken = files.slice(0, maxFiles);
  let engine;
  try {
    engine = await createEngine({ root });
  } catch (error) {
    usageError(errorText(error));
  }
  const progress = createProgress(taken.length);
  try {
    const settled = await Promise.all(
      taken.map((file) => {
        const request: ReadRequest = limit === undefined ? { path: file } : { path: file, limit };
        return engine.read(request).then(
          (result) => ({ file, ok: true as const, result }),
          (error: unknown) => ({ file, ok: false as const, error }),
        ).finally(() => progress.tick());
      }),
    );
    progress.done();
    if (values.json) {
      print(`${JSON.stringify(settled, null, 2)}\n`);
    } else {
      for (const entry of settled) {
        const body = entry.ok
          ? nativeOutput(entry.result).content.map((part) => (part.type === 'text' ? part.text : `[${part.mimeType}: read it with readpool read]`)).join('\n')
          : `[error] ${errorText(entry.error)}`;
        print(`--- ${entry.file} ---\n${body}\n\n`);
      }
    }
    if (files.length > taken.length) {
      print(`readpool: ${files.length} files matched; read the first ${taken.length} (raise --max-files to read more)\n`, 2);
    }
    if (files.length === 0) print(`readpool: no file under ${root} matches ${positionals.join(' ')}\n`, 2);
    return settled.some((entry) => !entry.ok) || files.length === 0 ? 1 : 0;
  } finally {
    await engine.close();
  }
}

/** A one-line bar on stderr, redrawn at most every 100 ms; silent when stderr is not a terminal. */
function createProgress(total: number): { tick(): void; done(): void } {
  // `isatty`, not `process.stderr.isTTY`: building that stream loads the stream modules and
  // makes a piped fd 2 non-blocking.
  if (!isatty(2) || total === 0) return { tick: () => undefined, done: () => undefined };
  let count = 0;
  let drawn = 0;
  const draw = () => {
    const width = 30;
    const filled = Math.round((count / total) * width);
    print(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${count}/${total} files`, 2);
    drawn = Date.now();
  };
  return {
    tick: () => {
      count++;
      if (Date.now() - drawn >= 100) draw();
    },
    done: () => {
      draw();
      print('\n', 2);
    },
  };
}
