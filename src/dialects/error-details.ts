/**
 * Reading a `ReadError` the way every dialect needs to: its `details` are plain data from a
 * worker (unknown values), so each fact is taken with its type checked and a fallback; and the
 * codes that are failures of the read itself, not facts about the file, are one named group.
 */
import type { ReadErrorCode } from '../errors.js';

/** A detail that should be a list of strings (suggestions, issues): its strings, or none. */
export function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}

export function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

/** Codes that say the read failed (the file changing, the engine busy, closed or broken), not what the file is. */
const READ_FAILURES = ['changed_during_read', 'corrupt_media', 'encrypted', 'overloaded', 'aborted', 'timeout', 'closed', 'internal'] as const;

export type ReadFailureCode = (typeof READ_FAILURES)[number];

export function isReadFailure(code: ReadErrorCode): code is ReadFailureCode {
  return (READ_FAILURES as readonly string[]).includes(code);
}
