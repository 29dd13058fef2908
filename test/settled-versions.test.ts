import { describe, expect, it } from 'vitest';
import { settledFor } from '../src/read-work.js';
import { Place } from '../src/result-keys.js';

// A version string as the workers make it: dev:ino:size:mtimeMs:ctimeMs.
const CTIME = 1_700_000_000_000;
const VERSION = `2049:77:120:${CTIME}:${CTIME}`;
const SETTLE_MS = 100;

describe('whether a version had settled when a read started', () => {
  it('trusts a version for a read that started after one it was found settled for, and only then', () => {
    const place = new Place('/root/a.txt', '');
    // Started 150 ms after the ctime: settled (the window is 100 ms).
    expect(settledFor({ place, startedAt: CTIME + 150 }, VERSION, SETTLE_MS)).toBe(true);
    // A read that started earlier, inside the window, lands later (a long read beside short
    // ones): the version was not settled for it, whatever a later read found.
    expect(settledFor({ place, startedAt: CTIME + 50 }, VERSION, SETTLE_MS)).toBe(false);
    // Later starts are settled.
    expect(settledFor({ place, startedAt: CTIME + 400 }, VERSION, SETTLE_MS)).toBe(true);
    expect(settledFor({ place, startedAt: CTIME + 120 }, VERSION, SETTLE_MS)).toBe(true);
    expect(place.settledSince).toBe(CTIME + 120);
    expect(settledFor({ place, startedAt: CTIME + 99 }, VERSION, SETTLE_MS)).toBe(false);
  });

  it('starts over for a new version of the path', () => {
    const place = new Place('/root/a.txt', '');
    expect(settledFor({ place, startedAt: CTIME + 150 }, VERSION, SETTLE_MS)).toBe(true);
    const touched = `2049:77:120:${CTIME + 1000}:${CTIME + 1000}`;
    expect(settledFor({ place, startedAt: CTIME + 1050 }, touched, SETTLE_MS)).toBe(false);
    expect(settledFor({ place, startedAt: CTIME + 1200 }, touched, SETTLE_MS)).toBe(true);
    expect(place.settledVersion).toBe(touched);
    // A read without a place (a page read ahead) parses the version every time.
    expect(settledFor({ place: null, startedAt: CTIME + 50 }, VERSION, SETTLE_MS)).toBe(false);
    expect(settledFor({ place: null, startedAt: CTIME + 150 }, VERSION, SETTLE_MS)).toBe(true);
  });
});
