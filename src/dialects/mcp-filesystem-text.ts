/**
 * `read_text_file`'s text as the MCP filesystem server would send it: `head`/`tail` windows as it
 * reads them, and a read that covers the whole file byte-exact (BOM, CRLF, final newline).
 * readpool's output budget is its one addition: a window it stopped short ends with a notice.
 */
import type { RenderSpec } from '../core/line-format.js';
import type { ReadResult, TextResult } from '../result.js';
import * as prose from './mcp-filesystem-prose.js';

/** Raw lines, never cut for length (the server has no line cap): only the output budget stops them. */
export const RENDER: RenderSpec = { format: { numbered: false }, cutMarker: '', cut: 'budget' };

export const ALL = Number.MAX_SAFE_INTEGER;
const EOL = { lf: '\n', crlf: '\r\n', cr: '\r' } as const;
export type Mode = 'whole' | 'head' | 'tail';
type Window = { readonly mode: Mode; readonly offset: number; readonly limit: number };

/** head/tail as the server reads them: 0 is absent, a fraction counts as the lines it reaches, a negative gives "". */
export function windowOf(input: { head?: number | undefined; tail?: number | undefined }): Window | 'nothing' {
  const { head = 0, tail = 0 } = input;
  if (tail !== 0) return tail < 0 ? 'nothing' : { mode: 'tail', offset: -Math.min(ALL, Math.max(1, Math.trunc(tail))), limit: Math.min(ALL, Math.max(1, Math.trunc(tail))) };
  if (head !== 0) return head < 0 ? 'nothing' : { mode: 'head', offset: 1, limit: Math.min(ALL, Math.ceil(head)) };
  return { mode: 'whole', offset: 1, limit: ALL };
}

/**
 * A text window as the server would answer it. A window from line 1 to the end is checked
 * against the file's size: the bytes left over are its final line break.
 */
export function bodyOf(result: TextResult, mode: Mode): string {
  const eol = result.lineEnding === 'lf' || result.lineEnding === 'crlf' || result.lineEnding === 'cr' ? EOL[result.lineEnding] : '\n';
  const exact = result.encoding === 'utf-8' && result.lineEnding !== 'mixed';
  const fromStart = result.startLine === 1;
  const bom = result.bom && exact && fromStart ? '\uFEFF' : '';
  const asInFile = bom + (eol === '\n' ? result.content : result.content.replaceAll('\n', eol));
  const toEnd = result.truncated === false && result.cutLines === 0 && result.endLine === result.totalLines;
  const finalBreak = exact && fromStart && toEnd && result.size - Buffer.byteLength(asInFile) === Buffer.byteLength(eol);
  if (mode === 'whole') return finalBreak ? asInFile + eol : asInFile;
  // head splits on LF only: a CRLF line keeps its CR, and no line break follows the last line.
  if (mode === 'head') return eol === '\r\n' && (finalBreak || !toEnd) ? `${asInFile}\r` : asInFile;
  return bom + result.content + (finalBreak ? '\n' : ''); // tail turns CRLF into LF
}

function withBudgetNotice(body: string, result: Pick<TextResult, 'truncated' | 'startLine' | 'endLine' | 'totalLines' | 'cutLines'>): string {
  if (result.truncated === false || result.truncated.reason === 'lines') return body;
  const notice = prose.describeBudgetStop({
    first: result.startLine,
    last: result.endLine,
    total: result.totalLines,
    unit: result.truncated.reason === 'bytes' ? 'byte' : 'token',
    cut: result.cutLines > 0,
  });
  return `${body}\n\n${notice}`;
}

/** The text a text tool answers for a result, or a failure message. */
export function textOf(result: ReadResult, mode: Mode, absolute: string): { ok: boolean; text: string } {
  switch (result.kind) {
    case 'text':
      return { ok: true, text: withBudgetNotice(bodyOf(result, mode), result) };
    case 'pdf':
      return { ok: false, text: prose.describeMediaAsText(absolute, 'pdf') };
    case 'image':
    case 'description':
    case 'binary': // never: text reads do not allow binary
    case 'notebook': // never: notebooks are read with media: false
    case 'unchanged': // never: every read is fresh
      return { ok: false, text: prose.describeMediaAsText(absolute, 'image') };
  }
}
