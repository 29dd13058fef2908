/**
 * What one compat case came to, and the first line where two answers part. Answers are compared
 * as pretty JSON, so a differing line names its field and shows both texts.
 */
import { isDeepStrictEqual } from 'node:util';
import { documentedDifference } from './differences.js';

export interface CaseOutcome {
  /** dialect, path and arguments, e.g. `gemini-cli lf.txt offset=1 limit=2` */
  id: string;
  status: 'same' | 'documented' | 'undocumented';
  /** why it differs: the documented reason, or the first differing line */
  reason?: string;
}

const clip = (line: string | undefined) => (line === undefined ? '(nothing)' : line.length > 160 ? `${line.slice(0, 157).trim()}...` : line.trim());

/** The first line where the two values' pretty JSON differ, both sides shown. */
export function firstDifference(expected: unknown, actual: unknown): string {
  const want = JSON.stringify(expected, null, 1).split('\n');
  const got = JSON.stringify(actual, null, 1).split('\n');
  let line = 0;
  while (line < want.length && want[line] === got[line]) line++;
  return `line ${line + 1}: the original has ${clip(want[line])}, readpool ${clip(got[line])}`;
}

/** Compares the original's answer with readpool's and classifies the case. */
export function outcomeOf(id: string, original: unknown, readpool: unknown): CaseOutcome {
  if (isDeepStrictEqual(original, readpool)) return { id, status: 'same' };
  const reason = documentedDifference(id);
  if (reason !== null) return { id, status: 'documented', reason };
  return { id, status: 'undocumented', reason: firstDifference(original, readpool) };
}
