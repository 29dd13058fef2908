import type { ReadErrorCode } from '../errors.js';

/**
 * Thrown inside a worker to end one job with a catalogue code. It never crosses the thread
 * boundary: the job runner turns it into a plain `{ ok: false, code, details }` outcome.
 */
export class Refusal extends Error {
  readonly code: ReadErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: ReadErrorCode, details: Readonly<Record<string, unknown>> = {}) {
    super(code);
    this.name = 'Refusal';
    this.code = code;
    this.details = details;
  }
}

export function errnoCode(error: unknown): string | null {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return null;
}
