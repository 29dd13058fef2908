import type * as NodeCrypto from 'node:crypto';
import type { Stats } from 'node:fs';
import fs from '../node-fs.js';
import { createRequire } from 'node:module';
import type { XXHashAPI } from 'xxhash-wasm';
import { SimdLineFeeds } from '../core/line-feeds.js';
import { LineSlicer, windowFields } from '../core/line-slicer.js';
import { carryPieces } from '../core/slice-result.js';
import { SNIFF_BYTES, sniffHead, summariseEndings, type HeadSniff } from '../core/sniff.js';
import { DETECT_BYTES, encodingOf, INVALID_UTF8_VERDICT, isUtf8Start, UTF8_VERDICT, type EncodingVerdict } from '../core/text-encodings.js';
import { sniffMedia } from '../media/kind.js';
import type { BinaryPayload, FilePayload, HashAnswer, SeekHint, TextJob, TextPayload } from '../wire.js';
import { openChecked, type OpenedFile } from './open-checked.js';
import type { ReaderContext } from './reader-context.js';
import { Deferral, Refusal } from './refusal.js';
import { versionKey } from './stat-wire.js';

/**
 * A SHA-256 state. node:crypto loads on the first read that asks for one (`hash: 'sha256'`), not
 * at every worker's boot, where it cost about 2 ms on the way to the engine's first answer.
 */
const requireBuiltin = createRequire(import.meta.url);
function createSha256(): NodeCrypto.Hash {
  return (requireBuiltin('node:crypto') as typeof NodeCrypto).createHash('sha256');
}

/** Read size: large enough for page-cache speed, small enough to poll cancellation often. */
const CHUNK_BYTES = 1 << 20;
/**
 * Read size after a file's first chunk: small enough that the bytes are still in the core's
 * cache when they are hashed (xxhash-wasm copies them once more) and counted, and that a page
 * read from a seek hint reads about the page. Measured on a 2-core EPYC (1 MiB L2 a core): read,
 * xxh64 and newline count of 200 MB in 62 ms against 78 with 1 MiB reads (the whole scan gains
 * less, within this machine's noise); a 2000-line page from a hint in 0.35 ms against 0.51.
 */
const SCAN_BYTES = 1 << 18;

/** UTF-8 files this large get a sparse line index when scanned whole (smaller ones fit a chunk). */
export const INDEX_MIN_BYTES = CHUNK_BYTES;
/** One index entry per this many lines: 2 000 entries for a 2-million-line log. */
export const INDEX_EVERY = 1000;
/**
 * A tail read (negative offset) of a file up to this size counts every line first, for exact
 * line numbers; a larger one is read backwards from the end and numbered from the end.
 */
export const TAIL_EXACT_BYTES = 4 * CHUNK_BYTES;

const LF = 0x0a;
const CR = 0x0d;

/** One open file being read, and what every step of reading it needs. */
interface Reading {
  readonly context: ReaderContext;
  readonly tools: ReadTools;
  readonly opened: OpenedFile;
  readonly size: number;
  readonly cancelled: CancelCheck;
}

/** Polled between chunks: true when the caller aborted or the request timed out. */
export type CancelCheck = () => 'aborted' | 'timeout' | null;

export interface ReadTools {
  readonly xxhash: XXHashAPI;
  /** One reusable buffer per thread; nothing read into it outlives a call. It is `feeds`' memory. */
  readonly scratch: Buffer;
  /** Counts the line feeds of chunks read into `scratch`. */
  readonly feeds: SimdLineFeeds;
}

export function createReadTools(xxhash: XXHashAPI): ReadTools {
  const feeds = new SimdLineFeeds(CHUNK_BYTES);
  return { xxhash, scratch: feeds.buffer, feeds };
}

/**
 * The last read's descriptor (with its `fs.Stats`) and slicer, kept so that their hidden classes
 * outlive an idle full GC in this worker, as the host's `RecentShapes` does for its own: when
 * the worker collects while it has no read, nothing else holds those maps, and V8 throws away the
 * optimized read path that embedded them (`readWhole`, `openThroughHandle`, `versionKey`...).
 */
const recent: { opened: OpenedFile | null; slicer: LineSlicer | null } = { opened: null, slicer: null };

/**
 * Reads one file through a checked descriptor: sniff, decode, slice, hash, all in one pass
 * over `pread` chunks. Synchronous on purpose: it runs on a worker thread, where blocking
 * calls are the fast path (see DESIGN.md section 11).
 */
