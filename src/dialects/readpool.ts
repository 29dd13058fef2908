/**
 * The native dialect's prose: everything a model reads from readpool's own `read` tool. Kept
 * here as data and small templates, never inside the engine's logic, so every sentence can be
 * reviewed (and golden-tested) in one place. Each message says what happened and the next call
 * that helps.
 */
import type { RenderSpec } from '../core/line-format.js';
import type { ReadErrorCode } from '../errors.js';
import type { ReadMark } from '../cache/sessions.js';
import type { TextPayload } from '../wire.js';

export const TOOL_NAME = 'read';

export const RENDER: RenderSpec = {
  format: { numbered: true, prefix: '', width: 0, separator: '\t' },
  cutMarker: ' … [line cut after {shown} characters; the whole line is {bytes} bytes]',
};

type NoticeFacts = Pick<TextPayload, 'startLine' | 'endLine' | 'totalLines' | 'stop' | 'cutLines' | 'firstCutLine'> & {
  readonly column?: TextPayload['column'];
};

export interface NoticeContext {
  readonly limit: number;
  readonly maxBytes: number;
  readonly maxTokens: number;
  readonly maxLineChars: number;
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
    return parts.join('\n');
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
  return parts.length === 0 ? null : parts.join('\n');
}

/** The text of an `unchanged` answer: what the session already holds, and how to get it again. */
export function describeStub(mark: Pick<ReadMark, 'relativePath' | 'startLine' | 'endLine' | 'totalLines' | 'readAt'>): string {
  const lines =
    mark.endLine < mark.startLine
      ? 'it'
      : mark.totalLines !== null && mark.startLine === 1 && mark.endLine === mark.totalLines
        ? `all ${mark.totalLines} lines`
        : `lines ${mark.startLine}-${mark.endLine}`;
  return (
    `[${mark.relativePath} is unchanged since you read ${lines} at ${new Date(mark.readAt).toISOString()}. ` +
    'Refer to that earlier result instead of reading it again. If it is no longer in your context, ' +
    `call ${TOOL_NAME} with the same arguments and fresh: true.]`
  );
}

