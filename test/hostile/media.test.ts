/**
 * Hostile media through the real media pool: pixel bombs (by name and by bytes), a truncated
 * JPEG, HTML named `.png`, an empty `.png`, a GIF with thousands of frames, encrypted, corrupt
 * and deeply nested PDFs, a PDF whose stream inflates to 2 GiB (bounded by the deadline, its
 * worker stopped), a notebook nested a million levels deep, one with hundreds of MB of outputs.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textPdf } from '../../fixtures/media.js';
import { createEngine, type Engine, type ReadRequest, type ReadResult } from '../../src/index.js';
import { removeTempDir, writeFile } from '../support/temp-dir.js';
import { check, hostileWorkspace, type Expected, type HostileWorkspace } from './harness.js';
import { deepNotebook, inflatingPdf, nestedPdf, pngClaiming } from './media-files.js';

let ws: HostileWorkspace;
let engine: Engine;

const GIF_FRAMES = 3000;

beforeAll(async () => {
  ws = hostileWorkspace();
  const at = (name: string, content: string | Uint8Array) => writeFile(ws.root, name, content);
  at('bomb.png', pngClaiming(50_000, 50_000));
  at('bomb-named.txt', pngClaiming(50_000, 50_000));
  const noise = Buffer.alloc(400 * 300 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 251;
  const jpeg = await sharp(noise, { raw: { width: 400, height: 300, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
  at('truncated.jpg', jpeg.subarray(0, Math.floor(jpeg.length * 0.6)));
  at('html.png', '<!doctype html>\n<html><body>Not Found</body></html>\n');
  at('empty.png', '');
  // Frames that differ clearly from their neighbours (the encoder drops near-duplicates).
  const frames = Buffer.alloc(8 * 8 * 3 * GIF_FRAMES);
  for (let f = 0; f < GIF_FRAMES; f++) {
    for (let p = 0; p < 64; p++) frames.set([(f * 37) % 256, p % 2 ? 255 : 0, Math.floor(f / 12) % 256], f * 192 + p * 3);
  }
  await sharp(frames, { raw: { width: 8, height: 8 * GIF_FRAMES, channels: 3, pageHeight: 8 } }).gif().toFile(path.join(ws.root, 'frames.gif'));
  expect((await sharp(path.join(ws.root, 'frames.gif'), { pages: -1 }).metadata()).pages).toBe(GIF_FRAMES);
  at('encrypted.pdf', textPdf(2, 'encrypt=aes-256,user-password=secret,owner-password=owner'));
  at('corrupt.pdf', `%PDF-1.7\n${'garbage that is not a PDF object\n'.repeat(40)}`);
  at('nested.pdf', nestedPdf(100_000));
  at('inflating.pdf', await inflatingPdf(2));
  at('small.pdf', textPdf(3));
  at('deep.ipynb', deepNotebook(1_000_000));
  at('not-json.ipynb', '{"cells": [ this is not JSON');
  // Hundreds of MB of outputs: one stream output of 200 lines of 1 MB, written line by line.
  const fd = fs.openSync(path.join(ws.root, 'huge-outputs.ipynb'), 'w');
  fs.writeSync(fd, '{"nbformat":4,"nbformat_minor":5,"metadata":{},"cells":[{"cell_type":"code","metadata":{},"source":"print()","execution_count":1,"outputs":[{"output_type":"stream","name":"stdout","text":[');
  const line = `"${'y'.repeat(1024 ** 2 - 4)}\\n"`;
  for (let i = 0; i < 200; i++) fs.writeSync(fd, i === 0 ? line : `,${line}`);
  fs.writeSync(fd, ']}]}]}');
  fs.closeSync(fd);
  engine = await createEngine({ root: ws.root, threads: 1, mediaThreads: 1 });
});

afterAll(async () => {
  await engine.close();
  removeTempDir(ws.base);
});

function kindIs<K extends ReadResult['kind']>(kind: K, more: (result: Extract<ReadResult, { kind: K }>) => void = () => undefined) {
  return (result: ReadResult) => {
    expect(result.kind).toBe(kind);
    if (result.kind === kind) more(result as Extract<ReadResult, { kind: K }>);
  };
}

const rows: readonly [name: string, request: ReadRequest, expected: Expected, deadlineMs?: number][] = [
  ['a PNG header claiming 50000x50000 pixels', { path: 'bomb.png' }, 'file_too_large'],
  ['the same pixel bomb named .txt (found by its bytes)', { path: 'bomb-named.txt' }, 'file_too_large'],
  ['a JPEG cut at 60%: decoded as far as it goes, flagged repaired', { path: 'truncated.jpg' }, kindIs('image', (r) => expect([r.repaired, r.originalWidth, r.originalHeight]).toEqual([true, 400, 300])), 15_000],
  ['a truncated JPEG for a model without images: described', { path: 'truncated.jpg', accept: { images: false } }, kindIs('description'), 15_000],
  ['HTML named .png', { path: 'html.png' }, 'corrupt_media'],
  ['an empty .png', { path: 'empty.png' }, 'corrupt_media'],
  [`a GIF with ${GIF_FRAMES} frames: one frame's size`, { path: 'frames.gif' }, kindIs('image', (r) => expect([r.width, r.height]).toEqual([8, 8])), 15_000],
  ['a PNG with media turned off', { path: 'bomb.png', media: false }, 'binary_file'],
  ['an encrypted PDF', { path: 'encrypted.pdf' }, 'encrypted'],
  ['a PDF header followed by garbage', { path: 'corrupt.pdf' }, 'corrupt_media'],
  ['a PDF whose resources nest 100 000 arrays deep, whole', { path: 'nested.pdf' }, kindIs('pdf', (r) => expect([r.form, r.pageCount]).toEqual(['document', 1]))],
  ['a PDF nested 100 000 deep, page 1 rendered', { path: 'nested.pdf', pages: '1' }, kindIs('pdf', (r) => expect([r.form, r.images.length]).toEqual(['images', 1])), 15_000],
  ['a PDF whose stream inflates to 2 GiB, whole: its bytes, never inflated', { path: 'inflating.pdf' }, kindIs('pdf', (r) => expect(r.form).toBe('document'))],
  ['a PDF inflating to 2 GiB, page 1 rendered, 1.5 s deadline', { path: 'inflating.pdf', pages: '1', timeoutMs: 1500 }, 'timeout', 4000],
  ['a PDF inflating to 2 GiB, page 1 as text, 1.5 s deadline', { path: 'inflating.pdf', pages: '1', accept: { images: false, pdf: false }, timeoutMs: 1500 }, 'timeout', 4000],
  ['a PDF page past the last', { path: 'small.pdf', pages: '999' }, 'invalid_request'],
  ['PDF page 0', { path: 'small.pdf', pages: '0' }, 'invalid_request'],
  ['a notebook nested a million levels deep', { path: 'deep.ipynb' }, kindIs('notebook', (r) => expect(r.cells).toBe(1)), 15_000],
  ['a notebook that is not JSON', { path: 'not-json.ipynb' }, 'corrupt_media'],
  ['a notebook with 200 MB of outputs', { path: 'huge-outputs.ipynb' }, 'file_too_large'],
];

describe('media', () => {
  for (const [name, request, expected, deadlineMs] of rows) {
    it(`${name}: ${request.path}${request.pages === undefined ? '' : ` pages ${request.pages}`} -> ${typeof expected === 'string' ? expected : 'safe result'}`, async () => {
      await check(engine, request, expected, deadlineMs ?? 8000);
    });
  }

  it('after a render stopped by its deadline, the next media read gets a fresh worker: small.pdf page 2 renders', async () => {
    await check(engine, { path: 'inflating.pdf', pages: '1', timeoutMs: 1000 }, 'timeout', 4000);
    await check(engine, { path: 'small.pdf', pages: '2' }, kindIs('pdf', (r) => expect(r.images.length).toBe(1)), 15_000);
  });
});
