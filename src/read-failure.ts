/** Failures as a caller receives them: a `ReadError` in the native dialect's words. */
import { describeError } from './dialects/readpool.js';
import { ReadError, type ErrorDetails, type ReadErrorCode } from './errors.js';
import type { ParsedRequest } from './request.js';
import type { Outcome } from './single-flight.js';

/** What a request is called in messages: its path, or a placeholder when it has none. */
export function subjectOf(request: unknown): string {
  if (typeof request === 'object' && request !== null && 'path' in request && typeof request.path === 'string') {
    return request.path;
  }
  return '(no path)';
}

export function fail(code: ReadErrorCode, details: ErrorDetails, subject: string): ReadError {
  return new ReadError(code, describeError(code, details, subject), details);
}

/** A worker's failed outcome as the caller's error. */
export function failureOf(outcome: Extract<Outcome, { ok: false }>, req: ParsedRequest, subject: string): ReadError {
  // A worker that meets the deadline first knows the time, not the budget: add it.
  const details = outcome.code === 'timeout' ? { ...outcome.details, timeoutMs: req.timeoutMs } : outcome.details;
  return fail(outcome.code, details, subject);
}
