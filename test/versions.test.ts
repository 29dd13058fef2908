/**
 * A file's version is written on two threads: the host from a plain `stat` (on every cache hit)
 * and a worker from its `fstat` of the descriptor it read (the version a result is cached under).
 * A hit needs the two strings to be equal for the same file.
 */
import fs from 'node:fs';
import path from 'node:path';
import xxhash from 'xxhash-wasm';
import { afterAll, describe, expect, it } from 'vitest';
import { createReaderContext } from '../src/io/reader-context.js';
import { createReadTools, readFile } from '../src/io/read-file.js';
import { versionKey } from '../src/io/stat-wire.js';
import { makeTempDir, removeTempDir } from './support/temp-dir.js';
import { textJob } from './support/text-job.js';
import { compileDenyRules } from '../src/core/deny-rules.js';

const dir = makeTempDir();
afterAll(() => removeTempDir(dir));

describe('file versions', () => {
  it("are the same string from the host's stat and from a worker's read, also for times before 1970", async () => {
    const root = fs.realpathSync(dir);
    const context = createReaderContext({ roots: [root], deny: compileDenyRules({ denySecrets: true, deny: [] }), maxFileBytes: 1 << 20, maxBinaryBytes: 1 << 20 });
    const tools = createReadTools(await xxhash());
    const times = [new Date(), new Date('1999-12-31T23:59:59.123Z'), new Date('1969-07-20T20:17:40.5Z')];
    times.forEach((time, i) => {
      const file = path.join(root, `file-${i}.txt`);
      fs.writeFileSync(file, `content ${i}\n`);
      fs.utimesSync(file, time, time);
      const payload = readFile(context, tools, textJob(file), () => null);
      expect(payload.version).toBe(versionKey(fs.statSync(file)));
      expect(payload.mtimeMs).toBe(fs.statSync(file).mtimeMs);
    });
  });
});
