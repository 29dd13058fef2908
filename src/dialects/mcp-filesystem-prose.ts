/**
 * What a model reads from the `mcp-filesystem` dialect: the official MCP filesystem server's
 * descriptions and error texts, verbatim, plus readpool's own words for what that server never
 * says (binary files, budgets, secrets, devices). Its errors are the Node.js and server texts a
 * model already knows (`ENOENT: ...`, `Access denied - ...`), so a host can swap servers.
 */
import type { ReadError } from '../errors.js';

export const TEXT_TOOL = {
  name: 'read_text_file',
  title: 'Read Text File',
  /** The server's deprecated `read_file`: the same handler, still answered, no longer listed. */
  aliases: ['read_file'],
  description:
    'Read the complete contents of a file from the file system as text. ' +
    'Handles various text encodings and provides detailed error messages ' +
    'if the file cannot be read. Use this tool when you need to examine ' +
    "the contents of a single file. Use the 'head' parameter to read only " +
    "the first N lines of a file, or the 'tail' parameter to read only " +
    'the last N lines of a file. Operates on the file as text regardless of extension. ' +
    'Only works within allowed directories.',
  tail: 'If provided, returns only the last N lines of the file',
  head: 'If provided, returns only the first N lines of the file',
} as const;

export const MEDIA_TOOL = {
  name: 'read_media_file',
  title: 'Read Media File',
  description:
    'Read a file and return it as a base64-encoded content block with its MIME type. ' +
    'Image and audio files are returned as image/audio content; any other file type is ' +
    'returned as an embedded resource. Only works within allowed directories.',
} as const;

export const MULTIPLE_TOOL = {
  name: 'read_multiple_files',
  title: 'Read Multiple Files',
  description:
    'Read the contents of multiple files simultaneously. This is more ' +
    'efficient than reading files one by one when you need to analyze ' +
    "or compare multiple files. Each file's content is returned with its " +
    'path as a reference. Failed reads for individual files won\'t stop ' +
    'the entire operation. Only works within allowed directories.',
  paths: 'Array of file paths to read. Each path must be a string pointing to a valid file within allowed directories.',
} as const;

/** The server's MIME map for `read_media_file`, by extension; anything else is a resource. */
export const MEDIA_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.svg': 'image/svg+xml',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.flac': 'audio/flac',
};

export const BOTH_HEAD_AND_TAIL = 'Cannot specify both head and tail parameters simultaneously';

/** One schema issue as the MCP SDK words a zod 3 issue; `received` is the input's type there. */
export function describeIssue(code: string, expected: string, received: string): string {
  if (code === 'invalid_type') return received === 'undefined' ? 'Required' : `Expected ${expected}, received ${received}`;
  if (code === 'too_small') return 'Array must contain at least 1 element(s)';
  return 'Invalid input';
}

export function invalidArguments(tool: string, issues: readonly string[]): string {
  return `MCP error -32602: Input validation error: Invalid arguments for tool ${tool}: ${issues.join('\n')}`;
}

/** Where a text window stopped short of what was asked, and how to read on with these tools. */
export function describeBudgetStop(facts: { first: number; last: number; total: number | null; unit: string; cut: boolean }): string {
  const { first, last, total, unit, cut } = facts;
  const of = total === null ? '' : ` of ${total}`;
  const cutNote = cut ? ` (line ${last} cut short)` : '';
  const next =
    total !== null && total > last
      ? `call it with tail: ${total - last} for the lines after these (capped the same way)`
      : 'ask for fewer lines with head or tail';
  return (
    `[readpool: output capped at its ${unit} budget; showing lines ${first}-${last}${of}${cutNote}. ` +
    `read_text_file has no offset: ${next}, or search the file for the part you need.]`
  );
}

const NODE_ERRNO: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ELOOP: 'too many symbolic links encountered',
  EIO: 'i/o error',
  EAGAIN: 'resource temporarily unavailable',
};