/** Why an edit would be stale: for `checkUnchanged`'s message. */
export function describeChange(
  reason: 'modified' | 'deleted' | 'not_read' | 'same_version' | 'same_content',
  subject: string,
  mark: Pick<ReadMark, 'readAt' | 'size'> | null,
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

type Details = Readonly<Record<string, unknown>>;

/** How `not_regular_file`'s `details.type` reads. */
const FILE_TYPES: Readonly<Record<string, string>> = {
  fifo: 'a FIFO (named pipe)',
  socket: 'a socket',
  'character-device': 'a character device',
  'block-device': 'a block device',
  'pseudo-file': 'a kernel pseudo-file (/proc, /sys or /dev)',
  special: 'a special file',
};

/** How `unreadable`'s `details.errno` reads. */
function describeErrno(errno: string): string {
  switch (errno) {
    case 'ELOOP':
      return 'its path is a loop of symbolic links (ELOOP)';
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${errno})`;
    case 'EIO':
      return 'an I/O error on the device (EIO)';
    case 'EAGAIN':
    case 'EWOULDBLOCK':
      return `another process holds a lease or lock on it (${errno})`;
    case '':
      return 'the operating system refused';
    default:
      return `the system error ${errno}`;
  }
}

function list(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function text(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

function num(value: unknown): number | null {
  return typeof value === 'number' ? value : null;
}

/** The message of a `ReadError`, from its code, its details and the path as the caller gave it. */
export function describeError(code: ReadErrorCode, details: Details, subject: string): string {
  const target = JSON.stringify(subject);
  switch (code) {
    case 'invalid_request':
      return `Invalid ${TOOL_NAME} request: ${list(details.issues).join('; ')}. Fix these fields and call ${TOOL_NAME} again.`;
    case 'not_found': {
      const suggestions = list(details.suggestions);
      return suggestions.length > 0
        ? `No file at ${target}. Did you mean ${suggestions.map((s) => JSON.stringify(s)).join(', ')}? ` +
            `Call ${TOOL_NAME} with one of these paths.`
        : `No file at ${target}. List the directory or search for the file name, then call ${TOOL_NAME} with the exact path.`;
    }
    case 'is_directory':
      return `${target} is a directory, not a file. List its entries with a directory tool, then call ${TOOL_NAME} on a file inside it.`;
    case 'outside_root':
      return details.throughLink === true
        ? `${target} resolves through a symbolic link to a location outside the workspace, which cannot be read. ` +
            'Read the file through a path inside the workspace instead.'
        : `${target} is outside the workspace (${list(details.roots).join(', ')}). ` +
            `Only files inside it can be read: call ${TOOL_NAME} with a path inside the workspace.`;
    case 'denied':
      return `Reading ${target} is denied by the rule ${JSON.stringify(details.rule)}: such files hold secrets or are excluded ` +
        'by configuration. Do not retry; ask the user for the specific information you need.';
    case 'not_regular_file':
      return `${target} is ${FILE_TYPES[text(details.type, 'special')] ?? FILE_TYPES.special}, not a regular file: reading it could block or never end. ` +
        'Only regular files can be read: ask the user to save the data you need to a regular file, then read that.';
    case 'binary_file': {
      const sha = typeof details.sha256 === 'string' ? `, sha256 ${details.sha256}` : '';
      return `${target} is binary (a NUL byte at offset ${num(details.nulAt) ?? 0}; ${num(details.size) ?? 0} bytes${sha}). ` +
        `Call ${TOOL_NAME} again with allowBinary: true to receive it as base64, or use a tool made for this file type.`;
    }
    case 'file_too_large':
      if (details.limitName === 'maxImagePixels') {
        return `${target} is an image of ${num(details.width) ?? 0}x${num(details.height) ?? 0} pixels, over the ${num(details.limit) ?? 0}-pixel limit ` +
          '(a decompression bomb, or a scan too large to decode safely). It was not decoded. Ask the user for a smaller export.';
      }
      return `${target} is ${num(details.size) ?? 0} bytes, over the ${text(details.limitName, 'size')} limit of ` +
        `${num(details.limit) ?? 0} bytes. Search it for the part you need (grep) or ask for the limit to be raised.`;
    case 'unreadable':
      return `${target} cannot be read: ${describeErrno(text(details.errno, ''))}. ` +
        'Check the path and its permissions; retrying the same call will fail the same way.';
    case 'changed_during_read':
      return `${target} changed while it was being read (it is being written). Call ${TOOL_NAME} again once the writer has finished.`;
    case 'corrupt_media': {
      const what = text(details.expected, '') === 'pdf' || text(details.reason, '') === 'not-a-pdf' ? 'a PDF' : text(details.reason, '').startsWith('not-') ? 'what its name says' : 'a readable image, PDF or notebook';
      const cause = typeof details.message === 'string' ? ` (${details.message})` : '';
      return `${target} is not ${what}: its bytes cannot be decoded${cause}. Do not retry; if it should be text, ` +
        `ask the user what the file is, or call ${TOOL_NAME} with allowBinary: true on a copy without the media extension.`;
    }
    case 'encrypted':
      return `${target} is a password-protected PDF and cannot be read without the password. Do not retry; ask the user for an unprotected copy.`;
    case 'overloaded':
      return `The read engine is at capacity (${num(details.queued) ?? 0} reads queued). ` +
        `Retry this call in ${num(details.retryAfterMs) ?? 100} ms.`;
    case 'aborted':
      return `The read of ${target} was cancelled by the caller before it finished. Call ${TOOL_NAME} again if you still need it.`;
    case 'timeout':
      return `The read of ${target} did not finish within ${num(details.timeoutMs) ?? 0} ms. ` +
        `For a very large file, search it first or read a smaller range with offset and limit.`;
    case 'closed':
      return 'The read engine has been closed and accepts no more reads. Retrying will not help: tell the user the file service has stopped.';
    case 'internal':
      return `readpool failed while reading ${target}: ${text(details.message, 'unknown error')}. ` +
        `Retry the call once; if it fails again, call ${TOOL_NAME} with a smaller range (offset and limit).`;
  }
}
