/**
 * The notices of readpool's own `read` tool: what follows a text window (the next call, the
 * lines cut), the unchanged-file stub, why an edit would be stale, and the notes that go with
 * images and PDFs. Each says what the model holds and the exact call that reads on.
 */
import type { LastRead, ReadFacts } from '../cache/sessions.js';
import type { Decoding } from '../core/sniff.js';
import type { TextPayload } from '../wire.js';
import { TOOL_NAME } from './readpool.js';

type NoticeFacts = Pick<TextPayload, 'startLine' | 'endLine' | 'totalLines' | 'stop' | 'cutLines' | 'firstCutLine'> & {
  readonly column?: TextPayload['column'];
  readonly encoding?: TextPayload['encoding'];
  readonly invalidUtf8?: boolean;
};

export interface NoticeContext {
  readonly limit: number;
  readonly maxBytes: number;
  readonly maxTokens: number;
  readonly maxLineChars: number;
  /** The decoding the request asked for (default `auto`: the encoding was recognised). */
  readonly encoding?: Decoding;
}

/** The notice that follows a text window, or null when the window needs none. */
export function describeWindow(facts: NoticeFacts, context: NoticeContext): string | null {
  const { startLine, endLine, totalLines, stop, cutLines, firstCutLine } = facts;
  const column = facts.column ?? null;
  const parts: string[] = [];
  if (column !== null) {
    const of = totalLines === null ? `line ${startLine}` : `line ${startLine} of ${totalLines}`;
    const next = stop !== null ? ` Call ${TOOL_NAME} with offset=${startLine + 1} for the next line.` : '';
    parts.push(
      column.more
        ? `[Showing characters ${column.first}-${column.last} of ${of} (the line is ${column.lineBytes} bytes). ` +
            `Call ${TOOL_NAME} with offset=${startLine}, column=${column.last + 1} to continue along this line.]`
        : column.last < column.first
          ? `[Line ${startLine} has fewer than ${column.first} characters. Call ${TOOL_NAME} with offset=${startLine}, column=1 to read it from its start.${next}]`
          : `[Showing characters ${column.first}-${column.last} of ${of}: the end of the line.${next}]`,
    );
    return withEncoding(parts, facts, context);
  }
  if (totalLines === null) {
    // A tail read of a large file: numbered from the end, never counted whole.
    const shown = Math.max(1, endLine - startLine + 1);
    parts.push(
      '[Lines are numbered from the end of the file (-1 is the last line); the file is large and was not counted. ' +
        (stop !== null ? `Call ${TOOL_NAME} with offset=${endLine + 1} to continue toward the end, or ` : 'Call ') +
        `${TOOL_NAME} with offset=${startLine - shown}, limit=${shown} for the lines before these.]`,
    );
  } else if (totalLines === 0) {
    parts.push('[The file exists but is empty (0 lines).]');
  } else if (endLine < startLine) {
    const last = Math.max(1, totalLines - context.limit + 1);
    parts.push(
      `[The file has ${totalLines} lines, so offset ${startLine} is past the end. ` +
        `Call ${TOOL_NAME} with offset=${last} to see the last lines.]`,
    );
  } else if (stop !== null) {
    const why =
      stop === 'lines'
        ? ''
        : stop === 'bytes'
          ? `Output capped at ${context.maxBytes} bytes. `
          : `Output capped at about ${context.maxTokens} tokens. `;
    parts.push(
      `[${why}Showing lines ${startLine}-${endLine} of ${totalLines}. ` +
        `Call ${TOOL_NAME} with offset=${endLine + 1} to continue.]`,
    );
  }
  if (cutLines > 0) {
    const first = firstCutLine ?? startLine;
    parts.push(
      `[${cutLines} line${cutLines === 1 ? ' was' : 's were'} too long to show whole (over ${context.maxLineChars} characters, or over the output budget) ` +
        `and cut where marked. To read line ${first} in full, page by page, call ${TOOL_NAME} with offset=${first}, column=1.]`,
    );
  }
  return withEncoding(parts, facts, context);
}

/** The notice's parts with what a model must know of the file's encoding, or null when there are none. */
function withEncoding(parts: string[], facts: NoticeFacts, context: NoticeContext): string | null {
  const encoding = describeEncoding(facts, context.encoding ?? 'auto');
  if (encoding !== null) parts.push(encoding);
  return parts.length === 0 ? null : parts.join('\n');
}

/** What a model must know of a file that is not UTF-8 (or UTF-16 by its BOM), or null. */
function describeEncoding({ encoding = 'utf-8', invalidUtf8 = false }: Pick<NoticeFacts, 'encoding' | 'invalidUtf8'>, asked: Decoding): string | null {
  if (invalidUtf8 && asked === 'utf-8') {
    return `[This file is not valid UTF-8: its bytes that are not UTF-8 are shown as \uFFFD. Call ${TOOL_NAME} with encoding: "auto" to have its encoding recognised, or name it.]`;
  }
  if (invalidUtf8) {
    return (
      '[This file is not valid UTF-8 and its encoding was not recognised: its bytes that are not UTF-8 are shown as \uFFFD. ' +
      `If you know its encoding, call ${TOOL_NAME} again with encoding set to it (for example encoding: "shift_jis"); ` +
      `if it is binary data, with allowBinary: true to receive its bytes as base64.]`
    );
  }
  if (encoding === 'utf-8' || encoding === 'utf-16le' || encoding === 'utf-16be') return null;
  const name = encodingName(encoding);
  if (asked === encoding) return `[Decoded from ${name}, as asked. Keep the file in ${name} when you write it back.]`;
  return `[This file is in ${name}, not UTF-8 (recognised from its first bytes), and is shown decoded. Keep it in ${name} when you write it back.]`;
}

