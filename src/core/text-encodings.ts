/**
 * Files that are not UTF-8: a legacy encoding recognised from the file's first bytes (GBK,
 * Shift_JIS, EUC-KR, Windows-1251...), decoded by the platform's `TextDecoder`, or else UTF-8
 * decoding with replacement characters, said so. Without this a GBK source file reached a
 * model as a page of U+FFFD reported as `utf-8`.
 */
import { isUtf8 } from 'node:buffer';
import { createRequire } from 'node:module';
import type * as Chardet from 'chardet';
import type { LegacyEncoding, TextEncoding } from './sniff.js';

/**
 * chardet, loaded the first time a file is not UTF-8: bundled into the text worker, it doubled
 * the worker's code, and the host's first answer (which loads that code) took 33 ms against 22.
 */
const load = createRequire(import.meta.url);
let detector: typeof Chardet | null = null;

/** chardet's names for what it recognises, as the legacy encodings readpool decodes. */
const BY_DETECTED_NAME: Readonly<Record<string, LegacyEncoding>> = {
  GB18030: 'gb18030',
  Big5: 'big5',
  Shift_JIS: 'shift_jis',
  'EUC-JP': 'euc-jp',
  'EUC-KR': 'euc-kr',
  'windows-1250': 'windows-1250',
  'windows-1251': 'windows-1251',
  'windows-1252': 'windows-1252',
  'windows-1253': 'windows-1253',
  'windows-1254': 'windows-1254',
  'windows-1255': 'windows-1255',
  'windows-1256': 'windows-1256',
  'ISO-8859-1': 'windows-1252',
  'ISO-8859-2': 'iso-8859-2',
  'ISO-8859-5': 'iso-8859-5',
  'ISO-8859-6': 'iso-8859-6',
  'ISO-8859-7': 'iso-8859-7',
  'ISO-8859-8': 'iso-8859-8',
  'ISO-8859-9': 'windows-1254',
  'KOI8-R': 'koi8-r',
};

/** Bytes of a file's start that decide its encoding. */
export const DETECT_BYTES = 64 * 1024;

/**
 * What a guess needs: bytes outside ASCII, and chardet's confidence (0 to 100), or a lead over
 * the next guess. On a few words chardet's statistics guess wrong (ten bytes of GBK came out as
 * ISO-8859-1 at 52, ISO-8859-2 next at 37), and a wrong guess shown as text misleads more than
 * replacement characters said to be there. On two sentences or more the right answer came first:
 * GB18030, Shift_JIS, EUC-JP and EUC-KR at 100, French in Windows-1252 at 92, Russian in
 * Windows-1251 at 49 to 50 with the next at 6 (single-byte encodings score lower).
 */
const MIN_HIGH_BYTES = 32;
const MIN_CONFIDENCE = 50;
const MIN_LEADING_CONFIDENCE = 25;

/**
 * Bytes chardet analyses, from just before the first byte outside ASCII. It took 20 to 36 ms
 * over 64 KiB (GBK, Shift_JIS, random bytes), on every miss of such a file; over the first 2, 4
 * and 8 KiB of a GBK file 1.4, 1.7 and 3.6 ms, each answering GB18030 at 100. A 64 KB GBK file
 * took 4.8 to 5.1 ms a read with 8 KiB analysed, 3.3 to 3.7 with 4, against 0.8 to 1.0 for
 * its text in UTF-8.
 */
const ANALYSED_BYTES = 4 * 1024;

export interface EncodingVerdict {
  /** `utf-8`, UTF-16 by a BOM, or the legacy encoding recognised or asked for. */
  readonly encoding: TextEncoding;
  /** Not valid UTF-8 and not recognised: decoded as UTF-8 with replacement characters. */
  readonly invalidUtf8: boolean;
}

/** The verdict on valid UTF-8, always this object. */
export const UTF8_VERDICT: EncodingVerdict = Object.freeze({ encoding: 'utf-8', invalidUtf8: false });
/** The verdict on bytes that are not UTF-8 and not recognised, always this object. */
export const INVALID_UTF8_VERDICT: EncodingVerdict = Object.freeze({ encoding: 'utf-8', invalidUtf8: true });

