/**
 * The hostile suite's one way to run a case: a workspace with a secret planted outside its root
 * (a unique marker no answer may ever contain), and `check`, which runs a request through the
 * real engine and asserts the four things every case promises: the exact error code (or the
 * exact safe result), an answer within the case's deadline, no byte from outside the root in
 * the answer, and the engine still serving the next request (a read that goes to a worker).
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { expect } from 'vitest';
import { ReadError, type Engine, type ReadErrorCode, type ReadRequest, type ReadResult } from '../../src/index.js';
import { makeWorkspace, writeFile } from '../support/temp-dir.js';

/** A marker unique to this run, written only into files outside the root. */
export const SECRET = `READPOOL-SECRET-${randomUUID()}`;

/** Content of `ok.txt`, the file every "next request" reads. */
export const OK_LINE = 'ok, still serving';

export interface HostileWorkspace {
  readonly base: string;
  readonly root: string;
  /** `base/secret.txt`, beside the root, holding the marker. */
  readonly secret: string;
  /** `base/root-evil/secret.txt`: the prefix sibling of the root, holding the marker. */
  readonly siblingSecret: string;
}

/** `base/root` with `ok.txt`; the marker in `base/secret.txt` and `base/root-evil/secret.txt`. */
export function hostileWorkspace(): HostileWorkspace {
  const { base, root } = makeWorkspace();
  writeFile(root, 'ok.txt', `${OK_LINE}\n`);
  const secret = writeFile(base, 'secret.txt', `${SECRET}\n`);
  const siblingSecret = writeFile(base, 'root-evil/secret.txt', `${SECRET}\n`);
  return { base, root, secret, siblingSecret };
}

/** Throws when any part of `answer` (a result, an error's message and details) holds the marker. */
export function expectNoLeak(answer: unknown): void {
  const text = answer instanceof Error ? `${answer.message} ${JSON.stringify(answer)}` : JSON.stringify(answer);
  expect(text.includes(SECRET), 'an answer contains the secret planted outside the root').toBe(false);
  if (typeof answer === 'object' && answer !== null && 'data' in answer && typeof answer.data === 'string') {
    expect(Buffer.from(answer.data, 'base64').includes(SECRET)).toBe(false);
  }
}

let nextLimit = 1000;

/**
 * Reads `ok.txt` with a limit no earlier read used, so no cache can answer: the read goes
 * through the scheduler to a worker, and proves the pool still serves.
 */
export async function expectServing(engine: Engine, root?: string): Promise<void> {
  const okPath = root === undefined ? 'ok.txt' : path.join(root, 'ok.txt');
  const result = await engine.read({ path: okPath, limit: nextLimit++ });
  expect(result.kind).toBe('text');
  if (result.kind === 'text') expect(result.content).toContain(OK_LINE);
}

/** What a case expects: an error code, or a check of the safe result it must answer with. */
export type Expected = ReadErrorCode | ((result: ReadResult) => void);

export type Answer = { ok: true; result: ReadResult } | { ok: false; error: ReadError };

/** Runs `request`, failing when it does not answer within `deadlineMs`; never throws a ReadError. */
export async function answerOf(engine: Engine, request: ReadRequest, deadlineMs: number, signal?: AbortSignal): Promise<Answer> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${deadlineMs} ms`)), deadlineMs);
  });
  try {
    const work = engine.read(request, signal === undefined ? {} : { signal }).then(
      (result): Answer => ({ ok: true, result }),
      (error: unknown): Answer => {
        // Anything but a ReadError is a bug the case must show.
        if (!(error instanceof ReadError)) throw error;
        return { ok: false, error };
      },
    );
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The whole contract of one case; returns the answer for any further check. */
export async function check(engine: Engine, request: ReadRequest, expected: Expected, deadlineMs = 5000, root?: string): Promise<Answer> {
  const answer = await answerOf(engine, request, deadlineMs);
  expectNoLeak(answer.ok ? answer.result : answer.error);
  if (typeof expected === 'string') {
    const got = answer.ok ? `a ${answer.result.kind} result` : `${answer.error.code}: ${answer.error.message}`;
    expect(answer.ok ? null : answer.error.code, got).toBe(expected);
  } else {
    if (!answer.ok) throw new Error(`expected a safe result, got ${answer.error.code}: ${answer.error.message}`);
    expected(answer.result);
  }
  await expectServing(engine, root);
  return answer;
}

/** A text result whose content is exactly `content`. */
export function textIs(content: string): (result: ReadResult) => void {
  return (result) => {
    expect(result.kind).toBe('text');
    if (result.kind === 'text') expect(result.content).toBe(content);
  };
}

/** Short form of a value for a test name: control characters escaped, long strings cut. */
export function shown(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > 70 ? `${text.slice(0, 60)}...(${text.length} chars)` : text;
}