export function readFile(context: ReaderContext, tools: ReadTools, job: TextJob, cancelled: CancelCheck): FilePayload {
  return withOpenFile(context, job, (opened, size) => readOpened({ context, tools, opened, size, cancelled }, job));
}

/**
 * Opens `job.path` checked inside a root, refuses a file over `maxFileBytes` (and defers one of
 * `deferAbove` bytes or more), runs `use` on it and closes it.
 */
function withOpenFile<T>(context: ReaderContext, job: TextJob, use: (opened: OpenedFile, size: number) => T): T {
  const opened = openChecked(context, job.path);
  recent.opened = opened;
  try {
    const size = opened.stat.size;
    if (size > context.maxFileBytes) {
      throw new Refusal('file_too_large', { size, limit: context.maxFileBytes, limitName: 'maxFileBytes' });
    }
    if (size >= job.deferAbove) throw new Deferral(size);
    return use(opened, size);
  } finally {
    fs.closeSync(opened.fd);
  }
}

function readOpened(reading: Reading, job: TextJob): FilePayload {
  const { opened } = reading;
  const { hint } = job;
  if (hint !== null && !job.sha256 && hint.version === versionKey(opened.stat)) {
    return readFromHint(reading, { ...job, limits: { ...job.limits, offset: hint.offset } }, hint);
  }
  if (job.limits.offset < 0) return readTail(reading, job);
  return readWhole(reading, job);
}

/** The full pass: every byte is read, hashed and counted; the window is kept. */
function readWhole(reading: Reading, job: TextJob): TextPayload | BinaryPayload {
  const { tools, opened, size, cancelled } = reading;
  const { scratch, xxhash } = tools;
  // A file larger than a chunk is streamed in scan-size chunks from its first byte. A 1 MiB
  // first chunk made xxhash's WebAssembly memory grow to hold it, and touched the scratch's
  // untouched pages: in a fresh worker, about 500 page faults more, at about 15 µs each on this
  // project's 2-core machine. The first 2000 lines of a 200 MB log with the total, from a fresh
  // engine: 76 against 85 ms (medians of 10 alternating engines, twice).
  let asked = size > CHUNK_BYTES ? SCAN_BYTES : CHUNK_BYTES;
  let read = fs.readSync(opened.fd, scratch, 0, asked, 0);
  const sniff = sniffHead(scratch.subarray(0, read));
  if (sniff.nulAt !== -1) return binaryOrRefuse(reading, job, sniff.nulAt);
  const { encoding, invalidUtf8 } = decodingOf(sniff, job, scratch.subarray(0, read), read === size);
  const utf16 = encoding === 'utf-16le' || encoding === 'utf-16be';

  // The BOM is skipped by hand, so a second one in the text is kept as text, not eaten.
  const decoder = encoding === 'utf-8' ? null : new TextDecoder(encoding, { ignoreBOM: true });
  // Byte offsets index only valid UTF-8, which the slicer sees as the file's own bytes.
  const indexEvery = decoder === null && !invalidUtf8 && size >= INDEX_MIN_BYTES ? INDEX_EVERY : 0;
  const slicer = new LineSlicer(job.limits, job.render, { indexEvery, feeds: tools.feeds });
  recent.slicer = slicer;
  const sha = job.sha256 ? createSha256() : null;
  // Most files fit one chunk: hash them in one call instead of a streaming state.
  const whole = read === size && read < CHUNK_BYTES;
  // A split's read leaves the hash to the other thread only for a version that had settled.
  const hashed = job.hash === 'inline' || opened.stat.ctimeMs > Date.now() - job.settleMs;
  const xxh = whole || !hashed ? null : xxhash.create64();
  let xxh64 = whole && hashed ? xxhash.h64Raw(scratch.subarray(0, read)) : 0n;
  let position = 0;

  while (read > 0) {
    const chunk = scratch.subarray(0, read);
    xxh?.update(chunk);
    sha?.update(chunk);
    const body = position === 0 ? chunk.subarray(sniff.bomBytes) : chunk;
    // A NUL byte is never part of a UTF-8 or legacy character; in UTF-16 it is, and a decoded
    // U+0000 marks a binary file instead.
    if (!utf16) {
      const nul = chunk.indexOf(0, position === 0 ? SNIFF_BYTES : 0);
      if (nul !== -1) return binaryOrRefuse(reading, job, position + nul);
    }
    if (decoder === null) slicer.push(body, position === 0 ? sniff.bomBytes : position);
    else {
      const text = decoder.decode(body, { stream: true });
      const nul = utf16 ? text.indexOf('\0') : -1;
      // Byte offset in the file: the chunk's, past the BOM on the first chunk, 2 bytes a unit.
      if (nul !== -1) return binaryOrRefuse(reading, job, position + (position === 0 ? sniff.bomBytes : 0) + 2 * nul);
      slicer.push(Buffer.from(text, 'utf8'));
    }
    position += read;
    const stop = cancelled();
    if (stop !== null) throw new Refusal(stop, { bytesRead: position, size });
    if (position >= size && read < asked) break;
    asked = SCAN_BYTES;
    read = fs.readSync(opened.fd, scratch, 0, asked, position);
  }
  if (decoder !== null) {
    const rest = decoder.decode();
    if (rest.includes('\0')) return binaryOrRefuse(reading, job, position);
    slicer.push(Buffer.from(rest, 'utf8'));
  }
  if (xxh !== null) xxh64 = xxh.digest();
  checkUnchanged(opened, position);

  const slice = slicer.end();
  const payload: TextPayload = {
    kind: 'text',
    ...facts(opened, size, hashed ? xxh64 : null),
    ...windowFields(slice),
    encoding,
    invalidUtf8,
    bom: sniff.bomBytes > 0,
    lineEnding: summariseEndings(slice.endings),
    sha256: sha === null ? null : sha.digest('hex'),
    index: slice.index === null ? null : Float64Array.from(slice.index),
  };
  return carryPieces(payload, slice);
}

