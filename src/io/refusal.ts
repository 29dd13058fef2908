import type { ReadErrorCode } from '../errors.js';

/**
 * Thrown inside a worker to end one job with a catalogue code. It never crosses the thread
 * boundary: the job runner turns it into a plain `{ ok: false, code, details }` outcome.
 */
export class Refusal extends Error {
  readonly code: ReadErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: ReadErrorCode, details: Readonly<Record<string, unknown>> = {}) {
    super(code);
    this.name = 'Refusal';
    this.code = code;
    this.details = details;
  }
}

/**
 * Thrown inside a worker when a job sent without a known size (see `TextJob.deferAbove`) opens a
 * file too large to share a batch: the job is not read, and the host queues it again alone.
 */
export class Deferral extends Error {
  readonly size: number;

  constructor(size: number) {
    super('deferred');
    this.name = 'Deferral';
    this.size = size;
  }
}

export function errnoCode(error: unknown): string | null {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return null;
}

/** What a non-regular file is, for `not_regular_file` details; the dialect words it. */
export type FileType = 'fifo' | 'socket' | 'character-device' | 'block-device' | 'pseudo-file' | 'special';

/**
 * The refusal for a system error met while opening or reading (permissions, I/O errors, link
 * loops, leases): `unreadable` with the errno, or `not_regular_file` for device-only errors.
 * Details carry machine facts only, never a descriptor path. Anything that is not a system
 * error is rethrown: that is a bug, and the job runner reports it as `internal`.
 */
export function systemRefusal(error: unknown): Refusal {
  if (!isSystemError(error)) throw error;
  const code = errnoCode(error) ?? 'EIO';
  if (code === 'ENXIO' || code === 'ENODEV') return new Refusal('not_regular_file', { type: 'special' satisfies FileType });
  if (code === 'ENAMETOOLONG') return new Refusal('invalid_request', { issues: ['path: too long for the file system'] });
  return new Refusal('unreadable', { errno: code });
}

/**
 * True for an error a system call returned (`EACCES`, `EIO`, ...), false for Node's own
 * argument and state errors (`ERR_OUT_OF_RANGE`, ...), which are bugs and must stay `internal`.
 */
export function isSystemError(error: unknown): boolean {
  const code = errnoCode(error);
  return code !== null && /^E[A-Z0-9]+$/.test(code);
}

/** The message of anything thrown: native libraries (mupdf) throw bare strings as well as Errors. */
export function messageOf(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message;
  return Object.prototype.toString.call(error);
}

/**
 * Any error a worker meets, as the plain failure that crosses the thread boundary: a Refusal
 * as it is, a system error by its errno, anything else `internal` with its message.
 */
export function failureOf(error: unknown): { readonly ok: false; readonly code: ReadErrorCode; readonly details: Readonly<Record<string, unknown>> } {
  if (error instanceof Refusal) return { ok: false, code: error.code, details: error.details };
  if (isSystemError(error)) {
    const refusal = systemRefusal(error);
    return { ok: false, code: refusal.code, details: refusal.details };
  }
  return { ok: false, code: 'internal', details: { message: messageOf(error) } };
}
