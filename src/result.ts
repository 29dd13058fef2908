import type { StopReason } from './core/line-slicer.js';
import type { BinaryPayload, TextPayload } from './wire.js';

/** Why a text result stops before the end of the file, and where the next page starts. */
export interface Truncation {
  readonly reason: StopReason;
  /** Pass as `offset` to read the next page. */
  readonly nextOffset: number;
}

/** A window of numbered lines from a text file. */
export interface TextResult extends Omit<TextPayload, 'stop' | 'index'> {
  /** `false` when the window reaches the end of the file. */
  readonly truncated: false | Truncation;
  /** Guidance for a model (pagination, empty file, offset past the end, cut lines), or null. */
  readonly notice: string | null;
}

/** A file with NUL bytes, served as base64 because the request set `allowBinary`. */
export type BinaryResult = BinaryPayload;

/**
 * The session already holds this exact content: it read the same range of the same version, or
 * of a version with the same bytes (a touch, a checkout that rewrote them). Only reads that
 * showed every line asked for, uncut, earn a stub; `fresh: true` and `forgetSession` defeat it.
 */
export interface UnchangedResult {
  readonly kind: 'unchanged';
  /** `same_version`: not written since. `same_content`: written, but byte-identical. */
  readonly reason: 'same_version' | 'same_content';
  readonly path: string;
  readonly relativePath: string;
  /** What to tell the model, including the call that gets the content again. */
  readonly stub: string;
  /** The lines of the earlier read. */
  readonly startLine: number;
  readonly endLine: number;
  readonly totalLines: number | null;
  readonly version: string;
  readonly xxh64: string | null;
  /** When the session read it, in milliseconds since the epoch. */
  readonly readAt: number;
}

/** Every successful answer of `engine.read`, discriminated on `kind`. */
export type ReadResult = TextResult | BinaryResult | UnchangedResult;
