import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { headBytesOf, renderLine, type LineFormat, type RenderSpec } from '../src/core/line-format.js';
import { SimdLineFeeds } from '../src/core/line-feeds.js';
import { LineSlicer, cutText, type SliceLimits, type SliceResult, type SliceStart } from '../src/core/line-slicer.js';
import { contentPieces, PIECE_CHARS } from '../src/core/slice-result.js';
import { primeSlicing } from '../src/core/slicer-priming.js';
import { RENDER } from '../src/dialects/readpool.js';
import { createRandom, type Random } from './support/random.js';

/** Lines as they are, with the native dialect's cut marker. */
const PLAIN: RenderSpec = { format: { numbered: false }, cutMarker: RENDER.cutMarker };
const UNLIMITED = Number.MAX_SAFE_INTEGER;
/** Large enough that no generated line is ever cut. */
const NO_CUT = 1_000_000_000;
const CASES = 60;

const MARKER = / … \[line cut after (\d+) characters; the whole line is (\d+) bytes\]$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// ---------------------------------------------------------------------------------------------
// Random inputs: ASCII, 2-, 3- and 4-byte UTF-8, empty and long lines, all three line breaks.

const ASCII = [...'abcdefghijklmnopqrstuvwxyz ABCXYZ 0123456789 .,;:-_()[]{}\t'];
const TWO_BYTE = ['é', 'ß', 'ñ', 'Ω', 'ж', 'ü', 'ø'];
const THREE_BYTE = ['日', '本', '語', '€', '—', '한', 'ह', '…'];
const FOUR_BYTE = ['😀', '🎉', '𝔘', '𠀋', '🇯', '🦄'];
const BREAKS = ['\n', '\r\n', '\r'] as const;

function randomChar(random: Random, multibyteShare: number): string {
  if (!random.chance(multibyteShare)) return random.pick(ASCII);
  return random.pick(random.pick([TWO_BYTE, THREE_BYTE, FOUR_BYTE]));
}

function randomLine(random: Random, multibyteShare: number): string {
  const shape = random.next();
  const length = shape < 0.15 ? 0 : shape < 0.93 ? random.int(1, 40) : random.int(300, 3000);
  let line = '';
  for (let i = 0; i < length; i++) line += randomChar(random, multibyteShare);
  return line;
}

function randomLines(random: Random, multibyteShare = 0.3): string[] {
  const count = random.chance(0.05) ? 0 : random.int(1, 50);
  return Array.from({ length: count }, () => randomLine(random, multibyteShare));
}

/** Joins lines with one break style (or a random mix) and maybe a trailing break. */
function joinLines(lines: readonly string[], breakOf: (index: number) => string, trailing: boolean): string {
  let text = '';
  lines.forEach((line, index) => {
    text += line;
    if (index < lines.length - 1 || trailing) text += breakOf(index);
  });
  return text;
}

function randomText(random: Random, multibyteShare = 0.3): string {
  const lines = randomLines(random, multibyteShare);
  const breaks = lines.map(() => random.pick(BREAKS));
  return joinLines(lines, (index) => breaks[index] ?? '\n', random.chance(0.5));
}

/** What the slicer must see in `text`: lines split on any break, one final break not a line. */
function expectedLines(text: string): string[] {
  if (text.length === 0) return [];
  const normalised = text.replace(/\r\n|\r|\n/g, '\n');
  return (normalised.endsWith('\n') ? normalised.slice(0, -1) : normalised).split('\n');
}

// ---------------------------------------------------------------------------------------------
// Feeding the slicer the way the worker does: through one reused scratch buffer.

type Chunking = (random: Random) => number;

const WHOLE: Chunking = () => UNLIMITED;
const ONE_BYTE: Chunking = () => 1;
const RANDOM_CHUNKS: Chunking = (random) => {
  const shape = random.next();
  if (shape < 0.3) return random.int(1, 3);
  if (shape < 0.7) return random.int(1, 64);
  return random.int(1, 4096);
};

function slice(text: string | Buffer, limits: SliceLimits, chunking: Chunking, random: Random, render = PLAIN, start: SliceStart = {}): SliceResult {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const slicer = new LineSlicer(limits, render, start);
  const scratch = Buffer.alloc(Math.max(1, bytes.length));
  let position = 0;
  while (position < bytes.length) {
    const size = Math.min(chunking(random), bytes.length - position);
    bytes.copy(scratch, 0, position, position + size);
    slicer.push(scratch.subarray(0, size));
    // The slicer may keep nothing that points into the chunk: poison it with invalid UTF-8.
    scratch.fill(0xff, 0, size);
    position += size;
  }
  return slicer.end();
}

/**
 * `slice` through a given scratch buffer, with each chunk's file offset (which the index needs).
 * Each chunk is put at the scratch's end, so a scratch that ends where its memory does puts
 * every chunk there: a finder must read nothing past a chunk.
 */
