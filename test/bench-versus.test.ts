/**
 * The side-by-side benchmark's machinery (bench/versus), on real files and a real engine: the
 * drivers map a window to each tool's terms, a request a tool cannot express becomes a row that
 * says why (never a dropped peer), ratios compare like with like, and the report writer emits
 * SVG charts and results with no machine path in them. Timings are measured, never asserted.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMeasured } from '../bench/child.js';
import { readpoolSystem } from '../bench/versus/drivers/readpool.js';
import { naiveSystem, shellSystem } from '../bench/versus/drivers/reference.js';
import { measure, type Row } from '../bench/versus/measure.js';
import { ratios, writeResults } from '../bench/versus/results.js';
import { barChart } from '../bench/versus/svg.js';
import { lineRange, Unsupported, type System } from '../bench/versus/system.js';
import { writeGeneratedLines } from './support/generated-file.js';
import { makeTempDir, removeTempDir } from './support/temp-dir.js';

let root = '';
let log = '';
let readpool: System;

beforeAll(async () => {
  root = makeTempDir();
  log = path.join(root, 'app.log');
  writeGeneratedLines(log, 5000, (n) => `line ${n}`);
  readpool = await readpoolSystem(root);
});

afterAll(async () => {
  await readpool.close();
  removeTempDir(root);
});

function row(system: string, perSecond: number, bytes: number, status: Row['status'] = 'ok', reason?: string): Row {
  return { scenario: '1 batch', case: 'c', system, status, unit: 'files', ops: 10, perSecond, bytes, ...(reason === undefined ? {} : { reason }) };
}

describe('drivers', () => {
  it('read the same tail through readpool (negative offset) and the shell (tail -n)', async () => {
    const ours = await readpool.read(log, { tail: 3 });
    const shell = await shellSystem().read(log, { tail: 3 });
    expect(ours.isError).toBe(false);
    // Previews collapse whitespace: readpool's `N<TAB>line` numbering, the shell's bare lines.
    expect(ours.preview.startsWith('4998 line 4998 4999 line 4999 5000 line 5000')).toBe(true);
    expect(shell.preview).toBe('line 4998 line 4999 line 5000 ');
  });

  it('map a tail to a start line only when the line count is known', () => {
    expect(lineRange({ tail: 100, totalLines: 5000 }, 2000, 'read')).toEqual({ start: 4901, count: 100 });
    expect(lineRange({ offset: 7, limit: 3 }, 2000, 'read')).toEqual({ start: 7, count: 3 });
    expect(() => lineRange({ tail: 100 }, 2000, 'read')).toThrow(Unsupported);
  });
});

describe('measure', () => {
  it('counts every call and the bytes that reached the model', async () => {
    const measured = await measure({ scenario: 's', case: 'c', system: 'readpool', unit: 'reads', items: [1, 101, 201], concurrency: 2, passes: 2, warmup: false, op: (offset) => readpool.read(log, { offset, limit: 10 }) });
    expect(measured.status).toBe('ok');
    expect(measured.ops).toBe(3);
    expect(measured.errors).toBe(0);
    expect(measured.bytes).toBeGreaterThan(3 * 10 * 'NN\tline NN'.length);
    expect(measured.perSecond).toBeGreaterThan(0);
  });

  it('turns a request the tool cannot express into a row with the reason', async () => {
    const measured = await measure({ scenario: 's', case: 'c', system: 'naive', unit: 'reads', items: [log], concurrency: 1, passes: 1, warmup: true, op: (file) => naiveSystem().read(file, { tail: 10 }) });
    expect(measured).toMatchObject({ status: 'unsupported', reason: 'the in-repo reference reads the first 2000 lines only' });
  });

  it('marks a system that answered every call with an error as refused, with its message', async () => {
    const measured = await measure({ scenario: 's', case: 'c', system: 'readpool', unit: 'reads', items: ['missing.txt'], concurrency: 1, passes: 1, warmup: false, op: (file) => readpool.read(path.join(root, file), {}) });
    expect(measured.status).toBe('refused');
    expect(measured.reason).toMatch(/missing\.txt/);
  });
});

describe('peak RSS of a measured child', () => {
  it('is the child\'s own, not the peak of the large process that spawned it', () => {
    // 300 MiB resident here: getrusage's maxRSS would carry it across execve into the child.
    const ballast = Buffer.alloc(300 * 2 ** 20, 1);
    const preload = path.resolve('dist/bench/rss-preload.js');
    const child = runMeasured(['-e', '0'], root, preload);
    expect(ballast[ballast.length - 1]).toBe(1);
    expect(child.maxRssMiB).toBeGreaterThan(10);
    expect(child.maxRssMiB).toBeLessThan(200);
  });
});

describe('report', () => {
  it('gives readpool a ratio to each peer, and the reason where there is none', () => {
    const rows = [row('readpool', 200, 1000), row('peer', 100, 3000), row('slow peer', 0, 0, 'refused', 'File size exceeds the 20MB limit.')];
    const found = ratios(rows);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatchObject({ peer: 'peer', speed: 2, bytes: 3 });
    expect(found[1]).toMatchObject({ peer: 'slow peer', speed: null, why: 'refused: File size exceeds the 20MB limit.' });
  });

  it('draws one bar per figure and writes the reason where a system has none', () => {
    const svg = barChart('t <1>', 'files/s', [{ label: 'c', bars: [{ system: 'a', value: 10 }, { system: 'b', value: null, missing: 'unsupported: no <tail>' }] }], ['a', 'b']);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/<rect x=/g)).toHaveLength(1);
    expect(svg).toContain('unsupported: no &lt;tail&gt;');
    expect(svg).toContain('t &lt;1&gt;');
  });

  it('writes latest.json, latest.md and the charts with no machine path in them', () => {
    const project = makeTempDir();
    try {
      const rows = [row('readpool', 200, 1000), row('peer', 100, 3000, 'failed', `cannot open ${project}/bench/peers`)];
      const machine = { cpu: 'cpu', cores: 2, memoryGiB: 4, node: 'v20', platform: 'linux' };
      writeResults(project, { date: '2026-11-23T22:00:00.000Z', mode: 'quick', seconds: 1, machine, versions: {}, rows });
      const md = fs.readFileSync(path.join(project, 'bench/results/latest.md'), 'utf8');
      const json = fs.readFileSync(path.join(project, 'bench/results/latest.json'), 'utf8');
      expect(md).toContain('| 1 batch | c | peer | failed: cannot open ./bench/peers |');
      expect(md).toContain('![1-batch-rate](charts/1-batch-rate.svg)');
      expect(fs.existsSync(path.join(project, 'bench/results/charts/bytes.svg'))).toBe(true);
      expect(json).not.toContain(project);
      expect(md).not.toContain(project);
    } finally {
      removeTempDir(project);
    }
  });
});
