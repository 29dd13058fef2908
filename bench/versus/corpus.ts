/**
 * The comparison's corpus, generated once under bench/.corpus/versus (git-ignored) from fixed
 * inputs, so every run and every machine reads the same bytes: the source tree (the installed
 * packages' sources, bench/corpus), logs of 200 MB and 20 MB (just under Gemini CLI's 20 MB
 * limit), a 5 MB single-line minified file, and the media fixtures (a 4000x3000 PNG of about
 * 18 MB and its JPEG, a 50-page PDF).
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeMediaFixtures } from '../../fixtures/media.js';
import { prepareLargeLog, prepareSourceTree, warmPageCache } from '../corpus.js';

/** The measured tree; WARM_FILES more are read by every fresh instance before it is measured. */
export const TREE_FILES = 2000;
const WARM_FILES = 2000;
export const LARGE_LOG_LINES = 2_000_000;
export const MEDIUM_LOG_LINES = 200_000;
const MINIFIED_BYTES = 5 * 1024 * 1024;

export interface Corpus {
  /** every system is rooted here */
  readonly root: string;
  /** absolute paths of the source tree's files, in a fixed order */
  readonly tree: readonly string[];
  /** other files of the same tree, never measured: a fresh instance's warm-up */
  readonly warmTree: readonly string[];
  readonly largeLog: string;
  readonly mediumLog: string;
  readonly minified: string;
  readonly png: string;
  readonly jpeg: string;
  readonly pdf: string;
  readonly warmImage: string;
}

/** A minified bundle's look (one line, short identifiers, no spaces), the same bytes each run. */
function writeMinified(file: string): void {
  if (fs.existsSync(file) && fs.statSync(file).size === MINIFIED_BYTES) return;
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < MINIFIED_BYTES; i++) {
    const part = `var a${i.toString(36)}=function(b,c){return b+c*${i % 97}||"k${(i * 7919) % 10007}"};`;
    parts.push(part);
    size += part.length;
  }
  fs.writeFileSync(file, parts.join('').slice(0, MINIFIED_BYTES));
}

export async function prepareCorpus(projectRoot: string, log: (line: string) => void): Promise<Corpus> {
  const root = path.join(projectRoot, 'bench/.corpus/versus');
  log('corpus: source tree');
  const tree = prepareSourceTree(projectRoot, path.join(root, 'tree'), TREE_FILES + WARM_FILES);
  const files = tree.files.map((file) => path.join(tree.root, file));
  log('corpus: logs (200 MB and 20 MB)');
  const largeLog = prepareLargeLog(path.join(root, 'logs/large-200mb.log'), LARGE_LOG_LINES);
  const mediumLog = prepareLargeLog(path.join(root, 'logs/medium-20mb.log'), MEDIUM_LOG_LINES);
  log('corpus: minified file and media');
  const minified = path.join(root, 'minified/bundle.min.js');
  fs.mkdirSync(path.dirname(minified), { recursive: true });
  writeMinified(minified);
  const media = await writeMediaFixtures(path.join(root, 'media'));

  return {
    root,
    tree: files.slice(0, TREE_FILES),
    warmTree: files.slice(TREE_FILES),
    largeLog,
    mediumLog,
    minified,
    png: media['photo.png'],
    jpeg: media['photo.jpg'],
    pdf: media['fifty.pdf'],
    warmImage: media['palette.png'],
  };
}

/**
 * Reads every file once, so measured reads find them in the page cache (see bench/corpus); the
 * large ones a megabyte at a time, so this process stays small (its children are measured).
 */
export function warmCorpus(corpus: Corpus): void {
  warmPageCache(corpus.root, [...corpus.tree, ...corpus.warmTree].map((file) => path.relative(corpus.root, file)));
  const chunk = Buffer.alloc(1 << 20);
  for (const file of [corpus.largeLog, corpus.mediumLog, corpus.minified, corpus.png, corpus.jpeg, corpus.pdf, corpus.warmImage]) {
    const fd = fs.openSync(file, 'r');
    try {
      while (fs.readSync(fd, chunk, 0, chunk.length, null) > 0);
    } finally {
      fs.closeSync(fd);
    }
  }
}
