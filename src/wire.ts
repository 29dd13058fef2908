/**
 * Everything that crosses the thread boundary, typed in one place. Only plain data travels:
 * class identity does not survive `postMessage`, so failures are `{ ok: false, code, details }`
 * and the main thread rebuilds a `ReadError` with a dialect's message.
 */
import type { ReadErrorCode } from './errors.js';
import type { RenderSpec } from './core/line-format.js';
import type { ColumnFacts } from './core/column-window.js';
import type { CompiledDenyRules } from './core/deny-matcher.js';
import type { SliceLimits, StopReason } from './core/line-slicer.js';
import { DECODINGS, LEGACY_ENCODINGS, type Decoding, type LineEnding, type TextEncoding } from './core/sniff.js';
import { contentPieces, joinPieces } from './core/slice-result.js';
import type { ThreadPriority } from './io/thread-priority.js';

/** What any worker needs to open files the sandbox's way (text and media pools alike). */
export interface SandboxConfig {
  /** Canonical (realpath) roots. */
  readonly roots: readonly string[];
  /** The deny rules, compiled (`Sandbox.denyRules`). */
  readonly deny: CompiledDenyRules;
  /** Largest file read at all. */
  readonly maxFileBytes: number;
  readonly maxBinaryBytes: number;
}

/** Engine-wide settings each text worker receives once, as `workerData`. */
export interface WorkerConfig extends SandboxConfig, ThreadPriority {
  readonly maxLineChars: number;
  /**
   * The engine's `settleMs`: a version changed less than this before a read opened it is not
   * trusted to stand for its bytes across two threads (see `TextJob.settleMs`).
   */
  readonly settleMs: number;
  /** The native dialect's render spec: the one a job uses unless its batch carries another. */
  readonly render: RenderSpec;
  /**
   * Cancel flags shared with the main thread, one slot per read in flight: the main thread sets
   * a read's slot on abort or timeout, and the worker polls it between chunks. Shared once
   * here rather than sent with every batch.
   */
  readonly cancel: Int32Array;
}

/**
 * What the main thread knows of a file version from an earlier full scan, so that a worker
 * reading the same version can seek instead of rescanning. Ignored unless the version matches.
 */
export interface SeekHint {
  readonly version: string;
  /** The line to start from when the version matches (a negative offset resolved by the total). */
  readonly offset: number;
  /** A known line start at or before the wanted line: its number and byte offset. */
  readonly line: number;
  readonly byte: number;
  readonly totalLines: number;
  readonly xxh64: string;
  readonly bom: boolean;
  /** The version's last line is terminated by a break (see `WindowFields.finalBreak`). */
  readonly finalBreak: boolean;
}

/**
 * Reads of at least this many bytes go to a worker alone, never delaying a batch of small ones.
 * A read sent unsized (the host did not stat the file) that turns out this large is answered
 * `Resend` by the worker instead, and queued again with its size (see `TextJob.deferAbove`).
 */
export const SOLO_READ_BYTES = 8 * 1024 * 1024;

/**
 * A batch stops growing at this many bytes of files: about a millisecond of a worker's time, so
 * a read arriving from another session waits behind little work, whatever the file sizes. The
 * host packs sized reads by it; a worker defers an unsized read that would take its batch past it.
 */
export const BATCH_BYTES = 256 * 1024;

/** One read as the main thread asks for it. */
export interface JobSpec {
  /** Absolute path, lexically inside a canonical root (not yet resolved through links). */
  readonly path: string;
  readonly offset: number;
  readonly limit: number;
  /** 1-based character to start line `offset` at (a column read), or 0. */
  readonly column: number;
  readonly maxBytes: number;
  readonly maxTokens: number;
  readonly allowBinary: boolean;
  /** False: a binary file is never offered to the media pool (see `ParsedRequest.media`). Default true. */
  readonly media?: boolean;
  readonly sha256: boolean;
  /** How a file without a BOM is decoded (see `Decoding`); absent: `auto`. */
  readonly encoding?: Decoding;
  /** Wall-clock deadline (`Date.now()` scale), checked between chunks. */
  readonly deadline: number;
  /** A dialect's line render, or null for the native one the workers already hold. */
  readonly render: RenderSpec | null;
  readonly hint: SeekHint | null;
}

