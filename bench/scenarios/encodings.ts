import fs from 'node:fs';
import path from 'node:path';
import { encodeLegacy, LEGACY_TEXTS } from '../../fixtures/legacy-encode.js';
import { createEngine, type Engine } from '../../src/index.js';
import type { ScenarioReport } from '../report.js';
import { median } from '../stats.js';

/** A file's size: as much as decides an encoding (`DETECT_BYTES`). */
const FILE_BYTES = 64 * 1024;
const READS = 40;
const ENCODINGS = ['gb18030', 'shift_jis'] as const;

/**
 * What a file that is not UTF-8 costs: each legacy-encoded file (64 KB of Chinese in GB18030,
 * of Japanese in Shift_JIS) read with the result cache off, so every read recognises its
 * encoding again (chardet over 4 KiB) and decodes it, beside the same text in UTF-8 read the
 * same way, alternating, in one engine. Reports the median milliseconds a read of each, their
 * ratio, and checks that each legacy file reads as its UTF-8 twin does, encoding named.
 */
export async function encodings(projectRoot: string, rounds: number): Promise<ScenarioReport> {
  const dir = path.join(projectRoot, 'bench/.data/encodings');
  fs.mkdirSync(dir, { recursive: true });
  for (const encoding of ENCODINGS) {
    const paragraph = `${LEGACY_TEXTS[encoding].join('\n')}\n`;
    const text = paragraph.repeat(Math.ceil(FILE_BYTES / encodeLegacy(paragraph, encoding).length));
    fs.writeFileSync(path.join(dir, `${encoding}.txt`), encodeLegacy(text, encoding));
    fs.writeFileSync(path.join(dir, `${encoding}-utf8.txt`), text);
  }
  const engine = await createEngine({ root: dir, cacheBytes: 0 });
  const measurements = [];
  const targets = [];
  let wrong = 0;
  try {
    for (const encoding of ENCODINGS) {
      const legacyMs: number[] = [];
      const utf8Ms: number[] = [];
      for (let round = 0; round < Math.max(rounds, 6); round++) {
        legacyMs.push(await perRead(engine, `${encoding}.txt`));
        utf8Ms.push(await perRead(engine, `${encoding}-utf8.txt`));
      }
      const legacy = await engine.read({ path: `${encoding}.txt` });
      const twin = await engine.read({ path: `${encoding}-utf8.txt` });
      if (legacy.kind !== 'text' || twin.kind !== 'text' || legacy.encoding !== encoding || legacy.content !== twin.content) wrong++;
      const ratio = median(legacyMs) / median(utf8Ms);
      measurements.push({
        label: `${encoding}, 64 KB, result cache off`,
        metrics: { legacyMsPerRead: median(legacyMs), utf8MsPerRead: median(utf8Ms), legacyOverUtf8: ratio, bytes: fs.statSync(path.join(dir, `${encoding}.txt`)).size },
      });
      targets.push({ name: `${encoding} read over its text in UTF-8 (ms a read, ratio)`, value: ratio, goal: 'reported', met: true });
    }
  } finally {
    await engine.close();
  }
  targets.push({ name: 'legacy files read wrong (content, encoding)', value: wrong, goal: '= 0', met: wrong === 0 });
  return {
    scenario: 'encodings',
    description: `files that are not UTF-8 (${ENCODINGS.join(', ')}, about 64 KB each) against the same text in UTF-8, result cache off, ${READS} reads a round`,
    measurements,
    targets,
  };
}

/** Milliseconds a read of `file`: the mean of `READS` reads after a few unmeasured ones. */
async function perRead(engine: Engine, file: string): Promise<number> {
  for (let i = 0; i < 3; i++) await engine.read({ path: file });
  const started = performance.now();
  for (let i = 0; i < READS; i++) await engine.read({ path: file });
  return (performance.now() - started) / READS;
}
