import type { StopReason } from './core/line-slicer.js';
import type { BinaryPayload, TextPayload } from './wire.js';

/** Why a text result stops before the end of the file, and where the next page starts. */
export interface Truncation {
  readonly reason: StopReason;
  /** Pass as `offset` to read the next page. */
  readonly nextOffset: number;
}

/** A window of numbered lines from a text file. */
export interface TextResult extends Omit<TextPayload, 'stop'> {
  /** `false` when the window reaches the end of the file. */
  readonly truncated: false | Truncation;
  /** Guidance for a model (pagination, empty file, offset past the end, cut lines), or null. */
  readonly notice: string | null;
}

/** A file with NUL bytes, served as base64 because the request set `allowBinary`. */
export type BinaryResult = BinaryPayload;

/** Every successful answer of `engine.read`, discriminated on `kind`. */
export type ReadResult = TextResult | BinaryResult;