/** A spec on its way to a worker, with the cancel slot it was given. */
export interface SlottedSpec {
  readonly spec: JobSpec;
  readonly slot: number;
  /** Sent without a known size in a batch of several: a file found large is deferred, not read. */
  readonly defer: boolean;
  /** The file's size when the host statted it. */
  readonly size?: number;
}

/** One read as the worker runs it: the spec with the engine-wide settings filled in. */
export interface TextJob {
  readonly path: string;
  readonly limits: SliceLimits;
  readonly render: RenderSpec;
  readonly allowBinary: boolean;
  /** False: a binary file is never offered to the media pool. Default true. */
  readonly media?: boolean;
  readonly sha256: boolean;
  readonly encoding: Decoding;
  readonly deadline: number;
  /** Index of this read's flag in `WorkerConfig.cancel`. */
  readonly slot: number;
  readonly hint: SeekHint | null;
  /**
   * A file of this many bytes or more is not read but answered `Resend`; Infinity for a job sent
   * sized or alone. The worker lowers it to what its batch has left of `BATCH_BYTES`.
   */
  readonly deferAbove: number;
  /**
   * Where the file's xxh64 is computed: `inline`, by this read (the rule); `elsewhere`, by a
   * hash-only job on another thread, so this read answers the xxh64 null; `only`, this job does
   * nothing but hash it, and answers a `HashAnswer` (see `splitScan`).
   */
  readonly hash: 'inline' | 'elsewhere' | 'only';
  /**
   * A read told to leave its hash `elsewhere` computes it after all when the file changed less
   * than this many milliseconds before the read opened it: two writes within one timestamp tick
   * can leave the same version over other bytes, so the hash-only job's answer for that version
   * could be of other bytes. A version quiet that long moves with any later write.
   */
  readonly settleMs: number;
}

/** What a text pool thread posts once its batch handler has loaded (see `workers/text-host.ts`). */
export const HOST_READY = 'ready';

/** Values of a job's cancel flag, set by the main thread and polled by the worker. */
export const CANCEL = { none: 0, aborted: 1, timeout: 2 } as const;

/**
 * One pool task: several reads. Jobs travel as columns (paths, and eight numbers a job)
 * because structured clone pays for every property name of every object; this keeps the
 * thread hop cheap for small reads.
 */
export interface JobBatch {
  readonly paths: readonly string[];
  readonly params: Float64Array;
  /** Present only when some job has a seek hint (large files), so small batches stay lean. */
  readonly hints?: readonly (SeekHint | null)[];
  /** Present only when some job renders for another dialect: the specs its jobs name (1-based). */
  readonly renders?: readonly RenderSpec[];
}

const PARAMS = 11;
const FLAG_BINARY = 1;
const FLAG_SHA256 = 2;
const FLAG_NO_MEDIA = 4;
const FLAG_DEFER = 8;
const FLAG_HASH_ELSEWHERE = 16;
const FLAG_HASH_ONLY = 32;

/**
 * A whole scan of a file this large is split over two idle threads when it can be (see
 * `splitScan`): the size at which a read goes alone anyway, and at which a read sent unsized is
 * deferred to be sent again sized (`deferredForSplit`).
 */
export const SPLIT_SCAN_BYTES = SOLO_READ_BYTES;

/**
 * A batch that scans one large file whole, split in two: the read itself, which leaves the
 * xxh64 to the other, and a job that only hashes the file. On two threads they take about the
 * time of the read alone, where one scan does both in turn (hashing is about a third of a scan).
 * Null for any other batch: a size the host does not know or under `SPLIT_SCAN_BYTES`, or not a
 * whole scan (`wholeScan`).
 */
export function splitScan(batch: JobBatch): { readonly read: JobBatch; readonly hash: JobBatch } | null {
  if (!wholeScan(batch) || (batch.params[9] ?? -1) < SPLIT_SCAN_BYTES) return null;
  return { read: flagged(batch, FLAG_HASH_ELSEWHERE), hash: flagged(batch, FLAG_HASH_ONLY) };
}

/**
 * A whole scan of one file the host did not stat, flagged to be deferred if the file turns out
 * `SPLIT_SCAN_BYTES` or larger: the worker answers its size instead (`Resend`), and the pool sends
 * it again sized (`sizedBatch`), for `splitScan`. Null for any other batch.
 */