/** An encoding as people write it: GB18030, Shift_JIS, Big5, Windows-1251, ISO-8859-2. */
function encodingName(encoding: string): string {
  if (encoding === 'shift_jis') return 'Shift_JIS';
  if (encoding === 'big5') return 'Big5';
  if (encoding.startsWith('windows-')) return `Windows-${encoding.slice('windows-'.length)}`;
  return encoding.toUpperCase();
}

/** The text of an `unchanged` answer: what the session already holds, and how to get it again. */
export function describeStub(read: Pick<ReadFacts, 'relativePath' | 'startLine' | 'endLine' | 'totalLines'>, readAt: number): string {
  const lines =
    read.endLine < read.startLine
      ? 'it'
      : read.totalLines !== null && read.startLine === 1 && read.endLine === read.totalLines
        ? `all ${read.totalLines} lines`
        : `lines ${read.startLine}-${read.endLine}`;
  return (
    `[${read.relativePath} is unchanged since you read ${lines} at ${new Date(readAt).toISOString()}. ` +
    'Refer to that earlier result instead of reading it again. If it is no longer in your context, ' +
    `call ${TOOL_NAME} with the same arguments and fresh: true.]`
  );
}

/** Why an edit would be stale: for `checkUnchanged`'s message. */
export function describeChange(
  reason: 'modified' | 'deleted' | 'not_read' | 'same_version' | 'same_content',
  subject: string,
  mark: Pick<LastRead, 'readAt' | 'size'> | null,
  sizeNow: number | null,
): string {
  const target = JSON.stringify(subject);
  const since = mark === null ? '' : ` at ${new Date(mark.readAt).toISOString()}`;
  switch (reason) {
    case 'not_read':
      return `${target} has not been read in this session (or the read was forgotten). Call ${TOOL_NAME} on it before editing it.`;
    case 'deleted':
      return `${target} no longer exists (it was deleted or moved since you read it${since}). Check where it went before writing to it.`;
    case 'modified': {
      const sizes = mark !== null && sizeNow !== null && mark.size !== sizeNow ? ` (${mark.size} bytes then, ${sizeNow} now)` : '';
      return `${target} was modified since you read it${since}${sizes}: its content differs. Call ${TOOL_NAME} on it again, then redo the edit against the current content.`;
    }
    case 'same_version':
    case 'same_content':
      return `${target} is unchanged since you read it${since}.`;
  }
}

/** The note that maps a served image back to the original: sizes and the scale between them. */
export function describeImage(facts: { originalWidth: number; originalHeight: number; width: number; height: number; repaired: boolean; originalBytes: number; bytes: number }): string {
  const scale = Math.round((facts.originalWidth / Math.max(1, facts.width)) * 100) / 100;
  const sizes = facts.width === facts.originalWidth && facts.height === facts.originalHeight
    ? `${facts.width}x${facts.height}, served at full size`
    : `original ${facts.originalWidth}x${facts.originalHeight}, served ${facts.width}x${facts.height}, scale ${scale}: multiply coordinates in the served image by ${scale} to find them in the original`;
  const repaired = facts.repaired ? ' The file is truncated: the part that could be decoded is shown.' : '';
  return `[${sizes}; ${facts.bytes} bytes served of ${facts.originalBytes}.${repaired}]`;
}

/** An image in words, for a model that takes no images. */
export function describeImageAsText(relativePath: string, format: string, width: number, height: number, size: number): string {
  return `[${relativePath} is a ${format.toUpperCase()} image, ${width}x${height} pixels, ${size} bytes. This model takes no images, so its ` +
    'content is not shown: ask the user to describe it, or use a tool that extracts text (OCR) from images.]';
}

/** What a PDF result holds and how to ask for more. */
export function describePdf(form: 'document' | 'images' | 'text', pageCount: number, first: number, last: number, omittedChars = 0): string {
  const range = `pages ${first}-${last} of ${pageCount}`;
  const more = last < pageCount ? ` Call ${TOOL_NAME} with pages: "${last + 1}-${Math.min(pageCount, last + 20)}" for the next pages.` : '';
  switch (form) {
    case 'document':
      return `[The whole PDF, ${pageCount} page${pageCount === 1 ? '' : 's'}, as a document.]`;
    case 'images':
      return `[${range}, rendered as images.${more}]`;
    case 'text': {
      const cut = omittedChars > 0 ? ` ${omittedChars} characters were left out to stay within the output budget: ask for fewer pages.` : '';
      return `[The text of ${range}, extracted because this model takes no PDFs or images.${cut}${more}]`;
    }
  }
}
