/**
 * Media pool worker entry: images (sharp), PDFs (mupdf, loaded on the first PDF), notebooks.
 * Every file is opened through the sandbox and read whole into memory through its checked
 * descriptor; the libraries only ever see bytes, never a path.
 */
import fs from '../src/node-fs.js';
// From node:worker_threads (the same object Piscina hands on): importing 'piscina' here would load
// the whole pool module into every worker at boot.
import { workerData } from 'node:worker_threads';
import sharp from 'sharp';
import { LineSlicer, windowFields } from '../src/core/line-slicer.js';
import { openChecked } from '../src/io/open-checked.js';
import { checkUnchanged, facts, readAll } from '../src/io/read-file.js';
import { createReaderContext } from '../src/io/reader-context.js';
import { failureOf, messageOf, Refusal } from '../src/io/refusal.js';
import { lowerThreadPriority } from '../src/io/thread-priority.js';
import { serveImage } from '../src/media/image.js';
import { sniffMedia } from '../src/media/kind.js';
import { renderNotebook } from '../src/media/notebook.js';
import type { MediaConfig, MediaFacts, MediaJob, MediaOutcome, MediaPayload } from '../src/media/wire.js';

const config = workerData as MediaConfig;
lowerThreadPriority(config.threadNice);
const context = createReaderContext(config);
// One libvips thread per media worker: the pool, not libvips, decides how many cores media takes.
sharp.concurrency(1);
sharp.cache(false);

/** Pixels rendered by mupdf in this worker; past this, the worker asks to be replaced. */
const RECYCLE_AFTER_PIXELS = 60_000_000;
let renderedPixels = 0;

function readChecked(job: MediaJob): { bytes: Buffer; facts: MediaFacts } {
  const opened = openChecked(context, job.path);
  try {
    const size = Number(opened.stat.size);
    const limit = job.kind === 'notebook' ? Math.min(config.maxNotebookBytes, config.maxFileBytes) : config.maxFileBytes;
    if (size > limit) {
      throw new Refusal('file_too_large', { size, limit, limitName: job.kind === 'notebook' ? 'maxNotebookBytes' : 'maxMediaBytes' });
    }
    const bytes = readAll(opened.fd, size);
    checkUnchanged(opened, bytes.length);
    const { path, relativePath, mtimeMs, version } = facts(opened, size, null);
    return { bytes, facts: { path, relativePath, size, mtimeMs, version } };
  } finally {
    fs.closeSync(opened.fd);
  }
}

async function serve(job: MediaJob): Promise<{ value: MediaPayload; recycle: boolean }> {
  const { bytes, facts: base } = readChecked(job);
  const budget = { ...config.budget, timeoutSeconds: Math.max(1, Math.ceil((job.deadline - Date.now()) / 1000)) };
  if (job.kind === 'notebook') {
    const notebook = await renderNotebook(bytes, budget, job.images);
    const slicer = new LineSlicer(job.limits, job.render ?? config.render);
    slicer.push(Buffer.from(notebook.text, 'utf8'));
    const slice = slicer.end();
    return {
      value: {
        kind: 'notebook',
        ...base,
        ...windowFields(slice),
        cells: notebook.cells,
        images: notebook.images,
      },
      recycle: false,
    };
  }
  const sniffed = sniffMedia(bytes.subarray(0, 1024));
  if (job.kind === 'pdf' || sniffed === 'pdf') {
    if (sniffed !== 'pdf') throw new Refusal('corrupt_media', { reason: 'not-a-pdf', expected: 'pdf' });
    const { servePdf } = await import('../src/media/pdf.js');
    const mode = !job.pdf && !job.images ? 'text' : 'auto';
    // A model that takes images but no PDF documents gets rendered pages.
    const pages = !job.pdf && job.images && job.pages === null ? '1' : job.pages;
    const outcome = servePdf(bytes, { pages, mode, budget, maxTextChars: job.limits.maxTokens * 4 });
    renderedPixels += outcome.renderedPixels;
    return { value: { kind: 'pdf', ...base, served: outcome.served }, recycle: renderedPixels > RECYCLE_AFTER_PIXELS };
  }
  if (sniffed === null) throw new Refusal('corrupt_media', { reason: 'not-an-image', expected: 'image' });
  if (!job.images) {
    let width = 0;
    let height = 0;
    try {
      const meta = await sharp(bytes, { limitInputPixels: false, failOn: 'none', pages: 1 }).metadata();
      width = meta.width ?? 0;
      height = meta.pageHeight ?? meta.height ?? 0;
    } catch {
      throw new Refusal('corrupt_media', { reason: 'undecodable' });
    }
    return { value: { kind: 'image-info', ...base, format: sniffed, width, height }, recycle: false };
  }
  return { value: { kind: 'image', ...base, image: await serveImage(bytes, budget) }, recycle: false };
}

export default async function runMedia(job: MediaJob): Promise<MediaOutcome> {
  try {
    const { value, recycle } = await serve(job);
    return { ok: true, value, recycle };
  } catch (error) {
    const failure = failureOf(error);
    // sharp's own timeout surfaces as an Error naming it.
    if (failure.code === 'internal' && /timeout/i.test(messageOf(error))) return { ok: false, code: 'timeout', details: failure.details };
    return failure;
  }
}
