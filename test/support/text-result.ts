import type { ReadResult, TextResult } from '../../src/index.js';

/** The result as a text result; throws (failing the test) on any other kind. */
export function asText(result: ReadResult): TextResult {
  if (result.kind !== 'text') throw new Error(`expected a text result, got ${result.kind}`);
  return result;
}

/** `N\tline` for each line, numbered from `first`: the native rendering of a window. */
export function numberedLines(lines: readonly string[], first = 1): string {
  return lines.map((line, index) => `${first + index}\t${line}`).join('\n');
}