export function deferredForSplit(batch: JobBatch): JobBatch | null {
  const flags = batch.params[4] ?? 0;
  if (!wholeScan(batch) || (batch.params[9] ?? -1) >= 0 || (flags & FLAG_DEFER) !== 0) return null;
  return flagged(batch, FLAG_DEFER);
}

/** A one-job batch deferred by `deferredForSplit`, sized: no longer deferred. */
export function sizedBatch(batch: JobBatch, size: number): JobBatch {
  return withJob(batch, (flags) => flags & ~FLAG_DEFER, size);
}

/**
 * One job that reads its file whole: no seek hint (it would seek instead), an offset of 1 or more
 * (a tail read scans nothing or counts first), no SHA-256 (computed in the same pass), and not
 * already half of a split.
 */
function wholeScan(batch: JobBatch): boolean {
  const { params } = batch;
  const flags = params[4] ?? 0;
  return batch.paths.length === 1 && (batch.hints?.[0] ?? null) === null && (params[0] ?? 0) >= 1 && (flags & (FLAG_SHA256 | FLAG_HASH_ELSEWHERE | FLAG_HASH_ONLY)) === 0;
}

/** `batch` with `flag` set on its (one) job. */
function flagged(batch: JobBatch, flag: number): JobBatch {
  return withJob(batch, (flags) => flags | flag, batch.params[9] ?? -1);
}

/** A copy of a one-job `batch` with its job's flags passed through `flags` and its size set. */
function withJob(batch: JobBatch, flags: (was: number) => number, size: number): JobBatch {
  const params = Float64Array.from(batch.params);
  params[4] = flags(params[4] ?? 0);
  params[9] = size;
  return batch.renders === undefined ? { paths: batch.paths, params } : { paths: batch.paths, params, renders: batch.renders };
}

export function encodeBatch(jobs: readonly SlottedSpec[]): JobBatch {
  const params = new Float64Array(jobs.length * PARAMS);
  let renders: RenderSpec[] | null = null;
  jobs.forEach(({ spec, slot, defer, size }, i) => {
    const at = i * PARAMS;
    params[at] = spec.offset;
    params[at + 1] = spec.limit;
    params[at + 2] = spec.maxBytes;
    params[at + 3] = spec.maxTokens;
    params[at + 4] = (spec.allowBinary ? FLAG_BINARY : 0) | (spec.sha256 ? FLAG_SHA256 : 0) | (spec.media === false ? FLAG_NO_MEDIA : 0) | (defer ? FLAG_DEFER : 0);
    params[at + 5] = spec.deadline;
    if (spec.render !== null) {
      renders ??= [];
      let index = renders.indexOf(spec.render);
      if (index === -1) index = renders.push(spec.render) - 1;
      params[at + 6] = index + 1;
    }
    params[at + 7] = slot;
    params[at + 8] = spec.column;
    params[at + 9] = size ?? -1;
    params[at + 10] = spec.encoding === undefined ? 0 : DECODINGS.indexOf(spec.encoding);
  });
  const paths = jobs.map(({ spec }) => spec.path);
  const batch: { paths: string[]; params: Float64Array; hints?: (SeekHint | null)[]; renders?: RenderSpec[] } = { paths, params };
  if (jobs.some(({ spec }) => spec.hint !== null)) batch.hints = jobs.map(({ spec }) => spec.hint);
  if (renders !== null) batch.renders = renders;
  return batch;
}

/** The most bytes a batch's jobs will read as far as the host knows: the files it statted (the rest count as none). */
export function knownBytes(batch: JobBatch): number {
  let bytes = 0;
  for (let at = 9; at < batch.params.length; at += PARAMS) bytes += Math.max(0, batch.params[at] ?? 0);
  return bytes;
}