function sliceThrough(bytes: Buffer, caps: SliceLimits, chunking: Chunking, random: Random, scratch: Buffer, start: SliceStart): SliceResult {
  const slicer = new LineSlicer(caps, PLAIN, start);
  let position = 0;
  while (position < bytes.length) {
    const size = Math.min(chunking(random), bytes.length - position, scratch.length);
    const chunk = scratch.subarray(scratch.length - size);
    bytes.copy(chunk, 0, position, position + size);
    slicer.push(chunk, position);
    chunk.fill(0xff);
    position += size;
  }
  return slicer.end();
}

/** The byte offset where each line starts: 0, then after every LF, CR LF or lone CR. */
function lineStarts(bytes: Buffer): number[] {
  const starts = [0];
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a || (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a)) starts.push(i + 1);
  }
  return starts;
}

function limits(overrides: Partial<SliceLimits> = {}): SliceLimits {
  return { offset: 1, limit: UNLIMITED, maxBytes: UNLIMITED, maxTokens: UNLIMITED, maxLineChars: NO_CUT, ...overrides };
}

function randomLimits(random: Random, totalLines: number): SliceLimits {
  return {
    offset: random.int(1, totalLines + 2),
    limit: random.int(1, 80),
    maxBytes: random.int(512, 6000),
    maxTokens: random.int(128, 1500),
    maxLineChars: random.chance(0.3) ? random.int(1, 40) : random.int(41, 3000),
  };
}

function shownLines(result: SliceResult): string[] {
  const count = result.endLine - result.startLine + 1;
  return count === 0 ? [] : result.content.split('\n');
}

// ---------------------------------------------------------------------------------------------

/** Limits for a region test: a window near the start, budgets from the given floors up. */
function regionLimits(random: Random, lineCount: number, floors: { minBytes: number; minTokens: number }) {
  return {
    offset: random.int(1, Math.max(1, lineCount - 5)),
    limit: random.int(1, 400),
    maxBytes: random.int(floors.minBytes, 20_000),
    maxTokens: random.int(floors.minTokens, 5_000),
    maxLineChars: random.int(20, 3000),
  };
}

