/**
 * The native dialect's prose: its tool's name, its line render, and every error a model reads
 * from readpool's own `read` tool (the notices that follow a result are in
 * `readpool-notices.ts`). Kept here as data and small templates, never inside the engine's logic,
 * so every sentence can be reviewed (and golden-tested) in one place. Each message says what
 * happened and the next call that helps.
 */
import type { RenderSpec } from '../core/line-format.js';
import type { ReadErrorCode } from '../errors.js';
import { numberOr, stringOr, stringsOf } from './error-details.js';

export const TOOL_NAME = 'read';

export const RENDER: RenderSpec = {
  format: { numbered: true, prefix: '', width: 0, separator: '\t' },
  cutMarker: ' … [line cut after {shown} characters; the whole line is {bytes} bytes]',
};

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

/** The message of a `ReadError`, from its code, its details and the path as the caller gave it. */
export function describeError(code: ReadErrorCode, details: Details, subject: string): string {
  const target = JSON.stringify(subject);
  switch (code) {
    case 'invalid_request':
      return `Invalid ${TOOL_NAME} request: ${stringsOf(details.issues).join('; ')}. Fix these fields and call ${TOOL_NAME} again.`;
    case 'not_found': {
      const suggestions = stringsOf(details.suggestions);
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
        : `${target} is outside the workspace (${stringsOf(details.roots).join(', ')}). ` +
            `Only files inside it can be read: call ${TOOL_NAME} with a path inside the workspace.`;
    case 'denied':
      return `Reading ${target} is denied by the rule ${JSON.stringify(details.rule)}: such files hold secrets or are excluded ` +
        'by configuration. Do not retry; ask the user for the specific information you need.';
    case 'not_regular_file':
      return `${target} is ${FILE_TYPES[stringOr(details.type, 'special')] ?? FILE_TYPES.special}, not a regular file: reading it could block or never end. ` +
        'Only regular files can be read: ask the user to save the data you need to a regular file, then read that.';
    case 'binary_file': {
      const sha = typeof details.sha256 === 'string' ? `, sha256 ${details.sha256}` : '';
      return `${target} is binary (a NUL byte at offset ${numberOr(details.nulAt, 0)}; ${numberOr(details.size, 0)} bytes${sha}). ` +
        `Call ${TOOL_NAME} again with allowBinary: true to receive it as base64, or use a tool made for this file type.`;
    }
    case 'file_too_large':
      if (details.limitName === 'maxImagePixels') {
        return `${target} is an image of ${numberOr(details.width, 0)}x${numberOr(details.height, 0)} pixels, over the ${numberOr(details.limit, 0)}-pixel limit ` +
          '(a decompression bomb, or a scan too large to decode safely). It was not decoded. Ask the user for a smaller export.';
      }
      return `${target} is ${numberOr(details.size, 0)} bytes, over the ${stringOr(details.limitName, 'size')} limit of ` +
        `${numberOr(details.limit, 0)} bytes. Search it for the part you need (grep) or ask for the limit to be raised.`;
    case 'unreadable':
      return `${target} cannot be read: ${describeErrno(stringOr(details.errno, ''))}. ` +
        'Check the path and its permissions; retrying the same call will fail the same way.';
    case 'changed_during_read':
      return `${target} changed while it was being read (it is being written). Call ${TOOL_NAME} again once the writer has finished.`;
    case 'corrupt_media': {
      const what = stringOr(details.expected, '') === 'pdf' || stringOr(details.reason, '') === 'not-a-pdf' ? 'a PDF' : stringOr(details.reason, '').startsWith('not-') ? 'what its name says' : 'a readable image, PDF or notebook';
      const cause = typeof details.message === 'string' ? ` (${details.message})` : '';
      return `${target} is not ${what}: its bytes cannot be decoded${cause}. Do not retry; if it should be text, ` +
        `ask the user what the file is, or call ${TOOL_NAME} with allowBinary: true on a copy without the media extension.`;
    }
    case 'encrypted':
      return `${target} is a password-protected PDF and cannot be read without the password. Do not retry; ask the user for an unprotected copy.`;
    case 'overloaded':
      return `The read engine is at capacity (${numberOr(details.queued, 0)} reads queued). ` +
        `Retry this call in ${numberOr(details.retryAfterMs, 100)} ms.`;
    case 'aborted':
      return `The read of ${target} was cancelled by the caller before it finished. Call ${TOOL_NAME} again if you still need it.`;
    case 'timeout':
      return `The read of ${target} did not finish within ${numberOr(details.timeoutMs, 0)} ms. ` +
        `For a very large file, search it first or read a smaller range with offset and limit.`;
    case 'closed':
      return 'The read engine has been closed and accepts no more reads. Retrying will not help: tell the user the file service has stopped.';
    case 'internal':
      return `readpool failed while reading ${target}: ${stringOr(details.message, 'unknown error')}. ` +
        `Retry the call once; if it fails again, call ${TOOL_NAME} with a smaller range (offset and limit).`;
  }
}
