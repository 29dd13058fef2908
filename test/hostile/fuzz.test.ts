/**
 * Property-based fuzzing (fast-check) of request fields, path strings and every dialect's input.
 * Properties: no unhandled rejection, nothing thrown but a `ReadError` (a dialect: nothing thrown
 * at all), and no answer from outside the root (no path outside it, no byte of the secret).
 * On a failure fast-check prints the seed and the shrunk input that reproduce it.
 */
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, ReadError, type Engine, type ReadRequest } from '../../src/index.js';
import { createTools, DIALECT_NAMES } from '../../src/tools.js';
import { removeTempDir, writeFile } from '../support/temp-dir.js';
import { expectNoLeak, hostileWorkspace, type HostileWorkspace } from './harness.js';

const RUNS = { fields: 400, paths: 400, perTool: 80 } as const;

let ws: HostileWorkspace;
let engine: Engine;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);

beforeAll(async () => {
  ws = hostileWorkspace();
  writeFile(ws.root, 'sub/inner.txt', 'inner\n'.repeat(50));
  writeFile(ws.root, '.env', 'TOKEN=1\n');
  writeFile(ws.root, 'data.bin', Buffer.from([1, 0, 2, 0, 3]));
  engine = await createEngine({ root: ws.root, threads: 1, timeoutMs: 5000 });
  process.on('unhandledRejection', onUnhandled);
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await engine.close();
  removeTempDir(ws.base);
});

/** Pieces hostile paths are made of. */
const segment = () =>
  fc.oneof(
    fc.constantFrom('..', '.', '', 'sub', 'ok.txt', 'inner.txt', 'secret.txt', 'root', 'root-evil', '.env', '.ENV', '%2e%2e', '..%2f', '\\', '~', '\0', ' ', 'file:', '\u2215', '\uff0e\uff0e', 'cafe\u0301'),
    fc.string({ maxLength: 12 }),
    fc.string({ unit: 'grapheme', maxLength: 6 }),
  );

const hostilePath = () =>
  fc.oneof(
    fc.array(segment(), { maxLength: 8 }).map((parts) => parts.join('/')),
    fc.array(segment(), { maxLength: 6 }).map((parts) => `/${parts.join('/')}`),
    fc.array(segment(), { maxLength: 6 }).map((parts) => `file://${ws.base}/${parts.join('/')}`),
    fc.array(segment(), { maxLength: 6 }).map((parts) => `${ws.root}/${parts.join('/')}`),
    fc.constantFrom(ws.secret, ws.siblingSecret, '../secret.txt', `${ws.root}/../secret.txt`),
  );

/** Any value, weighted toward what each field almost accepts. */
const fieldValue = () =>
  fc.oneof(
    fc.integer(),
    fc.double(),
    fc.constantFrom(0, -1, 1, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, Infinity, NaN, -0),
    fc.boolean(),
    fc.string({ maxLength: 20 }),
    fc.constant(null),
    fc.array(fc.string({ maxLength: 20 }), { maxLength: 3 }),
    fc.object({ maxDepth: 2 }),
  );

const requestFields = () =>
  fc.record(
    {
      path: fc.oneof({ weight: 4, arbitrary: hostilePath() }, { weight: 1, arbitrary: fieldValue() }),
      offset: fieldValue(),
      limit: fieldValue(),
      column: fieldValue(),
      session: fc.oneof(fc.string({ maxLength: 300 }), fieldValue()),
      fresh: fieldValue(),
      allowBinary: fieldValue(),
      media: fieldValue(),
      hash: fc.oneof(fc.constant('sha256'), fieldValue()),
      maxBytes: fieldValue(),
      maxTokens: fieldValue(),
      timeoutMs: fc.oneof(fc.integer({ min: 1, max: 5000 }), fieldValue()),
      pages: fc.oneof(fc.constantFrom('1', '1-5', '0', '5-1', ' 2 '), fieldValue()),
      accept: fieldValue(),
      within: fc.oneof(fc.constant([ws.base]), fc.constant([ws.root]), fieldValue()),
      unknownField: fieldValue(),
    },
    { requiredKeys: [] },
  );

/** Reads and checks the engine's properties: a ReadError or a result inside the root, never the secret. */
async function readChecked(request: unknown): Promise<void> {
  try {
    const result = await engine.read(request as ReadRequest);
    expectNoLeak(result);
    if ('path' in result && typeof result.path === 'string') {
      expect(path.relative(ws.root, result.path).startsWith('..'), `answered ${result.path}`).toBe(false);
    }
  } catch (error) {
    if (!(error instanceof ReadError)) throw error;
    expectNoLeak(error);
  }
}

describe('fuzz', () => {
  it(`request fields: ${RUNS.fields} random requests (every field, wrong types, edge numbers, hostile paths) -> a ReadError or a result inside the root`, async () => {
    await fc.assert(fc.asyncProperty(requestFields(), readChecked), { numRuns: RUNS.fields });
    expect(unhandled).toEqual([]);
  });

  it(`path strings: ${RUNS.paths} random paths of .., encodings, separators, Unicode, NUL, file:// -> a ReadError or a result inside the root`, async () => {
    await fc.assert(fc.asyncProperty(hostilePath(), (requested) => readChecked({ path: requested })), { numRuns: RUNS.paths });
    expect(unhandled).toEqual([]);
  });

  for (const dialect of DIALECT_NAMES) {
    it(`dialect ${dialect}: ${RUNS.perTool} random inputs a tool (its fields with any values, or anything at all) -> a result, never a throw, never the secret`, async () => {
      for (const tool of createTools(engine, dialect)) {
        const fields = Object.keys((tool.inputSchema.properties ?? {}));
        const input = fc.oneof(
          { weight: 3, arbitrary: fc.dictionary(fc.constantFrom(...fields, 'extra'), fc.oneof(hostilePath(), fieldValue(), fc.array(hostilePath(), { maxLength: 3 })), { maxKeys: 5 }) },
          { weight: 1, arbitrary: fc.anything() },
        );
        await fc.assert(
          fc.asyncProperty(input, async (value) => {
            const out = await tool.execute(value);
            expect(typeof out.isError).toBe('boolean');
            expectNoLeak(out);
          }),
          { numRuns: RUNS.perTool },
        );
      }
      expect(unhandled).toEqual([]);
    });
  }
});
