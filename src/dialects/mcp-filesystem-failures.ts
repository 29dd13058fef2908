/**
 * The MCP filesystem server's failures: the Node.js and server texts a model already knows
 * (`ENOENT: ...`, `Access denied - ...`), so a host can swap servers, and readpool's own words,
 * in that style, for what the server never says (binary files, secrets, devices, budgets).
 */
import type { ReadError } from '../errors.js';
import { numberOr, stringOr, stringsOf } from './error-details.js';

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
      return `Cannot read ${absolute} as text: it is binary (a NUL byte at offset ${numberOr(d.nulAt, 0)}, ${numberOr(d.size, 0)} bytes). Use read_media_file to get its bytes as base64.`;
    case 'file_too_large':
      return `File too large - ${absolute} is ${numberOr(d.size, numberOr(d.pixels, 0))} ${d.pixels === undefined ? 'bytes' : 'pixels'}, over the limit of ${numberOr(d.limit, 0)} (${stringOr(d.limitName, 'size')})`;
    case 'not_regular_file':
      return `Cannot read ${absolute}: it is ${TYPES[stringOr(d.type, '')] ?? 'a special file'}, not a regular file, and reading it could block or never end`;
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
      return `Server busy: ${numberOr(d.queued, 0)} reads queued; retry in ${numberOr(d.retryAfterMs, 100)} ms`;
    case 'timeout':
      return `Timed out reading ${absolute} after ${numberOr(d.timeoutMs, 0)} ms`;
    case 'aborted':
      return `Read of ${absolute} was cancelled`;
    case 'closed':
      return 'The file server has stopped and accepts no more reads';
    case 'invalid_request': {
      const issues = stringsOf(d.issues);
      return issues.some((issue) => issue.startsWith('pages:'))
        ? `Cannot read ${absolute} as media: readpool returns a PDF whole only up to 10 pages and 3 MiB, and read_media_file cannot ask for pages`
        : `Cannot read ${absolute}: ${issues.join('; ')}`;
    }
    case 'internal':
      return `Cannot read ${absolute}: ${stringOr(d.message, 'internal error')}`;
  }
}
