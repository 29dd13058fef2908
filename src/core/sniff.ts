/**
 * The legacy encodings readpool decodes, by their WHATWG names (what `TextDecoder` takes and
 * reports). ISO-8859-1 and ISO-8859-9 are read as their Windows supersets, as browsers do.
 */
export const LEGACY_ENCODINGS = [
  'gb18030',
  'big5',
  'shift_jis',
  'euc-jp',
  'euc-kr',
  'windows-1250',
  'windows-1251',
  'windows-1252',
  'windows-1253',
  'windows-1254',
  'windows-1255',
  'windows-1256',
  'iso-8859-2',
  'iso-8859-5',
  'iso-8859-6',
  'iso-8859-7',
  'iso-8859-8',
  'koi8-r',
] as const;

export type LegacyEncoding = (typeof LEGACY_ENCODINGS)[number];

/**
 * How a request has a file without a BOM decoded: `auto` (the default) recognises a legacy
 * encoding when the file is not UTF-8; `utf-8` never does (the tools the dialects stand in for
 * read UTF-8 only); a legacy encoding by name is used as it is.
 */
export const DECODINGS = ['auto', 'utf-8', ...LEGACY_ENCODINGS] as const;

export type Decoding = (typeof DECODINGS)[number];

export function isDecoding(value: unknown): value is Decoding {
  return (DECODINGS as readonly unknown[]).includes(value);
}

/**
 * The decoding a caller's name for an encoding stands for: one of `DECODINGS` as it is, or any
 * label the WHATWG Encoding Standard gives one of them, in any case and with spaces around
 * (`UTF-8`, `utf8`, `latin1`, `ascii`, `cp1252`, `GBK`, `GB2312`, `Shift-JIS`, `sjis`...); null
 * for anything else. Models name encodings these ways more often than by the standard's own
 * names. GBK's labels give GB18030, whose decoder the standard gives them. `TextDecoder` resolves
 * the labels; a Node without the legacy decoders (no full ICU) takes only the names themselves.
 */
export function decodingOf(name: unknown): Decoding | null {
  if (isDecoding(name)) return name;
  if (typeof name !== 'string' || name.length > MAX_LABEL_CHARS) return null;
  const label = name.trim().toLowerCase();
  if (isDecoding(label)) return label;
  let encoding: string;
  try {
    encoding = new TextDecoder(label).encoding;
  } catch {
    return null;
  }
  const named = encoding === 'gbk' ? 'gb18030' : encoding;
  return isDecoding(named) ? named : null;
}

/** Longer than any label the standard has, with room for spaces around it. */
const MAX_LABEL_CHARS = 64;

/**
 * Text encodings readpool decodes: UTF-16 by its BOM; a file without one as UTF-8, or as the
 * legacy encoding its first bytes show when they are not UTF-8 (see `encodingOf`).
 */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | LegacyEncoding;

export interface HeadSniff {
  readonly encoding: TextEncoding;
  /** Length of the byte-order mark to skip, 0 when there is none. */
  readonly bomBytes: number;
  /**
   * Offset of the first NUL byte within the sniff window, or -1. Always -1 for UTF-16, whose
   * NUL bytes are normal: there a decoded U+0000 marks a binary file instead.
   */
  readonly nulAt: number;
}

/** Bytes inspected for a NUL before a file is treated as text. */
export const SNIFF_BYTES = 8192;

/** Classifies a file from its first bytes: BOM first, then a NUL in the first 8 KiB. */
export function sniffHead(head: Uint8Array): HeadSniff {
  if (head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) {
    return { encoding: 'utf-8', bomBytes: 3, nulAt: firstNul(head, 3) };
  }
  // UTF-32 is not decoded: its BOM holds NUL bytes, so it is reported as binary.
  const utf32 =
    head.length >= 4 &&
    ((head[0] === 0xff && head[1] === 0xfe && head[2] === 0 && head[3] === 0) ||
      (head[0] === 0 && head[1] === 0 && head[2] === 0xfe && head[3] === 0xff));
  if (utf32) return { encoding: 'utf-8', bomBytes: 0, nulAt: firstNul(head, 0) };
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) {
    return { encoding: 'utf-16le', bomBytes: 2, nulAt: -1 };
  }
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) {
    return { encoding: 'utf-16be', bomBytes: 2, nulAt: -1 };
  }
  return { encoding: 'utf-8', bomBytes: 0, nulAt: firstNul(head, 0) };
}

function firstNul(head: Uint8Array, from: number): number {
  return head.subarray(0, SNIFF_BYTES).indexOf(0, from);
}

export type LineEnding = 'lf' | 'crlf' | 'cr' | 'mixed' | 'none';

export function summariseEndings(counts: { lf: number; crlf: number; cr: number }): LineEnding {
  const kinds = (['lf', 'crlf', 'cr'] as const).filter((kind) => counts[kind] > 0);
  if (kinds.length === 0) return 'none';
  return kinds.length === 1 ? (kinds[0] ?? 'none') : 'mixed';
}
