/**
 * The `pages` parameter as Claude Code's Read and seed 004 (which copies it) take it: "3" or
 * "1-5", 1-based and ascending, at most 20 pages a call (the engine's own limit too).
 */

export const MAX_PAGES_PER_REQUEST = 20;

/** `parsePdfPageRange`: the range, or null for anything else (words, 0, a descending range). */
export function parsePageRange(pages: string): { first: number; last: number } | null {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(pages);
  if (match === null) return null;
  const first = Number(match[1]);
  const last = match[2] === undefined ? first : Number(match[2]);
  return first < 1 || last < first ? null : { first, last };
}
