import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import type { XXHashAPI } from 'xxhash-wasm';
import { LineSlicer } from '../core/line-slicer.js';
import { SNIFF_BYTES, sniffHead, summariseEndings } from '../core/sniff.js';
import type { BinaryPayload, FilePayload, TextJob, TextPayload } from '../wire.js';
import { openChecked, type OpenedFile } from './open-checked.js';
import type { ReaderContext } from './reader-context.js';
import { Refusal } from './refusal.js';

/** Read size: large enough for page-cache speed, small enough to poll cancellation often. */
const CHUNK_BYTES = 1 << 20;

/** Polled between chunks: true when the caller aborted or the request timed out. */
export type CancelCheck = () => 'aborted' | 'timeout' | null;

export interface ReadTools {
  readonly xxhash: XXHashAPI;
  /** One reusable buffer per thread; nothing read into it outlives a call. */
  readonly scratch: Buffer;
}

export function createReadTools(xxhash: XXHashAPI): ReadTools {
  return { xxhash, scratch: Buffer.allocUnsafeSlow(CHUNK_BYTES) };
}

/**
 * Reads one file through a checked descriptor: sniff, decode, slice, hash, all in one pass
 * over `pread` chunks. Synchronous on purpose: it runs on a worker thread, where blocking
 * calls are the fast path (see DESIGN.md section 11).
 */
export function readFile(context: ReaderContext, tools: ReadTools, job: TextJob, cancelled: CancelCheck): FilePayload {
  const opened = openChecked(context, job.path);
  try {
    const size = Number(opened.stat.size);
    if (size > context.maxFileBytes) {
      throw new Refusal('file_too_large', { size, limit: context.maxFileBytes, limitName: 'maxFileBytes' });
    }
    return readOpened(context, tools, job, opened, size, cancelled);
  } finally {
    fs.closeSync(opened.fd);
  }
}

function readOpened(
  context: ReaderContext,
  tools: ReadTools,
  job: TextJob,
  opened: OpenedFile,
  size: number,
  cancelled: CancelCheck,
): FilePayload {
  const { scratch, xxhash } = tools;
  let read = fs.readSync(opened.fd, scratch, 0, CHUNK_BYTES, 0);
  const sniff = sniffHead(scratch.subarray(0, read));
  if (sniff.nulAt !== -1) return binaryOrRefuse(context, tools, job, opened, size, sniff.nulAt);

  const slicer = new LineSlicer(job.limits, job.render);
  // The BOM is skipped by hand, so a second one in the text is kept as text, not eaten.
  const decoder = sniff.encoding === 'utf-8' ? null : new TextDecoder(sniff.encoding, { ignoreBOM: true });
  const sha = job.sha256 ? createHash('sha256') : null;
  // Most files fit one chunk: hash them in one call instead of a streaming state.
  const whole = read === size && read < CHUNK_BYTES;
  const xxh = whole ? null : xxhash.create64();
  let xxh64 = whole ? xxhash.h64Raw(scratch.subarray(0, read)) : 0n;
  let position = 0;

  while (read > 0) {
    const chunk = scratch.subarray(0, read);
    xxh?.update(chunk);
    sha?.update(chunk);
    const body = position === 0 ? chunk.subarray(sniff.bomBytes) : chunk;
    if (decoder === null) {
      const nul = chunk.indexOf(0, position === 0 ? SNIFF_BYTES : 0);
      if (nul !== -1) return binaryOrRefuse(context, tools, job, opened, size, position + nul);
      slicer.push(body);
    } else {
      const text = decoder.decode(body, { stream: true });
      const nul = text.indexOf('\0');
      // Byte offset in the file: the chunk's, past the BOM on the first chunk, 2 bytes a unit.
      if (nul !== -1) return binaryOrRefuse(context, tools, job, opened, size, position + (position === 0 ? sniff.bomBytes : 0) + 2 * nul);
      slicer.push(Buffer.from(text, 'utf8'));
    }
    position += read;
    const stop = cancelled();
    if (stop !== null) throw new Refusal(stop, { bytesRead: position, size });
    if (position >= size && read < CHUNK_BYTES) break;
    read = fs.readSync(opened.fd, scratch, 0, CHUNK_BYTES, position);
  }
  if (decoder !== null) {
    const rest = decoder.decode();
    if (rest.includes('\0')) return binaryOrRefuse(context, tools, job, opened, size, position);
    slicer.push(Buffer.from(rest, 'utf8'));
  }
  if (xxh !== null) xxh64 = xxh.digest();
  checkUnchanged(opened, position);

  const slice = slicer.end();
  const payload: TextPayload = {
    kind: 'text',
    ...facts(opened, size, xxh64),
    content: slice.content,
    startLine: slice.startLine,
    endLine: slice.endLine,
    totalLines: slice.totalLines,
    stop: slice.stop,
    cutLines: slice.cutLines,
    encoding: sniff.encoding,
    bom: sniff.bomBytes > 0,
    lineEnding: summariseEndings(slice.endings),
    sha256: sha === null ? null : sha.digest('hex'),
  };
  return payload;
}

/** A NUL byte makes the file binary: base64 with `allowBinary`, otherwise a `binary_file` refusal. */
function binaryOrRefuse(
  context: ReaderContext,
  tools: ReadTools,
  job: TextJob,
  opened: OpenedFile,
  size: number,
  nulAt: number,
): BinaryPayload {
  // A NUL can be a writer's work in progress (a file extended while read shows zeros): a file
  // that changed is reported as such, never as binary.
  checkStable(opened);
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

function readAll(fd: number, size: number): Buffer {
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
  const hash: Hash = createHash('sha256');
  return hash.update(bytes).digest('hex');
}

/** The file must look the same after the read as before it, and have the size it claimed. */
function checkUnchanged(opened: OpenedFile, bytesRead: number): void {
  const after = checkStable(opened);
  if (BigInt(bytesRead) !== opened.stat.size) {
    throw new Refusal('changed_during_read', { sizeBefore: Number(opened.stat.size), sizeAfter: Number(after.size) });
  }
}

/** Refuses with `changed_during_read` when size, mtime or ctime moved since the open. */
function checkStable(opened: OpenedFile): fs.BigIntStats {
  const before = opened.stat;
  const after = fs.fstatSync(opened.fd, { bigint: true });
  if (after.size !== before.size || after.mtimeNs !== before.mtimeNs || after.ctimeNs !== before.ctimeNs) {
    throw new Refusal('changed_during_read', { sizeBefore: Number(before.size), sizeAfter: Number(after.size) });
  }
  return after;
}

function facts(opened: OpenedFile, size: number, xxh64: bigint) {
  const { stat } = opened;
  return {
    path: opened.path,
    relativePath: opened.relativePath,
    size,
    mtimeMs: Number(stat.mtimeMs),
    version: `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`,
    xxh64: xxh64.toString(16).padStart(16, '0'),
  };
}