describe('LineSlicer properties (seeded random inputs)', () => {
  it('slices of a partition concatenate back to the file, with the same exact totalLines in every slice', () => {
    for (let seed = 1; seed <= CASES; seed++) {
      const random = createRandom(seed);
      const text = randomText(random);
      const lines = expectedLines(text);
      const total = lines.length;
      const chunking = random.pick([WHOLE, ONE_BYTE, RANDOM_CHUNKS]);
      const contents: string[] = [];
      let offset = 1;
      do {
        const limit = random.int(1, Math.max(1, Math.ceil(total / 3)));
        const result = slice(text, limits({ offset, limit }), chunking, random);
        const endLine = Math.min(offset + limit - 1, total);
        expect(result.totalLines, `seed ${seed}`).toBe(total);
        expect(result.startLine, `seed ${seed}`).toBe(offset);
        expect(result.endLine, `seed ${seed}`).toBe(endLine);
        expect(result.stop, `seed ${seed}`).toBe(endLine < total ? 'lines' : null);
        expect(result.cutLines, `seed ${seed}`).toBe(0);
        if (endLine >= offset) contents.push(result.content);
        else expect(result.content, `seed ${seed}`).toBe('');
        offset = endLine + 1;
      } while (offset <= total);
      expect(contents.join('\n'), `seed ${seed}`).toBe(lines.join('\n'));
    }
  });

  it('never exceeds its byte or token cap, and shows every line whole or as a marked prefix', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= CASES; seed++) {
      const random = createRandom(1000 + seed);
      const text = randomText(random, 0.5);
      const lines = expectedLines(text);
      const caps = randomLimits(random, lines.length);
      const numbered = random.chance(0.5);
      const result = slice(text, caps, RANDOM_CHUNKS, random, numbered ? RENDER : PLAIN);
      const where = `seed ${1000 + seed}, limits ${JSON.stringify(caps)}`;

      expect(Buffer.byteLength(result.content), where).toBeLessThanOrEqual(caps.maxBytes);
      expect(Math.ceil(result.content.length / 4), where).toBeLessThanOrEqual(caps.maxTokens);
      expect(result.totalLines, where).toBe(lines.length);
      const shown = shownLines(result);
      expect(shown.length, where).toBeLessThanOrEqual(caps.limit);
      // Never an empty page (with a hint to read the same offset again) while lines remain.
      if (caps.offset <= lines.length) expect(result.endLine, where).toBeGreaterThanOrEqual(result.startLine);
      expect(result.stop === null, where).toBe(result.endLine >= lines.length);

      let cut = 0;
      shown.forEach((rendered, index) => {
        const lineNumber = caps.offset + index;
        const original = lines[lineNumber - 1];
        expect(original, where).toBeDefined();
        let body = rendered;
        if (numbered) {
          expect(body.startsWith(`${lineNumber}\t`), where).toBe(true);
          body = body.slice(`${lineNumber}\t`.length);
        }
        const marker = MARKER.exec(body);
        if (marker === null) {
          expect(body, where).toBe(original);
          return;
        }
        cut++;
        const prefix = body.slice(0, marker.index);
        // A cut inside a surrogate pair moves back one unit; the marker's exact count has its own
        // example test below, so this property keeps checking everything else.
        expect(Number(marker[1]) - prefix.length, where).toBeGreaterThanOrEqual(0);
        expect(Number(marker[1]) - prefix.length, where).toBeLessThanOrEqual(1);
        expect(prefix.length, where).toBeLessThanOrEqual(caps.maxLineChars);
        expect(prefix.length, where).toBeLessThan(original?.length ?? 0);
        expect(original?.startsWith(prefix), where).toBe(true);
        expect(Number(marker[2]), where).toBe(Buffer.byteLength(original ?? ''));
      });
      expect(result.cutLines, where).toBe(cut);
      seen.add(String(result.stop));
      if (cut > 0) seen.add(result.stop === null || result.endLine > result.startLine ? 'cut' : 'one cut line, then a budget stop');
    }
    // The generator must reach every path, or the property proves little.
    expect([...seen].sort()).toEqual(['bytes', 'cut', 'lines', 'null', 'one cut line, then a budget stop', 'tokens']);
  });

  it('gives identical content, line numbers and totalLines for the CRLF, LF and lone-CR versions of a text', () => {
    for (let seed = 1; seed <= CASES; seed++) {
      const random = createRandom(2000 + seed);
      const lines = randomLines(random);
      const trailing = random.chance(0.5);
      const caps = randomLimits(random, lines.length);
      const results = BREAKS.map((lineBreak) => slice(joinLines(lines, () => lineBreak, trailing), caps, RANDOM_CHUNKS, random));
      const [lf, crlf, cr] = results.map(({ endings: _endings, ...rest }) => rest);
      expect(crlf, `seed ${2000 + seed}`).toEqual(lf);
      expect(cr, `seed ${2000 + seed}`).toEqual(lf);
      const breaks = Math.max(0, lines.length - (trailing ? 0 : 1));
      expect(results.map((result) => result.endings)).toEqual([
        { lf: breaks, crlf: 0, cr: 0 },
        { lf: 0, crlf: breaks, cr: 0 },
        { lf: 0, crlf: 0, cr: breaks },
      ]);
    }
  });

  it('never splits a UTF-8 sequence, even in 1-byte chunks with lines cut short', () => {
    let cutLines = 0;
    for (let seed = 1; seed <= CASES; seed++) {
      const random = createRandom(3000 + seed);
      const text = randomText(random, 0.9);
      const caps = { ...randomLimits(random, 10), offset: 1, maxLineChars: random.int(1, 25) };
      const result = slice(text, caps, random.pick([ONE_BYTE, RANDOM_CHUNKS]), random);
      const where = `seed ${3000 + seed}`;
      expect(result.content.includes('\uFFFD'), where).toBe(false);
      expect(LONE_SURROGATE.test(result.content), where).toBe(false);
      for (const line of shownLines(result)) {
        const marker = MARKER.exec(line);
        const shown = marker === null ? line : line.slice(0, marker.index);
        const last = shown.charCodeAt(shown.length - 1);
        expect(last >= 0xd800 && last <= 0xdbff, where).toBe(false);
      }
      cutLines += result.cutLines;
    }
    expect(cutLines).toBeGreaterThan(CASES);
  });

  it('returns the same result whether the input comes whole, in 1-byte chunks or in random chunks', () => {
    for (let seed = 1; seed <= CASES; seed++) {
      const random = createRandom(4000 + seed);
      const text = randomText(random, 0.5);
      const caps = randomLimits(random, expectedLines(text).length);
      const whole = slice(text, caps, WHOLE, random);
      expect(slice(text, caps, ONE_BYTE, random), `seed ${4000 + seed}`).toEqual(whole);
      expect(slice(text, caps, RANDOM_CHUNKS, random), `seed ${4000 + seed}`).toEqual(whole);
    }
  });

  it('counts, numbers and indexes lines alike whether its line breaks are found by SIMD over its chunks or by indexOf', () => {
    // The SIMD scratch is the last 16 KiB of the finder's memory: every chunk ends where it does.
    const feeds = new SimdLineFeeds(65_536);
    const simdScratch = feeds.buffer.subarray(65_536 - 16_384);
    const scratch = Buffer.alloc(16_384);
    for (let seed = 1; seed <= 3 * CASES; seed++) {
      const random = createRandom(9000 + seed);
      // Long texts, so that chunks are counted past the 1 KiB steps: LF breaks with a rare CR LF or
      // lone CR, or CR LF breaks with a rare other, or any mix.
      const lines = Array.from({ length: random.int(1, 6) }, () => randomLines(random, 0.1)).flat();
      const usual = random.pick(['\n', '\r\n', null]);
      const text = joinLines(lines, () => (usual !== null && random.chance(0.97) ? usual : random.pick(BREAKS)), random.chance(0.5));
      const bytes = Buffer.from(text, 'utf8');
      const caps = { ...randomLimits(random, lines.length), offset: random.int(1, lines.length + 2) };
      const indexEvery = random.pick([0, 1, 2, 7, 50]);
      const chunking = random.pick([WHOLE, RANDOM_CHUNKS, () => random.int(1000, 16_384)]);
      const state = random.next();
      const simd = sliceThrough(bytes, caps, chunking, createRandom(state * 1e9), simdScratch, { indexEvery, feeds });
      const plain = sliceThrough(bytes, caps, chunking, createRandom(state * 1e9), scratch, { indexEvery });
      expect(simd, `seed ${9000 + seed}`).toEqual(plain);
      expect(simd.totalLines, `seed ${9000 + seed}`).toBe(expectedLines(text).length);
      // Every index entry is a true line start, and entries are at least indexEvery lines apart.
      const starts = lineStarts(bytes);
      const index = simd.index ?? [];
      for (let k = 0; k < index.length; k += 2) {
        const [line = 0, at = -1] = index.slice(k, k + 2);
        expect(at, `seed ${9000 + seed}: index entry of line ${line}`).toBe(starts[line - 1]);
        if (k > 0) expect(line - (index[k - 2] ?? 0), `seed ${9000 + seed}: entry of line ${line}`).toBeGreaterThanOrEqual(indexEvery);
      }
      expect(index.length > 0, `seed ${9000 + seed}: an index`).toBe(indexEvery > 0 && bytes.length > 0);
    }
  });

  it('renders a window taken as whole regions exactly as one taken line by line, for every line format and budget', () => {
    // Whole input: windows go through the region path, which stops at a long line or a budget
    // and resumes after it; 1-byte chunks take every line alone. Both must give the same slice.
    const padded: RenderSpec = { format: { numbered: true, prefix: '→ ', width: 6, separator: ' │ ' }, cutMarker: RENDER.cutMarker };
    const budget: RenderSpec = { ...RENDER, cut: 'budget' };
    const stops = new Map<string, number>();
    for (let seed = 1; seed <= 4 * CASES; seed++) {
      const random = createRandom(9000 + seed);
      const lines = Array.from({ length: random.int(1, 300) }, () => randomLine(random, random.pick([0, 0.05, 0.5])));
      // LF or CR LF breaks, which regions take, or a mix with a rare lone CR, where they stop.
      const usual = random.pick(['\n', '\r\n', null]);
      const text = joinLines(lines, () => usual ?? (random.chance(0.05) ? '\r' : random.pick(['\n', '\r\n'])), random.chance(0.7));
      const caps = regionLimits(random, lines.length, { minBytes: 512, minTokens: 128 });
      const render = random.pick([RENDER, PLAIN, padded, budget]);
      const where = `seed ${9000 + seed}, limits ${JSON.stringify(caps)}`;
      const whole = slice(text, caps, WHOLE, random, render);
      expect(Buffer.byteLength(whole.content), where).toBeLessThanOrEqual(caps.maxBytes);
      expect(Math.ceil(whole.content.length / 4), where).toBeLessThanOrEqual(caps.maxTokens);
      expect(slice(text, caps, ONE_BYTE, random, render), where).toEqual(whole);
      stops.set(String(whole.stop), (stops.get(String(whole.stop)) ?? 0) + 1);
    }
    // Every way a region can end must be reached, several times, or the property proves little.
    expect([...stops.keys()].sort()).toEqual(['bytes', 'lines', 'null', 'tokens']);
    expect(Math.min(...stops.values())).toBeGreaterThanOrEqual(5);
  });

  it('renders regions longer than the source the renderer copies first (16 KiB) exactly as line by line', () => {
    // Large budgets: a region goes on past the renderer's first copy of the source and is resumed
    // after each further copy, up to the limit, a long line, a lone CR or the budget.
    const padded: RenderSpec = { format: { numbered: true, prefix: '→ ', width: 6, separator: ' │ ' }, cutMarker: RENDER.cutMarker };
    let longest = 0;
    let longPieces = 0;
    for (let seed = 1; seed <= 24; seed++) {
      const random = createRandom(15_000 + seed);
      const lines = Array.from({ length: random.int(500, 3000) }, () => randomLine(random, random.pick([0, 0, 0.05])));
      const usual = random.pick(['\n', '\r\n', null]);
      const text = joinLines(lines, () => usual ?? (random.chance(0.002) ? '\r' : random.pick(['\n', '\r\n'])), random.chance(0.7));
      const caps = { offset: random.int(1, 50), limit: random.int(400, 3000), maxBytes: random.int(20_000, 400_000), maxTokens: random.int(5_000, 100_000), maxLineChars: random.int(500, 4000) };
      const render = random.pick([RENDER, PLAIN, padded]);
      const where = `seed ${15_000 + seed}, limits ${JSON.stringify(caps)}`;
      const whole = slice(text, caps, WHOLE, random, render);
      expect(slice(text, caps, ONE_BYTE, random, render), where).toEqual(whole);
      longest = Math.max(longest, Buffer.byteLength(whole.content));
      // A long window is kept as pieces under V8's large-object size, which make up its content.
      const pieces = contentPieces(whole);
      if (whole.content.length <= PIECE_CHARS) expect(pieces, where).toBeUndefined();
      else {
        expect(pieces?.join(''), where).toBe(whole.content);
        for (const piece of pieces ?? []) expect(piece.length, where).toBeLessThanOrEqual(PIECE_CHARS);
        longPieces++;
      }
    }
    expect(longest).toBeGreaterThan(4 * 16 * 1024);
    expect(longPieces).toBeGreaterThanOrEqual(3);
  });

  it('renders ASCII regions exactly as line by line, for every line format and budget, tail numbering included', () => {
    // All-ASCII text takes the region path's ASCII loop whenever a window is taken as a region (whole input);
    // 1-byte chunks take every line alone. A non-ASCII prefix and separator (padded) must be
    // measured in UTF-8 bytes and characters apart, as the line-by-line path does; a tail read's
    // lines are numbered from -1 back, as a negative first line.
    const padded: RenderSpec = { format: { numbered: true, prefix: '→ ', width: 6, separator: ' │ ' }, cutMarker: RENDER.cutMarker };
    const narrow: RenderSpec = { format: { numbered: true, prefix: '', width: 2, separator: ':' }, cutMarker: RENDER.cutMarker };
    const budget: RenderSpec = { ...RENDER, cut: 'budget' };
    const stops = new Map<string, number>();
    for (let seed = 1; seed <= 4 * CASES; seed++) {
      const random = createRandom(12_000 + seed);
      const lines = Array.from({ length: random.int(1, 400) }, () => randomLine(random, 0));
      const usual = random.pick(['\n', '\r\n', null]);
      const text = joinLines(lines, () => usual ?? random.pick(['\n', '\r\n']), random.chance(0.7));
      const caps = regionLimits(random, lines.length, { minBytes: 256, minTokens: 64 });
      const render = random.pick([RENDER, PLAIN, padded, narrow, budget]);
      const start = { firstLine: random.pick([1, 1, -lines.length, -random.int(1, 2000)]) };
      // A tail read's window starts at its first (negative) line.
      if (start.firstLine < 0) caps.offset = start.firstLine + random.int(0, 5);
      const where = `seed ${12_000 + seed}, first line ${start.firstLine}, limits ${JSON.stringify(caps)}`;
      const whole = slice(text, caps, WHOLE, random, render, start);
      expect(slice(text, caps, ONE_BYTE, random, render, start), where).toEqual(whole);
      stops.set(String(whole.stop), (stops.get(String(whole.stop)) ?? 0) + 1);
    }
    expect([...stops.keys()].sort()).toEqual(['bytes', 'lines', 'null', 'tokens']);
    expect(Math.min(...stops.values())).toBeGreaterThanOrEqual(5);
  });

  it('returns the same result whatever the chunking when lines far longer than maxLineChars meet a tight byte budget', () => {
    for (let seed = 1; seed <= CASES; seed++) {
      const random = createRandom(7000 + seed);
      const maxLineChars = random.int(200, 1500);
      const lines = Array.from({ length: random.int(1, 4) }, () => {
        let line = '';
        const length = random.int(maxLineChars, 4 * maxLineChars);
        for (let i = 0; i < length; i++) line += randomChar(random, 0.7);
        return line;
      });
      const text = joinLines(lines, () => random.pick(BREAKS), true);
      const caps = limits({ maxLineChars, maxBytes: random.int(512, 3 * maxLineChars), maxTokens: random.int(128, 2 * maxLineChars) });
      const whole = slice(text, caps, WHOLE, random);
      expect(slice(text, caps, ONE_BYTE, random), `seed ${7000 + seed}, limits ${JSON.stringify(caps)}`).toEqual(whole);
    }
  });

  it('returns the same result whatever the chunking for text that is not valid UTF-8 (Latin-1 bytes)', () => {
    for (let seed = 1; seed <= CASES; seed++) {
      const random = createRandom(8000 + seed);
      const bytes: number[] = [];
      const count = random.int(1, 30);
      for (let line = 0; line < count; line++) {
        const length = random.chance(0.2) ? random.int(100, 600) : random.int(0, 40);
        for (let i = 0; i < length; i++) bytes.push(random.chance(0.3) ? random.int(0x80, 0xff) : random.int(0x20, 0x7e));
        bytes.push(...Buffer.from(random.pick(BREAKS)));
      }
      const input = Buffer.from(bytes);
      const caps = randomLimits(random, count);
      const whole = slice(input, caps, WHOLE, random);
      expect(slice(input, caps, ONE_BYTE, random), `seed ${8000 + seed}, limits ${JSON.stringify(caps)}`).toEqual(whole);
      expect(slice(input, caps, RANDOM_CHUNKS, random), `seed ${8000 + seed}, limits ${JSON.stringify(caps)}`).toEqual(whole);
    }
  });

  it('splits CRLF pairs and multibyte characters at every possible chunk boundary without changing the result', () => {
    const text = 'ab\r\n日本\r\r\n😀é\n\r\nz';
    const bytes = Buffer.from(text, 'utf8');
    const random = createRandom(5000);
    const whole = slice(bytes, limits(), WHOLE, random);
    expect(whole.content).toBe('ab\n日本\n\n😀é\n\nz');
    expect(whole.endings).toEqual({ lf: 1, crlf: 3, cr: 1 });
    for (let cut = 1; cut < bytes.length; cut++) {
      const sizes = [cut, UNLIMITED];
      const result = slice(bytes, limits(), () => sizes.shift() ?? UNLIMITED, random);
      expect(result, `split at byte ${cut}`).toEqual(whole);
    }
  });
});