/**
 * Only the xxh64 of the whole file, for a scan split over two threads (`splitScan` in wire.ts):
 * the other thread reads the file for its window, total and index, and leaves the hash to this
 * job. Opened and checked as any read is; the version it answers must be the one the other read,
 * or the host runs the scan again whole.
 */
export function hashFile(context: ReaderContext, tools: ReadTools, job: TextJob, cancelled: CancelCheck): HashAnswer {
  return withOpenFile(context, job, (opened, size) => {
    const { scratch } = tools;
    const xxh = tools.xxhash.create64();
    let position = 0;
    for (;;) {
      const read = fs.readSync(opened.fd, scratch, 0, SCAN_BYTES, position);
      if (read === 0) break;
      // A binary file: the read answers it without this hash (see `binaryOrRefuse`).
      const nulAt = position === 0 ? sniffHead(scratch.subarray(0, read)).nulAt : -1;
      if (nulAt !== -1) throw new Refusal('binary_file', { size, nulAt, sha256: null });
      xxh.update(scratch.subarray(0, read));
      position += read;
      const stop = cancelled();
      if (stop !== null) throw new Refusal(stop, { bytesRead: position, size });
      if (position >= size && read < SCAN_BYTES) break;
    }
    checkUnchanged(opened, position);
    const { version, xxh64 } = facts(opened, size, xxh.digest());
    return { version, xxh64 };
  });
}

/**
 * A read of a version scanned whole before: start at the known line start the main thread
 * chose, stop as soon as the window is complete, and take the total and the hash from the
 * earlier scan. Paging through a large log costs the pages, not a scan each.
 */
function readFromHint(reading: Reading, job: TextJob, hint: SeekHint): FilePayload {
  const { tools, opened, size, cancelled } = reading;
  const { scratch } = tools;
  const slicer = new LineSlicer(job.limits, job.render, { firstLine: hint.line, feeds: tools.feeds });
  let position = hint.byte;
  while (position < size && !slicer.windowClosed) {
    const read = fs.readSync(opened.fd, scratch, 0, SCAN_BYTES, position);
    if (read === 0) break;
    const chunk = scratch.subarray(0, read);
    // The whole scan of this version found no NUL: one now means the file is being rewritten.
    if (chunk.indexOf(0) !== -1) {
      checkStable(opened);
      return readWhole(reading, job);
    }
    slicer.push(chunk);
    position += read;
    const stop = cancelled();
    if (stop !== null) throw new Refusal(stop, { bytesRead: position - hint.byte, size });
  }
  checkStable(opened);
  const slice = slicer.end(hint.totalLines, hint.finalBreak);
  const payload: TextPayload = {
    kind: 'text',
    ...facts(opened, size, hint.xxh64),
    ...windowFields(slice),
    encoding: 'utf-8',
    invalidUtf8: false,
    bom: hint.bom,
    lineEnding: summariseEndings(slice.endings),
    sha256: null,
    index: null,
  };
  return carryPieces(payload, slice);
}

/**
 * A negative offset: the last lines, like `tail -n`. A file up to `TAIL_EXACT_BYTES` (or in a
 * UTF-16 encoding) is counted first and read with exact numbers. A larger UTF-8 file is searched
 * backwards from its end for the window's first line and read from there, without a full scan:
 * its lines are then numbered from the end (-1 is the last) and its total and hash are unknown.
 */
