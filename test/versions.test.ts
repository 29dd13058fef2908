/**
 * A file's version is written by two threads: the host from a plain `stat` (on every cache hit)
 * and a worker from its bigint `fstat` (the version a result is cached under). A hit needs the
 * two strings to be equal for the same file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { versionOf } from '../src/io/read-file.js';
import { versionKey } from '../src/result-keys.js';
import { makeTempDir, removeTempDir } from './support/temp-dir.js';

const dir = makeTempDir();
afterAll(() => removeTempDir(dir));

describe('file versions', () => {
  it('are the same string from the host stat and from the worker fstat, also for times before 1970', () => {
    const times = [new Date(), new Date('1999-12-31T23:59:59.123Z'), new Date('1969-07-20T20:17:40.5Z')];
    times.forEach((time, i) => {
      const file = path.join(dir, `file-${i}.txt`);
      fs.writeFileSync(file, `content ${i}\n`);
      fs.utimesSync(file, time, time);
      const fd = fs.openSync(file, 'r');
      try {
        expect(versionOf(fs.fstatSync(fd, { bigint: true }))).toBe(versionKey(fs.statSync(file)));
      } finally {
        fs.closeSync(fd);
      }
    });
  });

  it('read device and inode numbers past 2^63 unsigned, as the plain stat does', () => {
    // Node's bigint stats come from a BigInt64Array: such numbers arrive negative.
    const stat = { dev: -2n, ino: -1n, size: 10n, mtimeNs: 1_700_000_000_123_456_789n, ctimeNs: 1_700_000_001_000_000_000n } as unknown as fs.BigIntStats;
    const [dev, ino] = versionOf(stat).split(':');
    expect(dev).toBe(String(Number(2n ** 64n - 2n)));
    expect(ino).toBe(String(Number(2n ** 64n - 1n)));
  });
});