describe('LineSlicer column reads (seeded random inputs)', () => {
  it('pieces of a line read by column concatenate back to the line, whatever the chunking and budget', () => {
    for (let seed = 1; seed <= CASES; seed++) {
      const random = createRandom(seed);
      const lines = randomLines(random, 0.4).concat(Array.from({ length: 3 }, () => randomLine(random, 0.4)));
      const text = joinLines(lines, () => random.pick(BREAKS), random.chance(0.5));
      const all = expectedLines(text);
      const target = random.int(1, all.length);
      const line = all[target - 1] ?? '';
      const budget = { maxBytes: random.int(512, 2000), maxTokens: random.int(128, 600) };
      const chunking = random.pick([WHOLE, ONE_BYTE, RANDOM_CHUNKS]);
      const pieces: string[] = [];
      let column = 1;
      for (let call = 0; ; call++) {
        expect(call, `seed ${seed}`).toBeLessThan(1000);
        const result = slice(text, limits({ offset: target, limit: 1, column, ...budget }), chunking, random);
        expect(result.totalLines, `seed ${seed}`).toBe(all.length);
        expect(Buffer.byteLength(result.content), `seed ${seed}`).toBeLessThanOrEqual(budget.maxBytes);
        expect(Math.ceil(result.content.length / 4), `seed ${seed}`).toBeLessThanOrEqual(budget.maxTokens);
        expect(LONE_SURROGATE.test(result.content), `seed ${seed}`).toBe(false);
        const facts = result.column;
        if (facts === null) throw new Error(`seed ${seed}: no column facts`);
        expect(facts.first, `seed ${seed}`).toBe(column);
        expect(facts.lineBytes, `seed ${seed}`).toBe(Buffer.byteLength(line));
        pieces.push(result.content);
        if (!facts.more) break;
        expect(facts.last, `seed ${seed}`).toBeGreaterThanOrEqual(column);
        column = facts.last + 1;
      }
      expect(pieces.join(''), `seed ${seed}`).toBe(line);
    }
  });

  it("fills a 'budget' render to its byte cap exactly, cutting between whole characters", () => {
    const FILL: RenderSpec = { format: { numbered: false }, cutMarker: '', cut: 'budget' };
    for (let seed = 1; seed <= CASES; seed++) {
      const random = createRandom(seed);
      const text = randomText(random, 0.5);
      const whole = expectedLines(text).join('\n');
      const maxBytes = random.int(512, 4000);
      const result = slice(text, limits({ maxBytes }), random.pick([WHOLE, ONE_BYTE, RANDOM_CHUNKS]), random, FILL);
      const bytes = Buffer.byteLength(result.content);
      expect(LONE_SURROGATE.test(result.content), `seed ${seed}`).toBe(false);
      expect(whole.startsWith(result.content), `seed ${seed}`).toBe(true);
      if (Buffer.byteLength(whole) <= maxBytes) {
        expect(result.content, `seed ${seed}`).toBe(whole);
        expect(result.stop, `seed ${seed}`).toBe(null);
      } else {
        // Within 3 bytes of the cap: only a character that did not fit whole is left out.
        expect(bytes, `seed ${seed}`).toBeLessThanOrEqual(maxBytes);
        expect(bytes, `seed ${seed}`).toBeGreaterThan(maxBytes - 4);
      }
    }
  });
});

