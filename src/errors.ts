/**
 * The one catalogue of error codes. Each code maps to the situation it names; the README
 * documents every code and a test keeps the two in step. Messages themselves are written
 * per dialect (see `src/dialects/`), because each tool words its errors for its own model.
 */
export const ERROR_CODES = {
  invalid_request: 'The request is malformed: an empty path, a NUL byte, a bad offset or limit, an unknown field.',
  not_found: 'No file exists at the path; the error carries up to three similar paths inside the root.',
  is_directory: 'The path names a directory.',
  outside_root: 'The path, or the target of a symbolic link on it, lies outside every root.',
  denied: 'A deny rule matches the requested or the resolved path (secrets, configured globs).',
  not_regular_file: 'The path is a device, FIFO, socket or kernel pseudo-file that could block or never end.',
  binary_file: 'The content holds a NUL byte; call again with `allowBinary: true` to receive base64.',
  file_too_large: 'The file is larger than the engine will scan (`maxFileBytes`, or `maxBinaryBytes` for base64).',
  unreadable: 'The operating system refused the read (permissions, I/O error, a symbolic-link loop).',
  changed_during_read: 'The file changed (size, mtime or ctime) while it was being read.',
  corrupt_media: 'An image, PDF or notebook that cannot be decoded, or whose bytes are not what its name says.',
  encrypted: 'A password-protected PDF, which cannot be read without the password.',
  overloaded: 'The engine queue is full; the error carries `retryAfterMs`.',
  aborted: "The caller's AbortSignal fired before the read finished.",
  timeout: 'The read did not finish before its deadline (`timeoutMs`).',
  closed: 'The engine was closed before the read could run.',
  internal: 'A bug or a worker failure; the error carries the underlying message.',
} as const;

export type ReadErrorCode = keyof typeof ERROR_CODES;

export type ErrorDetails = Readonly<Record<string, unknown>>;

/** Narrows an unknown string (for example from a worker message) to a catalogue code. */
export function isReadErrorCode(value: unknown): value is ReadErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/**
 * The single error type every engine call rejects with.
 *
 * @example
 * try { await engine.read({ path: 'missing.ts' }); }
 * catch (error) {
 *   if (error instanceof ReadError && error.code === 'not_found') console.log(error.details.suggestions);
 * }
 */
export class ReadError extends Error {
  readonly code: ReadErrorCode;
  readonly details: ErrorDetails;

  constructor(code: ReadErrorCode, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = 'ReadError';
    this.code = code;
    this.details = details;
  }

  toJSON(): { code: ReadErrorCode; message: string; details: ErrorDetails } {
    return { code: this.code, message: this.message, details: this.details };
  }
}
