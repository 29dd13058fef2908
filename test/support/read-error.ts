import { expect } from 'vitest';
import { ReadError, type ReadErrorCode } from '../../src/index.js';

/** Awaits a read that must reject, and returns its ReadError; fails the test on anything else. */
export async function rejectionOf(promise: Promise<unknown>): Promise<ReadError> {
  let result: unknown;
  try {
    result = await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ReadError);
    if (error instanceof ReadError) return error;
    throw error;
  }
  throw new Error(`expected a ReadError, but the read resolved with ${JSON.stringify(result).slice(0, 300)}`);
}

/** Awaits a read that must reject with `code`; returns the error for further checks. */
export async function expectReadError(promise: Promise<unknown>, code: ReadErrorCode): Promise<ReadError> {
  const error = await rejectionOf(promise);
  expect(error.code, error.message).toBe(code);
  return error;
}