export function decodeJob(batch: JobBatch, i: number, config: WorkerConfig): TextJob {
  const p = batch.params;
  const at = i * PARAMS;
  const flags = p[at + 4] ?? 0;
  const named = p[at + 6] ?? 0;
  const render = named === 0 ? config.render : batch.renders?.[named - 1];
  if (render === undefined) throw new Error(`unknown render spec ${named}`);
  return {
    path: batch.paths[i] ?? '',
    limits: {
      offset: p[at] ?? 1,
      limit: p[at + 1] ?? 1,
      maxBytes: p[at + 2] ?? 0,
      maxTokens: p[at + 3] ?? 0,
      maxLineChars: config.maxLineChars,
      column: p[at + 8] ?? 0,
    },
    render,
    allowBinary: (flags & FLAG_BINARY) !== 0,
    media: (flags & FLAG_NO_MEDIA) === 0,
    sha256: (flags & FLAG_SHA256) !== 0,
    encoding: DECODINGS[p[at + 10] ?? 0] ?? 'auto',
    deadline: p[at + 5] ?? 0,
    slot: p[at + 7] ?? 0,
    hint: batch.hints?.[i] ?? null,
    deferAbove: (flags & FLAG_DEFER) !== 0 ? SOLO_READ_BYTES : Infinity,
    hash: (flags & FLAG_HASH_ONLY) !== 0 ? 'only' : (flags & FLAG_HASH_ELSEWHERE) !== 0 ? 'elsewhere' : 'inline',
    settleMs: config.settleMs,
  };
}

export interface FileFacts {
  /** Canonical absolute path of the file read. */
  readonly path: string;
  /** Path relative to the root that holds it, with `/` separators. */
  readonly relativePath: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** `dev:ino:size:mtimeMs:ctimeMs`: changes whenever the file may have changed. */
  readonly version: string;
  /**
   * xxh64 of every byte of the file, 16 hex digits; null only for a tail read of a large file
   * that was never scanned whole.
   */
  readonly xxh64: string | null;
}

export interface TextPayload extends FileFacts {
  readonly kind: 'text';
  readonly content: string;
  /** Negative (counted from the end, -1 the last line) for a tail read whose total is unknown. */
  readonly startLine: number;
  readonly endLine: number;
  /** Exact, or null for a tail read of a large file that was never scanned whole. */
  readonly totalLines: number | null;
  readonly stop: StopReason | null;
  /** The file ends with a line break (its last line is terminated); false for an empty file. */
  readonly finalBreak: boolean;
  readonly cutLines: number;
  readonly firstCutLine: number | null;
  readonly column: ColumnFacts | null;
  readonly encoding: TextEncoding;
  /**
   * The file is not valid UTF-8 and its encoding was not recognised: its bytes that are not
   * UTF-8 are shown as U+FFFD (`encoding` is then `utf-8`). Judged from its first bytes.
   */
  readonly invalidUtf8: boolean;
  readonly bom: boolean;
  readonly lineEnding: LineEnding;
  readonly sha256: string | null;
  /**
   * Sparse line index of a large UTF-8 file scanned whole: `[line, byte, ...]` pairs. Kept by
   * the main thread (not part of a result) to turn the next read of this version into a seek.
   */
  readonly index: Float64Array | null;
}

export interface BinaryPayload extends FileFacts {
  readonly kind: 'binary';
  readonly xxh64: string;
  readonly data: string;
  readonly sha256: string;
}

export type FilePayload = TextPayload | BinaryPayload;

/** A worker's answer to a deferred job (see `SOLO_READ_BYTES`): the file's size, to queue it again alone. */
export interface Resend {
  readonly resend: number;
}

/** What the text pool answers for one job. */
export type PoolAnswer = JobOutcome | Resend;

/** A hash-only job's answer (see `splitScan`): the xxh64 of the version it read. */
export interface HashAnswer {
  readonly version: string;
  readonly xxh64: string;
}

/**
 * What the text pool answers for a batch: each job's answer in order, and, from a text worker,
 * the milliseconds the batch took there (the scheduler's pace of a read, see `shareFloor`).
 */
export type PoolAnswers = PoolAnswer[] & { workerMs?: number };

/** A text worker's answer to a batch, as it travels: each job's outcome, then the batch's milliseconds there. */
export type WireAnswer = [...WireOutcome[], number];

export type JobOutcome =
  | { readonly ok: true; readonly value: FilePayload }
  | { readonly ok: false; readonly code: ReadErrorCode; readonly details: Readonly<Record<string, unknown>> };

/**
 * Outcomes travel as tuples, for the same reason jobs travel as columns. Every string in a
 * message is a fresh copy on the host's heap, so a text outcome's path is null when it is the
 * path the job asked for (the host has that string already), and its enumerations are numbers.
 */
