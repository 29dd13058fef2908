/**
 * Everything that crosses the thread boundary, typed in one place. Only plain data travels:
 * class identity does not survive `postMessage`, so failures are `{ ok: false, code, details }`
 * and the main thread rebuilds a `ReadError` with a dialect's message.
 */
import type { ReadErrorCode } from './errors.js';
import type { RenderSpec } from './core/line-format.js';
import type { SliceLimits, StopReason } from './core/line-slicer.js';
import type { LineEnding, TextEncoding } from './core/sniff.js';

/** Engine-wide settings each worker receives once, as `workerData`. */
export interface WorkerConfig {
  /** Canonical (realpath) roots. */
  readonly roots: readonly string[];
  readonly denySecrets: boolean;
  readonly deny: readonly string[];
  readonly maxFileBytes: number;
  readonly maxBinaryBytes: number;
}

export interface TextJob {
  /** Absolute path, lexically inside a canonical root (not yet resolved through links). */
  readonly path: string;
  readonly limits: SliceLimits;
  readonly render: RenderSpec;
  readonly allowBinary: boolean;
  readonly sha256: boolean;
  /** Wall-clock deadline (`Date.now()` scale), checked between chunks. */
  readonly deadline: number;
}

/** Values of a job's cancel flag, set by the main thread and polled by the worker. */
export const CANCEL = { none: 0, aborted: 1, timeout: 2 } as const;

/**
 * One pool task: several reads, and a shared cancel flag per read that the main thread sets
 * (abort, timeout) and the worker polls between chunks, so a batch never has to be killed.
 */
export interface JobBatch {
  readonly jobs: readonly TextJob[];
  readonly cancel: Int32Array;
}

export interface FileFacts {
  /** Canonical absolute path of the file read. */
  readonly path: string;
  /** Path relative to the root that holds it, with `/` separators. */
  readonly relativePath: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** `dev:ino:size:mtimeNs:ctimeNs`: changes whenever the file may have changed. */
  readonly version: string;
  /** xxh64 of every byte of the file, 16 hex digits. */
  readonly xxh64: string;
}

export interface TextPayload extends FileFacts {
  readonly kind: 'text';
  readonly content: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly totalLines: number;
  readonly stop: StopReason | null;
  readonly cutLines: number;
  readonly encoding: TextEncoding;
  readonly bom: boolean;
  readonly lineEnding: LineEnding;
  readonly sha256: string | null;
}

export interface BinaryPayload extends FileFacts {
  readonly kind: 'binary';
  readonly data: string;
  readonly sha256: string;
}

export type FilePayload = TextPayload | BinaryPayload;

export type JobOutcome =
  | { readonly ok: true; readonly value: FilePayload }
  | { readonly ok: false; readonly code: ReadErrorCode; readonly details: Readonly<Record<string, unknown>> };