describe('LineSlicer examples', () => {
  const random = createRandom(1);

  it('reports no lines for an empty input', () => {
    const result = slice('', limits(), WHOLE, random);
    expect(result).toMatchObject({ content: '', startLine: 1, endLine: 0, totalLines: 0, stop: null, cutLines: 0 });
  });

  it('counts a final line the same with or without a trailing newline, and says which it was', () => {
    const withBreak = slice('alpha\nbeta\n', limits(), WHOLE, random);
    const without = slice('alpha\nbeta', limits(), WHOLE, random);
    expect(withBreak).toEqual({ ...without, finalBreak: true, endings: { lf: 2, crlf: 0, cr: 0 } });
    expect(without).toMatchObject({ content: 'alpha\nbeta', totalLines: 2, endLine: 2, stop: null, finalBreak: false });
    expect(slice('', limits(), WHOLE, random).finalBreak).toBe(false);
    expect(slice('a\r\n', limits(), WHOLE, random).finalBreak).toBe(true);
  });

  it('counts an empty last line when the text ends with two breaks', () => {
    const result = slice('alpha\n\n', limits(), WHOLE, random);
    expect(result).toMatchObject({ content: 'alpha\n', totalLines: 2, endLine: 2 });
  });

  it('answers an offset past the end with no lines, endLine one before startLine and no stop reason', () => {
    const result = slice('one\ntwo\nthree\n', limits({ offset: 10 }), WHOLE, random);
    expect(result).toMatchObject({ content: '', startLine: 10, endLine: 9, totalLines: 3, stop: null });
  });

  it('cuts a line longer than maxLineChars, appends the marker and counts it in cutLines', () => {
    const result = slice('abcdefghijklmnop\nshort\n', limits({ maxLineChars: 10 }), WHOLE, random);
    expect(result.content).toBe('abcdefghij … [line cut after 10 characters; the whole line is 16 bytes]\nshort');
    expect(result.cutLines).toBe(1);
    expect(result.stop).toBeNull();
  });

  it('reports in the cut marker the number of characters actually shown when the cut falls inside a surrogate pair', () => {
    // Ten code units would end between the halves of the emoji, so only nine are shown.
    const result = slice('abcdefghi😀xyz\n', limits({ maxLineChars: 10 }), WHOLE, random);
    expect(result.content).toBe('abcdefghi … [line cut after 9 characters; the whole line is 16 bytes]');
  });

  it('cuts an over-budget first line to the same length whether it arrives whole or in 1-byte chunks', () => {
    // 3000 two-byte characters; cut at 1000 they are still 2000 bytes, over a 1800-byte budget.
    const text = `${'é'.repeat(3000)}\nnext\n`;
    const caps = limits({ maxLineChars: 1000, maxBytes: 1800 });
    const whole = slice(text, caps, WHOLE, random);
    const bytewise = slice(text, caps, ONE_BYTE, random);
    expect(whole.stop).toBe('bytes');
    expect(whole.content).toBe(bytewise.content);
  });

  it('gives the on-disk byte length of a cut line in the marker when the text is not valid UTF-8', () => {
    // 100 times "café " in Latin-1: 500 bytes on disk, each é a lone 0xE9 byte.
    const input = Buffer.concat([Buffer.from('caf\xe9 '.repeat(100), 'latin1'), Buffer.from('\nnext\n')]);
    const caps = limits({ maxLineChars: 50 });
    for (const chunking of [WHOLE, ONE_BYTE]) {
      const [first] = slice(input, caps, chunking, random).content.split('\n');
      expect(first).toMatch(/the whole line is 500 bytes\]$/);
    }
  });

  it('still shows the first line, cut to fit, when that line alone is over the byte budget', () => {
    const text = `${'x'.repeat(5000)}\nsecond\n`;
    const result = slice(text, limits({ maxBytes: 512 }), WHOLE, random);
    expect(result.endLine).toBe(1);
    expect(result.stop).toBe('bytes');
    expect(result.cutLines).toBe(1);
    expect(Buffer.byteLength(result.content)).toBeLessThanOrEqual(512);
    expect(result.content).toMatch(/^x{100,} … \[line cut after \d+ characters; the whole line is 5000 bytes\]$/);
  });

  it('stops for the line limit with reason "lines"', () => {
    const result = slice('1\n2\n3\n4\n5\n', limits({ limit: 2 }), WHOLE, random);
    expect(result).toMatchObject({ content: '1\n2', endLine: 2, totalLines: 5, stop: 'lines' });
  });

  it('stops for the byte budget with reason "bytes" when multibyte lines fill it first', () => {
    const line = '日'.repeat(100);
    const text = Array.from({ length: 10 }, () => line).join('\n');
    const result = slice(text, limits({ maxBytes: 1000, maxTokens: 128 }), WHOLE, random);
    // 300 bytes a line: three lines and two breaks are 902 bytes, a fourth would be 1203.
    expect(result).toMatchObject({ endLine: 3, totalLines: 10, stop: 'bytes', cutLines: 0 });
  });

  it('stops for the token budget with reason "tokens" when characters fill it first', () => {
    const line = '日'.repeat(100);
    const text = Array.from({ length: 10 }, () => line).join('\n');
    const result = slice(text, limits({ maxBytes: 10_000, maxTokens: 128 }), WHOLE, random);
    // 128 tokens are 512 characters: five 100-character lines and four breaks are 504.
    expect(result).toMatchObject({ endLine: 5, totalLines: 10, stop: 'tokens', cutLines: 0 });
  });

  it('renders the native format as the line number, a tab and the line', () => {
    const result = slice('alpha\nbeta\ngamma\n', limits({ offset: 2 }), WHOLE, random, RENDER);
    expect(result.content).toBe('2\tbeta\n3\tgamma');
  });

  it('counts LF, CRLF and lone CR breaks separately, including a CR that ends a chunk', () => {
    const bytes = Buffer.from('a\r\nb\nc\rd\r', 'utf8');
    const sizes = [2, UNLIMITED];
    const result = slice(bytes, limits(), () => sizes.shift() ?? UNLIMITED, random);
    expect(result.endings).toEqual({ lf: 1, crlf: 1, cr: 2 });
    expect(result.totalLines).toBe(4);
  });
});