const TYPES: Readonly<Record<string, string>> = {
  fifo: 'a FIFO',
  socket: 'a socket',
  'character-device': 'a character device',
  'block-device': 'a block device',
  'pseudo-file': 'a kernel pseudo-file',
};

const num = (value: unknown, fallback: number): number => (typeof value === 'number' ? value : fallback);
const str = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);

/**
 * A `ReadError` in the server's words: `absolute` is the path as the server resolves it,
 * `allowed` its allowed directories. Texts the server never produces are readpool's, in its style.
 */
export function describeFailure(error: ReadError, absolute: string, allowed: readonly string[]): string {
  const d = error.details;
  switch (error.code) {
    case 'not_found':
      return `ENOENT: no such file or directory, open '${absolute}'`;
    case 'is_directory':
      return 'EISDIR: illegal operation on a directory, read';
    case 'outside_root':
      return d.throughLink === true
        ? `Access denied - symlink target outside allowed directories: ${absolute} not in ${allowed.join(', ')}`
        : `Access denied - path outside allowed directories: ${absolute} not in ${allowed.join(', ')}`;
    case 'denied':
      return `Access denied - ${absolute} matches the deny rule ${JSON.stringify(d.rule)} (files that hold secrets are not served)`;
    case 'binary_file':
      return `Cannot read ${absolute} as text: it is binary (a NUL byte at offset ${num(d.nulAt, 0)}, ${num(d.size, 0)} bytes). Use read_media_file to get its bytes as base64.`;
    case 'file_too_large':
      return `File too large - ${absolute} is ${num(d.size, num(d.pixels, 0))} ${d.pixels === undefined ? 'bytes' : 'pixels'}, over the limit of ${num(d.limit, 0)} (${str(d.limitName, 'size')})`;
    case 'not_regular_file':
      return `Cannot read ${absolute}: it is ${TYPES[str(d.type, '')] ?? 'a special file'}, not a regular file, and reading it could block or never end`;
    case 'unreadable': {
      const errno = typeof d.errno === 'string' && d.errno !== '' ? d.errno : 'EIO';
      return `${errno}: ${NODE_ERRNO[errno] ?? 'system error'}, open '${absolute}'`;
    }
    case 'corrupt_media':
    case 'encrypted':
      return `Cannot read ${absolute}: ${error.code === 'encrypted' ? 'the PDF is password-protected' : 'its bytes are not what its extension says'}`;
    case 'changed_during_read':
      return `Cannot read ${absolute}: it changed while it was being read; try again once it is written`;
    case 'overloaded':
      return `Server busy: ${num(d.queued, 0)} reads queued; retry in ${num(d.retryAfterMs, 100)} ms`;
    case 'timeout':
      return `Timed out reading ${absolute} after ${num(d.timeoutMs, 0)} ms`;
    case 'aborted':
      return `Read of ${absolute} was cancelled`;
    case 'closed':
      return 'The file server has stopped and accepts no more reads';
    case 'invalid_request': {
      const issues = Array.isArray(d.issues) ? d.issues.filter((issue): issue is string => typeof issue === 'string') : [];
      return issues.some((issue) => issue.startsWith('pages:'))
        ? `Cannot read ${absolute} as media: readpool returns a PDF whole only up to 10 pages and 3 MiB, and read_media_file cannot ask for pages`
        : `Cannot read ${absolute}: ${issues.join('; ')}`;
    }
    case 'internal':
      return `Cannot read ${absolute}: ${str(d.message, 'internal error')}`;
  }
}

/** `read_text_file` on a file readpool serves as media: where its content can be had. */
export function describeMediaAsText(absolute: string, kind: 'image' | 'pdf'): string {
  return `Cannot read ${absolute} as text: it is ${kind === 'pdf' ? 'a PDF' : 'an image'}. Use read_media_file to get it as base64.`;
}