/**
 * The encoding of a file without a byte-order mark, from its first bytes (`head`, which is the
 * whole file when `whole`). UTF-8 whenever those bytes are valid UTF-8, which costs one SIMD pass
 * over them; only a file that is not is analysed further.
 */
export function encodingOf(head: Uint8Array, whole: boolean): EncodingVerdict {
  if (isUtf8Start(head, whole)) return UTF8_VERDICT;
  const sample = analysedPart(sampleOf(head));
  const { high, controls } = countBytes(sample);
  // Control characters other than tabs, line breaks and escapes mark binary data (a PDF's
  // compressed streams without a NUL byte came out as Windows-1252 at 31, twice the next
  // guess: 35 such bytes in 1 527), not legacy text.
  if (high < MIN_HIGH_BYTES || controls > sample.length / 1000) return INVALID_UTF8_VERDICT;
  const [first, second] = analyse(sample);
  const encoding = first === undefined ? undefined : BY_DETECTED_NAME[first.name];
  if (first === undefined || encoding === undefined || !decodable(encoding)) return INVALID_UTF8_VERDICT;
  const leads = first.confidence >= MIN_LEADING_CONFIDENCE && first.confidence >= 2 * (second?.confidence ?? 0);
  return first.confidence >= MIN_CONFIDENCE || leads ? { encoding, invalidUtf8: false } : INVALID_UTF8_VERDICT;
}

/** chardet's guesses, best first; none when it cannot be loaded or fails (the file then reads as UTF-8). */
function analyse(sample: Uint8Array): Chardet.AnalyseResult {
  try {
    detector ??= load('chardet') as typeof Chardet;
    return detector.analyse(sample);
  } catch {
    return [];
  }
}

/** Whether this Node decodes `encoding` (a build without full ICU decodes none of them). */
function decodable(encoding: LegacyEncoding): boolean {
  let known = DECODABLE.get(encoding);
  if (known === undefined) {
    try {
      new TextDecoder(encoding);
      known = true;
    } catch {
      known = false;
    }
    DECODABLE.set(encoding, known);
  }
  return known;
}

const DECODABLE = new Map<LegacyEncoding, boolean>();

/** Whether a file's first bytes (`head`, the whole file when `whole`) are valid UTF-8. */
export function isUtf8Start(head: Uint8Array, whole: boolean): boolean {
  const sample = sampleOf(head);
  return isUtf8(whole && sample.length === head.length ? sample : sample.subarray(0, lastWholeCharacter(sample)));
}

function sampleOf(head: Uint8Array): Uint8Array {
  return head.length > DETECT_BYTES ? head.subarray(0, DETECT_BYTES) : head;
}

/** `ANALYSED_BYTES` of `sample` from a little before its first byte outside ASCII. */
function analysedPart(sample: Uint8Array): Uint8Array {
  if (sample.length <= ANALYSED_BYTES) return sample;
  let first = 0;
  while (first < sample.length && (sample[first] ?? 0) < 0x80) first++;
  const from = Math.max(0, Math.min(first - 256, sample.length - ANALYSED_BYTES));
  return sample.subarray(from, from + ANALYSED_BYTES);
}

/** The length of `bytes` without a last multi-byte character that may be cut short. */
function lastWholeCharacter(bytes: Uint8Array): number {
  let at = bytes.length - 1;
  // Back over up to three continuation bytes (10xxxxxx) to the character's first byte.
  while (at >= 0 && at > bytes.length - 4 && ((bytes[at] ?? 0) & 0xc0) === 0x80) at--;
  return at >= 0 && (bytes[at] ?? 0) >= 0xc0 ? at : bytes.length;
}

/** Bytes outside ASCII, and C0 control bytes other than tab, line breaks, form feed and escape. */
function countBytes(bytes: Uint8Array): { high: number; controls: number } {
  let high = 0;
  let controls = 0;
  for (const byte of bytes) {
    if (byte >= 0x80) high++;
    else if (byte < 0x20 && !TEXT_CONTROLS.has(byte)) controls++;
  }
  return { high, controls };
}

const TEXT_CONTROLS = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b]);