function readTail(reading: Reading, job: TextJob): FilePayload {
  const { tools, opened, size, cancelled } = reading;
  const { scratch } = tools;
  const want = -job.limits.offset;
  // As much of the start as a whole read judges the encoding by.
  const headBytes = fs.readSync(opened.fd, scratch, 0, Math.min(DETECT_BYTES, CHUNK_BYTES), 0);
  const sniff = sniffHead(scratch.subarray(0, headBytes));
  if (sniff.nulAt !== -1) return binaryOrRefuse(reading, job, sniff.nulAt);
  // Searched backwards only as valid UTF-8: any other file is counted and read whole, twice.
  if (size <= TAIL_EXACT_BYTES || decodingOf(sniff, job, scratch.subarray(0, headBytes), false) !== UTF8_VERDICT) {
    const counted = readWhole(reading, withOffset(job, Number.MAX_SAFE_INTEGER, 1));
    if (counted.kind === 'binary') return counted;
    const total = counted.totalLines ?? 0;
    return readWhole(reading, withOffset(job, Math.max(1, total - want + 1), job.limits.limit));
  }
  const start = tailStart(opened.fd, scratch, size, sniff.bomBytes, want);
  if (start === null) return readWhole(reading, withOffset(job, 1, job.limits.limit));
  const slicer = new LineSlicer({ ...job.limits, offset: -want }, job.render, { firstLine: -want });
  let position = start;
  while (position < size && !slicer.windowClosed) {
    const read = fs.readSync(opened.fd, scratch, 0, SCAN_BYTES, position);
    if (read === 0) break;
    const chunk = scratch.subarray(0, read);
    const nul = chunk.indexOf(0);
    if (nul !== -1) return binaryOrRefuse(reading, job, position + nul);
    slicer.push(chunk);
    position += read;
    const stop = cancelled();
    if (stop !== null) throw new Refusal(stop, { bytesRead: position - start, size });
  }
  checkStable(opened);
  // Numbered from the end, the last line is -1: a window ending before it stops early, so the
  // file's last byte says whether its last line is terminated.
  const last = Buffer.alloc(1);
  const lastBreak = fs.readSync(opened.fd, last, 0, 1, size - 1) === 1 && (last[0] === 0x0a || last[0] === 0x0d);
  const slice = slicer.end(-1, lastBreak);
  const payload: TextPayload = {
    kind: 'text',
    ...facts(opened, size, null),
    ...windowFields(slice),
    totalLines: null,
    encoding: 'utf-8',
    invalidUtf8: false,
    bom: sniff.bomBytes > 0,
    lineEnding: summariseEndings(slice.endings),
    sha256: null,
    index: null,
  };
  return carryPieces(payload, slice);
}

/**
 * How a file is decoded: by its BOM when it has one; else as the job asks (see `Decoding`), with
 * `auto` and `utf-8` told from the first bytes whether they are valid UTF-8.
 */
function decodingOf(sniff: HeadSniff, job: TextJob, head: Uint8Array, whole: boolean): EncodingVerdict {
  if (sniff.bomBytes > 0) return sniff.encoding === 'utf-8' ? UTF8_VERDICT : { encoding: sniff.encoding, invalidUtf8: false };
  if (job.encoding === 'auto') return encodingOf(head, whole);
  if (job.encoding === 'utf-8') return isUtf8Start(head, whole) ? UTF8_VERDICT : INVALID_UTF8_VERDICT;
  return { encoding: job.encoding, invalidUtf8: false };
}

function withOffset(job: TextJob, offset: number, limit: number): TextJob {
  return { ...job, limits: { ...job.limits, offset, limit }, sha256: job.sha256 && limit !== 1 };
}

/**
 * The byte offset where the last `want` lines start, scanning backwards from the end in
 * chunks; null when the file (past `floor`, its BOM) has no more than `want` lines. Breaks
 * are LF, CRLF and a lone CR, as in the forward slicer; the final break ends the last line
 * rather than starting an empty one.
 */
