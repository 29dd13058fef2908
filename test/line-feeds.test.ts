import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ALL_FEEDS, INDEX_OF_FEEDS, SimdLineFeeds, type BreakTally } from '../src/core/line-feeds.js';

/** The position of every line feed in `bytes`, the plain way. */
function feedsOf(bytes: Buffer): number[] {
  const at: number[] = [];
  bytes.forEach((byte, i) => {
    if (byte === 0x0a) at.push(i);
  });
  return at;
}

/**
 * The last byte of every line break in `bytes` from `from`, the plain way, each with the line
 * feeds, CRs and CR LF pairs up to it: a line feed, or a CR not followed by one (the last byte
 * included, whatever follows it).
 */
function breaksOf(bytes: Buffer, from: number): { at: number; tally: BreakTally }[] {
  const found: { at: number; tally: BreakTally }[] = [];
  const tally = { lfs: 0, crs: 0, pairs: 0 };
  for (let i = from; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) tally.lfs++;
    if (bytes[i] !== 0x0d) {
      if (bytes[i] === 0x0a) found.push({ at: i, tally: { ...tally } });
      continue;
    }
    tally.crs++;
    if (bytes[i + 1] === 0x0a) tally.pairs++;
    else found.push({ at: i, tally: { ...tally } });
  }
  found.push({ at: -1, tally });
  return found;
}

const MEMORY = 131_072;

/**
 * Where a trial's chunk of `length` bytes goes in the finder's memory: half the time at its very
 * end, else near its start, followed by line breaks that a read past the chunk would count.
 */
function placeChunk(feeds: SimdLineFeeds, random: () => number, length: number): Buffer {
  const start = random() < 0.5 ? MEMORY - length : Math.floor(random() * 40);
  const after = feeds.buffer.subarray(start + length, start + length + 32);
  for (let i = 0; i < after.length; i++) after[i] = i % 3 === 0 ? 0x0d : 0x0a;
  return feeds.buffer.subarray(start, start + length);
}

describe('SimdLineFeeds', () => {
  it('finds the n-th line feed, or says how many there are, for every alignment and length around its 16-byte and 1 KiB steps', () => {
    const feeds = new SimdLineFeeds(MEMORY);
    let state = 7;
    const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let trial = 0; trial < 600; trial++) {
      const length = random() < 0.5 ? Math.floor(random() * 40) : Math.floor(random() * 66_000);
      const density = random() < 0.2 ? 0.5 : random() * 0.05;
      const chunk = placeChunk(feeds, random, length);
      for (let i = 0; i < length; i++) chunk[i] = random() < density ? 0x0a : 0x41 + (i % 26);
      const from = random() < 0.5 ? 0 : Math.floor(random() * (length + 1));
      const after = feedsOf(chunk).filter((i) => i >= from);
      for (const n of [1, 2, 15, 16, 17, 63, 64, 65, after.length, after.length + 1, Math.max(1, Math.floor(random() * (after.length + 1))), ALL_FEEDS]) {
        if (n < 1) continue;
        const want = n <= after.length ? (after[n - 1] ?? -1) : -1 - after.length;
        expect(feeds.nth(chunk, from, n), `trial ${trial}: at ${chunk.byteOffset}, length ${length}, from ${from}, n ${n}`).toBe(want);
        expect(INDEX_OF_FEEDS.nth(chunk, from, n), `trial ${trial}, indexOf`).toBe(want);
      }
    }
  });

  it('finds the n-th line break of any kind, with the tallies up to it, for every alignment and length', () => {
    const feeds = new SimdLineFeeds(MEMORY);
    let state = 11;
    const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const tally: BreakTally = { lfs: 0, crs: 0, pairs: 0 };
    for (let trial = 0; trial < 600; trial++) {
      const length = random() < 0.5 ? Math.floor(random() * 40) : Math.floor(random() * 66_000);
      const density = random() < 0.2 ? 0.5 : random() * 0.05;
      const crShare = random();
      const chunk = placeChunk(feeds, random, length);
      for (let i = 0; i < length; i++) {
        if (random() >= density) chunk[i] = 0x41 + (i % 26);
        else if (random() < crShare) chunk[i] = 0x0d;
        else chunk[i] = 0x0a;
      }
      const from = random() < 0.5 ? 0 : Math.floor(random() * (length + 1));
      const breaks = breaksOf(chunk, from);
      const count = breaks.length - 1;
      for (const n of [1, 2, 15, 16, 17, 63, 64, 65, count, count + 1, Math.max(1, Math.floor(random() * (count + 1))), ALL_FEEDS]) {
        if (n < 1) continue;
        const want = n <= count ? breaks[n - 1] : breaks[count];
        const wantAt = n <= count ? want?.at : -1 - count;
        const where = `trial ${trial}: at ${chunk.byteOffset}, length ${length}, from ${from}, n ${n}`;
        expect(feeds.nthBreak(chunk, from, n, tally), where).toBe(wantAt);
        expect(tally, where).toEqual(want?.tally);
        expect(INDEX_OF_FEEDS.nthBreak(chunk, from, n, tally), `${where}, indexOf`).toBe(wantAt);
        expect(tally, `${where}, indexOf`).toEqual(want?.tally);
      }
    }
  });

  it('reads nothing past its memory for a chunk that ends where the memory does', () => {
    const feeds = new SimdLineFeeds(65_536);
    const tally: BreakTally = { lfs: 0, crs: 0, pairs: 0 };
    for (const tail of ['\r', '\r\n', 'x\r', '\n\r', 'abc']) {
      const chunk = feeds.buffer.subarray(65_536 - 40);
      chunk.fill(0x61);
      chunk.write(tail, 40 - tail.length, 'latin1');
      const breaks = breaksOf(chunk, 0);
      const count = breaks.length - 1;
      expect(feeds.nthBreak(chunk, 0, ALL_FEEDS, tally), JSON.stringify(tail)).toBe(-1 - count);
      expect(tally, JSON.stringify(tail)).toEqual(breaks[count]?.tally);
      expect(feeds.nth(chunk, 0, ALL_FEEDS), JSON.stringify(tail)).toBe(-1 - feedsOf(chunk).length);
    }
  });

  it('counts a chunk that lies outside its memory the plain way, with the same answers', () => {
    const feeds = new SimdLineFeeds(4096);
    const chunk = Buffer.from('one\ntwo\n\nfour\n'.repeat(300));
    expect(feeds.nth(chunk, 0, 3)).toBe(8);
    expect(feeds.nth(chunk, 5, ALL_FEEDS)).toBe(-1 - (4 * 300 - 1));
    const tally: BreakTally = { lfs: 0, crs: 0, pairs: 0 };
    const mixed = Buffer.from('a\r\nb\rc\n\r'.repeat(100));
    expect(feeds.nthBreak(mixed, 0, 3, tally)).toBe(6);
    expect(tally).toEqual({ lfs: 2, crs: 2, pairs: 1 });
    expect(feeds.nthBreak(mixed, 1, ALL_FEEDS, tally)).toBe(-1 - 4 * 100);
    expect(tally).toEqual({ lfs: 200, crs: 300, pairs: 100 });
  });

  it('is built from line-feeds.wat as committed (`npm run wasm` rebuilds it)', () => {
    expect(() => execFileSync(process.execPath, ['test/support/build-wasm.mjs', '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});