describe('line heads of a region', () => {
  it('are the ones renderLine writes, for every format and line number, tail numbering and numbers past 2^31 included', () => {
    const formats: LineFormat[] = [
      { numbered: true, prefix: '', width: 0, separator: '\t' },
      { numbered: true, prefix: '', width: 6, separator: '→' },
      { numbered: true, prefix: '→ ', width: 3, separator: ' │ ' },
      { numbered: true, prefix: 'L', width: 1, separator: ': ' },
      { numbered: true, prefix: '', width: 16, separator: '|' },
    ];
    const lines = ['first', '', 'third line', 'é and 😀'];
    const text = `${lines.join('\n')}\n`;
    for (const format of formats) {
      const render: RenderSpec = { format, cutMarker: RENDER.cutMarker };
      for (const first of [1, 7, 9, 97, 999_998, 123_456_789, 2 ** 31 - 3, 2 ** 31 - 1, 2 ** 31, 2 ** 40, -1, -4, -10, -12_345, -(2 ** 31) + 2]) {
        const numbers = lines.map((_, k) => first + k);
        const limits = { offset: first, limit: lines.length, maxBytes: 1 << 20, maxTokens: 1 << 20, maxLineChars: 2000 };
        const result = new LineSlicer(limits, render, { firstLine: first });
        result.push(Buffer.from(text));
        const where = `${JSON.stringify(format)} from line ${first}`;
        expect(result.end().content, where).toBe(lines.map((line, k) => renderLine(format, numbers[k] ?? 0, line)).join('\n'));
      }
    }
    expect(headBytesOf({ numbered: false })).toBeNull();
  });
});