export type WireOutcome =
  | readonly [
      kind: 0,
      path: string | null,
      relativePath: string,
      size: number,
      mtimeMs: number,
      version: string,
      xxh64: string | null,
      /** A long window as its pieces, each under V8's large-object size (see `PIECE_CHARS`). */
      content: string | readonly string[],
      startLine: number,
      endLine: number,
      totalLines: number | null,
      stop: number,
      cutLines: number,
      encoding: number,
      bom: boolean,
      lineEnding: number,
      sha256: string | null,
      index: Float64Array | null,
      firstCutLine: number | null,
      column: ColumnFacts | null,
      finalBreak: boolean,
      invalidUtf8: boolean,
    ]
  | readonly [kind: 1, path: string, relativePath: string, size: number, mtimeMs: number, version: string, xxh64: string, data: string, sha256: string]
  | readonly [kind: 2, code: ReadErrorCode, details: Readonly<Record<string, unknown>>]
  | readonly [kind: 3, size: number]
  | readonly [kind: 4, version: string, xxh64: string];

const STOPS: readonly (StopReason | null)[] = [null, 'lines', 'bytes', 'tokens'];
const ENCODINGS: readonly TextEncoding[] = ['utf-8', 'utf-16le', 'utf-16be', ...LEGACY_ENCODINGS];
const ENDINGS: readonly LineEnding[] = ['lf', 'crlf', 'cr', 'mixed', 'none'];

/** `requested` is the job's path: a text outcome read at that very path does not repeat it. */
export function encodeOutcome(outcome: PoolAnswer | HashAnswer, requested: string): WireOutcome {
  if ('resend' in outcome) return [3, outcome.resend];
  if ('version' in outcome) return [4, outcome.version, outcome.xxh64];
  if (!outcome.ok) return [2, outcome.code, outcome.details];
  const v = outcome.value;
  if (v.kind === 'binary') return [1, v.path, v.relativePath, v.size, v.mtimeMs, v.version, v.xxh64, v.data, v.sha256];
  return [
    0, v.path === requested ? null : v.path, v.relativePath, v.size, v.mtimeMs, v.version, v.xxh64, contentPieces(v) ?? v.content, v.startLine, v.endLine,
    v.totalLines, STOPS.indexOf(v.stop), v.cutLines, ENCODINGS.indexOf(v.encoding), v.bom, ENDINGS.indexOf(v.lineEnding), v.sha256, v.index,
    v.firstCutLine, v.column, v.finalBreak, v.invalidUtf8,
  ];
}

/** `requested` is the job's path, which a text outcome's null path stands for. */
export function decodeOutcome(wire: WireOutcome, requested: string): PoolAnswer {
  switch (wire[0]) {
    case 3:
      return { resend: wire[1] };
    case 4:
      // Only a hash-only job answers one, and its answer is taken apart by `hashAnswerOf`.
      return { ok: false, code: 'internal', details: { message: 'a hash-only answer where a read was asked' } };
    case 2:
      return { ok: false, code: wire[1], details: wire[2] };
    case 1: {
      const [, path, relativePath, size, mtimeMs, version, xxh64, data, sha256] = wire;
      return { ok: true, value: { kind: 'binary', path, relativePath, size, mtimeMs, version, xxh64, data, sha256 } };
    }
    case 0: {
      const [, sent, relativePath, size, mtimeMs, version, xxh64, content, startLine, endLine, totalLines, stopAt, cutLines, encodingAt, bom, endingAt, sha256, index, firstCutLine, column, finalBreak, invalidUtf8] = wire;
      const stop = STOPS[stopAt] ?? null;
      const encoding = ENCODINGS[encodingAt] ?? 'utf-8';
      const lineEnding = ENDINGS[endingAt] ?? 'none';
      return {
        ok: true,
        value: {
          kind: 'text', path: sent ?? requested, relativePath, size, mtimeMs, version, xxh64,
          content: typeof content === 'string' ? content : joinPieces(content), startLine, endLine,
          totalLines, stop, finalBreak, cutLines, firstCutLine, column, encoding, invalidUtf8, bom, lineEnding, sha256, index,
        },
      };
    }
  }
}

/**
 * A hash-only batch's answer as it came from its thread (see `splitScan`): the xxh64 of the
 * version read, or null when the job failed or the answer has another shape.
 */
export function hashAnswerOf(wires: unknown): HashAnswer | null {
  if (!Array.isArray(wires) || wires.length !== 2) return null;
  const wire: unknown = wires[0];
  if (!Array.isArray(wire) || wire[0] !== 4 || typeof wire[1] !== 'string' || typeof wire[2] !== 'string') return null;
  return { version: wire[1], xxh64: wire[2] };
}
