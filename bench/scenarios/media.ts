import fs from 'node:fs';
import path from 'node:path';
import * as mupdf from 'mupdf';
import sharp from 'sharp';
import { writeMediaFixtures } from '../../fixtures/media.js';
import { createEngine, type Engine } from '../../src/index.js';
import { LoopDelayProbe } from '../event-loop.js';
import type { ScenarioReport } from '../report.js';
import { median } from '../stats.js';

const ROUNDS = 7;
const PARALLEL = 8;

/** The in-process baseline: what a host does with sharp on its own thread pool. */
async function sharpInProcess(file: string): Promise<number> {
  const out = await sharp(fs.readFileSync(file)).rotate().resize({ width: 2000, height: 2000, fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 80 }).toBuffer();
  return out.length;
}

/** The in-process baseline for a PDF page: mupdf on the host's own thread, at 100 dpi. */
function mupdfInProcess(file: string, page: number): number {
  const doc = mupdf.Document.openDocument(fs.readFileSync(file), 'application/pdf');
  try {
    const scale = 100 / 72;
    const pixmap = doc.loadPage(page - 1).toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true);
    const jpeg = pixmap.asJPEG(80, false);
    pixmap.destroy();
    return jpeg.length;
  } finally {
    doc.destroy();
  }
}

async function timed<T>(work: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

function bytesOf(result: Awaited<ReturnType<Engine['read']>>): number {
  if (result.kind === 'image') return result.bytes;
  if (result.kind === 'pdf') return result.images.reduce((n, image) => n + image.bytes, 0);
  return 0;
}

/**
 * Media through the engine's media pool against sharp and mupdf called in-process, same run:
 * latency and served bytes of a 4000x3000 PNG (about 18 MB) and JPEG photo and of one PDF page;
 * then the host's event-loop delay while 8 image and 8 PDF reads run at once, and how much a
 * small text read slows down meanwhile.
 */
export async function media(projectRoot: string): Promise<ScenarioReport> {
  const dir = path.join(projectRoot, 'bench/.data/media');
  const files = await writeMediaFixtures(dir);
  fs.writeFileSync(path.join(dir, 'small.txt'), 'a small text file\n'.repeat(20));
  // No result cache: every read does the work.
  const engine = await createEngine({ root: dir, cacheBytes: 0 });
  const cases = {
    png: { engine: () => engine.read({ path: 'photo.png' }), baseline: () => sharpInProcess(files['photo.png']) },
    jpeg: { engine: () => engine.read({ path: 'photo.jpg' }), baseline: () => sharpInProcess(files['photo.jpg']) },
    pdfPage: { engine: () => engine.read({ path: 'fifty.pdf', pages: '3' }), baseline: () => mupdfInProcess(files['fifty.pdf'], 3) },
  };
  const times: Record<string, { engine: number[]; baseline: number[]; engineBytes: number; baselineBytes: number }> = {};
  for (const name of Object.keys(cases)) times[name] = { engine: [], baseline: [], engineBytes: 0, baselineBytes: 0 };
  // Warm-up: start the media worker, load sharp and mupdf on both sides.
  for (const work of Object.values(cases)) {
    await work.engine();
    await work.baseline();
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, work] of Object.entries(cases)) {
      const entry = times[name];
      if (entry === undefined) continue;
      const viaEngine = await timed(work.engine);
      entry.engine.push(viaEngine.ms);
      entry.engineBytes = bytesOf(viaEngine.value);
      const inProcess = await timed(work.baseline);
      entry.baseline.push(inProcess.ms);
      entry.baselineBytes = inProcess.value;
    }
  }

  const textAlone: number[] = [];
  for (let i = 0; i < 300; i++) textAlone.push((await timed(() => engine.read({ path: 'small.txt' }))).ms);

  const probe = new LoopDelayProbe();
  probe.start();
  await new Promise((resolve) => setTimeout(resolve, 5));
  const textBeside: number[] = [];
  const load = Promise.all([
    ...Array.from({ length: PARALLEL }, () => engine.read({ path: 'photo.jpg' })),
    ...Array.from({ length: PARALLEL }, (_, i) => engine.read({ path: 'fifty.pdf', pages: String(i + 1) })),
  ]);
  let loading = true;
  void load.finally(() => {
    loading = false;
  });
  while (loading) textBeside.push((await timed(() => engine.read({ path: 'small.txt' }))).ms);
  await load;
  const engineLoop = probe.stop();

  probe.start();
  await new Promise((resolve) => setTimeout(resolve, 5));
  // Each request handled in its own turn of the loop, as a host serving 16 calls would.
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  await Promise.all([
    ...Array.from({ length: PARALLEL }, () => sharpInProcess(files['photo.jpg'])),
    ...Array.from({ length: PARALLEL }, (_, i) => nextTurn().then(() => mupdfInProcess(files['fifty.pdf'], i + 1))),
  ]);
  await new Promise((resolve) => setTimeout(resolve, 5));
  const baselineLoop = probe.stop();
  await engine.close();

  const m = (name: string, side: 'engine' | 'baseline') => median(times[name]?.[side] ?? []);
  const textFactor = median(textBeside) / median(textAlone);
  return {
    scenario: 'media',
    description: `images and PDF pages through the media pool vs sharp/mupdf in-process (same run, ${ROUNDS} rounds)`,
    measurements: [
      { label: 'PNG photo 4000x3000 (about 18 MB)', metrics: { engineMs: m('png', 'engine'), inProcessMs: m('png', 'baseline'), engineBytes: times.png?.engineBytes ?? 0, inProcessBytes: times.png?.baselineBytes ?? 0 } },
      { label: 'JPEG photo 4000x3000', metrics: { engineMs: m('jpeg', 'engine'), inProcessMs: m('jpeg', 'baseline'), engineBytes: times.jpeg?.engineBytes ?? 0, inProcessBytes: times.jpeg?.baselineBytes ?? 0 } },
      { label: 'PDF page at 100 dpi', metrics: { engineMs: m('pdfPage', 'engine'), inProcessMs: m('pdfPage', 'baseline'), engineBytes: times.pdfPage?.engineBytes ?? 0, inProcessBytes: times.pdfPage?.baselineBytes ?? 0 } },
      { label: `event loop, ${PARALLEL} images + ${PARALLEL} PDF pages`, metrics: { engineP99Ms: engineLoop.p99, engineMaxMs: engineLoop.max, inProcessP99Ms: baselineLoop.p99, inProcessMaxMs: baselineLoop.max } },
      { label: 'small text read beside media', metrics: { aloneMedianMs: median(textAlone), besideMedianMs: median(textBeside), reads: textBeside.length } },
    ],
    targets: [
      { name: 'PNG photo median (ms)', value: m('png', 'engine'), goal: '< 400', met: m('png', 'engine') < 400 },
      { name: 'JPEG photo median (ms)', value: m('jpeg', 'engine'), goal: '< 150', met: m('jpeg', 'engine') < 150 },
      { name: 'PDF page median (ms)', value: m('pdfPage', 'engine'), goal: '< 150', met: m('pdfPage', 'engine') < 150 },
      { name: 'host event-loop p99 while media runs (ms)', value: engineLoop.p99, goal: '< 20', met: engineLoop.p99 < 20 },
      { name: 'small text read slowdown beside media', value: textFactor, goal: 'reported', met: true },
    ],
  };
}