export function tailStart(fd: number, buffer: Buffer, size: number, floor: number, want: number): number | null {
  let end = size;
  let found = 0;
  /** The byte just after the current chunk, -1 at the end of the file. */
  let after = -1;
  while (end > floor) {
    const begin = Math.max(floor, end - buffer.length);
    const chunk = buffer.subarray(0, readAt(fd, buffer, begin, end - begin));
    if (chunk.length === 0) break;
    const hasCR = chunk.indexOf(CR) !== -1;
    let lf = chunk.length;
    let cr = hasCR ? chunk.length : -1;
    for (let i = chunk.length - 1; i >= 0; ) {
      if (lf > i) lf = chunk.lastIndexOf(LF, i);
      if (cr > i) cr = chunk.lastIndexOf(CR, i);
      const b = Math.max(lf, cr);
      if (b === -1) break;
      const next = b + 1 < chunk.length ? (chunk[b + 1] ?? -1) : after;
      // A CR followed by LF is half of a CRLF, counted at its LF.
      if (chunk[b] === LF || next !== LF) {
        const lineStart = begin + b + 1;
        if (lineStart < size && ++found === want) return lineStart;
      }
      i = b - 1;
    }
    after = chunk[0] ?? -1;
    end = begin;
  }
  return null;
}

function readAt(fd: number, buffer: Buffer, position: number, length: number): number {
  let done = 0;
  while (done < length) {
    const read = fs.readSync(fd, buffer, done, length - done, position + done);
    if (read === 0) break;
    done += read;
  }
  return done;
}

/** A NUL byte makes the file binary: base64 with `allowBinary`, otherwise a `binary_file` refusal. */
function binaryOrRefuse(reading: Reading, job: TextJob, nulAt: number): BinaryPayload {
  const { context, tools, opened, size } = reading;
  // A NUL can be a writer's work in progress (a file extended while read shows zeros): a file
  // that changed is reported as such, never as binary.
  checkStable(opened);
  // Media under a name that does not say so (no extension, or a wrong one): the main thread
  // sends it to the media pool instead, unless the caller asked for the raw bytes.
  if (!job.allowBinary && job.media !== false) {
    const head = Buffer.alloc(Math.min(1024, size));
    const media = sniffMedia(head.subarray(0, fs.readSync(opened.fd, head, 0, head.length, 0)));
    if (media !== null) throw new Refusal('binary_file', { size, nulAt, sha256: null, media });
  }
  const tooLarge = size > context.maxBinaryBytes;
  if (tooLarge && job.allowBinary) {
    throw new Refusal('file_too_large', { size, limit: context.maxBinaryBytes, limitName: 'maxBinaryBytes' });
  }
  if (tooLarge) throw new Refusal('binary_file', { size, nulAt, sha256: null });
  const bytes = readAll(opened.fd, size);
  checkUnchanged(opened, bytes.length);
  const sha256 = hashSha256(bytes);
  if (!job.allowBinary) throw new Refusal('binary_file', { size, nulAt, sha256 });
  return {
    kind: 'binary',
    ...facts(opened, size, tools.xxhash.h64Raw(bytes)),
    data: bytes.toString('base64'),
    sha256,
  };
}

/** Reads `size` bytes from the start of `fd` into a new Buffer (fewer if the file is shorter). */
export function readAll(fd: number, size: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  let position = 0;
  while (position < size) {
    const read = fs.readSync(fd, bytes, position, size - position, position);
    if (read === 0) break;
    position += read;
  }
  return bytes.subarray(0, position);
}

function hashSha256(bytes: Buffer): string {
  return createSha256().update(bytes).digest('hex');
}

/** The file must look the same after the read as before it, and have the size it claimed. */
export function checkUnchanged(opened: OpenedFile, bytesRead: number): void {
  const after = checkStable(opened);
  if (bytesRead !== opened.stat.size) {
    throw new Refusal('changed_during_read', { sizeBefore: opened.stat.size, sizeAfter: after.size });
  }
}

/**
 * Refuses with `changed_during_read` when size, mtime or ctime moved since the open. The times are
 * the plain stat's milliseconds, to a quarter of a microsecond these days: the same precision the
 * version (and so every cache) has.
 */
function checkStable(opened: OpenedFile): Stats {
  const before = opened.stat;
  const after = fs.fstatSync(opened.fd);
  if (after.size !== before.size || after.mtimeMs !== before.mtimeMs || after.ctimeMs !== before.ctimeMs) {
    throw new Refusal('changed_during_read', { sizeBefore: before.size, sizeAfter: after.size });
  }
  return after;
}

export function facts<H extends bigint | string | null>(opened: OpenedFile, size: number, xxh64: H) {
  const { stat } = opened;
  return {
    path: opened.path,
    relativePath: opened.relativePath,
    size,
    mtimeMs: stat.mtimeMs,
    version: versionKey(stat),
    xxh64: (typeof xxh64 === 'bigint' ? xxh64.toString(16).padStart(16, '0') : xxh64) as H extends bigint ? string : H,
  };
}
