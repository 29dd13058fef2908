/**
 * The words of seed 002's `read_file` (see `comma.ts`): its description, verbatim from the seed,
 * and its errors. The seed names five kinds; input it cannot run is `invalid_input`, and a read
 * that failed for a reason other than the file itself (a timeout, a file changing while read, the
 * engine closing) is `read_failed`, with the engine's message and code.
 */
import type { ReadError } from '../errors.js';
import { isReadFailure } from './error-details.js';

export const DESCRIPTION =
  'Read the contents of a workspace file and receive a structured payload with line metadata, a sha256 of the on-disk bytes, ' +
  'and the (optionally sliced) text content. The sha256 is what every later write/edit tool uses to detect stale state — agents ' +
  'should keep it from each read for any file they intend to modify.\n\n' +
  'Binary files require a two-step opt-in: the first call returns the binary_file error with the file\'s size and sha256, and the ' +
  'agent must re-call with allowBinary: true to receive base64 content.';

/** The tool as hosts list it. */
export const TOOL = { name: 'read_file', title: 'Read file', description: DESCRIPTION } as const;

export type ReadFileErrorKind =
  | 'not_found'
  | 'outside_workspace'
  | 'permission_denied'
  | 'binary_file'
  | 'file_too_large'
  | 'invalid_input'
  | 'read_failed';

export type ReadFileError = { readonly kind: ReadFileErrorKind; readonly message: string } & Readonly<Record<string, unknown>>;

function fault(kind: ReadFileErrorKind, message: string, extra: Record<string, unknown> = {}): ReadFileError {
  return { kind, message, ...extra };
}

/** A `ReadError` as the seed's error: its kind, a message, and the facts an agent acts on. */
export function describeFailure(error: ReadError, subject: string): ReadFileError {
  const { details } = error;
  // Not a property of the file the seed names: the engine's own words, and its code.
  if (isReadFailure(error.code)) return fault('read_failed', error.message, { code: error.code });
  switch (error.code) {
    case 'not_found': {
      const suggestions = Array.isArray(details.suggestions) ? details.suggestions : [];
      return fault('not_found', `File not found: ${subject}`, suggestions.length > 0 ? { suggestions } : {});
    }
    case 'is_directory':
      return fault('not_found', `${subject} is a directory, not a file. Use list_directory to enumerate it.`);
    case 'outside_root':
      return fault('outside_workspace', `${subject} is outside the workspace.`);
    case 'denied':
      return fault('permission_denied', `Reading ${subject} is blocked by the sandbox read policy.`, { rule: details.rule });
    case 'not_regular_file':
      return fault('permission_denied', `${subject} is not a regular file (${String(details.type)}); the sandbox read policy blocks it.`);
    case 'unreadable':
      if (details.errno === 'EACCES' || details.errno === 'EPERM') return fault('permission_denied', `Permission denied: ${subject}`);
      return fault('read_failed', `${subject} could not be read (${String(details.errno)}).`, { code: error.code });
    case 'binary_file':
      return typeof details.sha256 === 'string'
        ? fault('binary_file', `${subject} is a binary file. Re-call with allowBinary: true to receive base64.`, { size: details.size, sha256: details.sha256 })
        : fault('file_too_large', `${subject} is a binary file too large to return as base64.`, { size: details.size });
    case 'file_too_large':
      return fault('file_too_large', `${subject} exceeds the sandbox size limit of ${String(details.limit)} bytes.`, { size: details.size, limit: details.limit });
    case 'invalid_request':
      return fault('invalid_input', `Invalid read_file input: ${(Array.isArray(details.issues) ? details.issues : []).join('; ')}`);
  }
}

export function describeInvalid(issues: readonly string[]): ReadFileError {
  return fault('invalid_input', `Invalid read_file input: ${issues.join('; ')}`, { issues });
}