describe('cutText', () => {
  it('never splits a surrogate pair, for every cut position of random strings', () => {
    for (let seed = 1; seed <= CASES; seed++) {
      const random = createRandom(6000 + seed);
      const text = randomLine(random, 0.8) + randomChar(random, 1);
      for (let max = 0; max <= text.length + 1; max++) {
        const cut = cutText(text, max);
        expect(text.startsWith(cut)).toBe(true);
        expect(LONE_SURROGATE.test(cut), `seed ${6000 + seed}, max ${max}`).toBe(false);
        if (text.length <= max) expect(cut).toBe(text);
        else expect(cut.length).toBeGreaterThanOrEqual(max - 1);
      }
    }
  });

  it('drops a whole emoji rather than half of it', () => {
    expect(cutText('a😀b', 2)).toBe('a');
    expect(cutText('a😀b', 3)).toBe('a😀');
  });
});

describe('primeSlicing (a fresh text worker slices a few texts before its first read)', () => {
  it('runs for every line format and line length, and leaves later windows as they were', () => {
    const padded: RenderSpec = { format: { numbered: true, prefix: '→ ', width: 6, separator: ' │ ' }, cutMarker: RENDER.cutMarker };
    const renders = [RENDER, PLAIN, padded, { ...RENDER, cut: 'budget' } satisfies RenderSpec];
    const feeds = new SimdLineFeeds(65_536);
    const text = Buffer.from('one\r\ntwo é\nthree 😀\nfour\n');
    const window = (render: RenderSpec) => {
      const slicer = new LineSlicer({ offset: 2, limit: 2, maxBytes: UNLIMITED, maxTokens: UNLIMITED, maxLineChars: NO_CUT }, render);
      slicer.push(text);
      return slicer.end();
    };
    const before = renders.map(window);
    for (const render of renders) for (const maxLineChars of [1, 80, 2000, NO_CUT]) primeSlicing(render, maxLineChars, feeds.buffer, feeds);
    expect(renders.map(window)).toEqual(before);
    expect(before[0]?.content).toBe('2\ttwo é\n3\tthree 😀');
  });
});

describe('a long window, once dropped', () => {
  it('is garbage to a young collection: its pieces are not kept alive into the old generation', () => {
    // A worker paging a large log drops each page's window once it is posted. When something
    // module-wide kept the pieces alive past the next young collection, every page was copied
    // to the old generation (each collection took 14 ms instead of 1 there). The child slices 60
    // windows of about 166 KB on a heap that has read for a while, then runs two young collections.
    const child = spawnSync(
      process.execPath,
      ['--expose-gc', fileURLToPath(new URL('./support/young-pieces.mjs', import.meta.url)), ...['core/line-slicer.js', 'dialects/readpool.js'].map((file) => new URL(`../dist/src/${file}`, import.meta.url).href)],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(child.status, child.stderr).toBe(0);
    const { grown, contentBytes } = JSON.parse(child.stdout) as { grown: number; contentBytes: number };
    expect(contentBytes).toBeGreaterThan(60 * PIECE_CHARS);
    // Measured: 6 to 7 KB with the pieces kept on their window; 72 to 86 KB when a WeakMap
    // held them (the least of three tries each).
    expect(grown).toBeLessThan(contentBytes / 300);
  });
});
