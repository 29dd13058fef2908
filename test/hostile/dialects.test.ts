/**
 * Every dialect's every tool against invalid input: non-objects, missing required fields, wrong
 * types for each field, extra fields, negative, fractional, non-finite and huge numbers, and
 * hostile path values. Each is answered as a result, never a throw; schema failures as an
 * `isError` result in the dialect's own words; nothing from outside the root; the tool still
 * reads a file afterwards.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/index.js';
import { createTools, DIALECT_NAMES, type DialectName, type ToolDefinition, type ToolOutput } from '../../src/tools.js';
import { removeTempDir } from '../support/temp-dir.js';
import { expectNoLeak, hostileWorkspace, OK_LINE, shown, type HostileWorkspace } from './harness.js';

let ws: HostileWorkspace;
let engine: Engine;

beforeAll(async () => {
  ws = hostileWorkspace();
  engine = await createEngine({ root: ws.root, threads: 1 });
});

afterAll(async () => {
  await engine.close();
  removeTempDir(ws.base);
});

function textOf(out: ToolOutput): string {
  return out.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}

/** How each dialect words a schema failure, as its original tool does. */
const SCHEMA_WORDS: Record<DialectName, (out: ToolOutput, tool: string) => void> = {
  readpool: (out) => expect(textOf(out)).toMatch(/^Invalid read request: .+ Fix these fields and call read again\.$/s),
  'gemini-cli': (out) => expect(textOf(out)).toMatch(/^Error: Invalid parameters provided\. Reason: params\b/),
  comma: (out) => {
    const parsed = JSON.parse(textOf(out)) as { ok: boolean; error: { kind: string; message: string } };
    expect(parsed.ok).toBe(false);
    expect(parsed.error.kind).toBe('invalid_input');
    expect(parsed.error.message).toMatch(/^Invalid read_file input: /);
  },
  xml: (out) => expect(textOf(out)).toMatch(/^The read tool was called with invalid arguments: .+\nPlease rewrite the input so it satisfies the expected schema\.$/s),
  'mcp-filesystem': (out, tool) => expect(textOf(out)).toMatch(new RegExp(`^MCP error -32602: Input validation error: Invalid arguments for tool ${tool}: `)),
  'claude-code': (out) => {
    expect(textOf(out)).toMatch(/^InputValidationError: Read failed due to the following issues?:\n/);
    // Never "provided as `object`" for null, nor "as `number`" for a number's wrong kind of value.
    expect(textOf(out)).not.toMatch(/expected as `(\w+)` but provided as `\1`/);
  },
  pilotdeck: (out) => {
    expect(out.data).toMatchObject({ code: 'invalid_schema' });
    expect(textOf(out)).toMatch(/^[\w.]+: /);
  },
};

/** Dialects whose original tool ignores unknown keys (the rest refuse them). */
const LENIENT: readonly DialectName[] = ['gemini-cli', 'mcp-filesystem'];

interface Field {
  readonly name: string;
  readonly type: string;
}

function fieldsOf(tool: ToolDefinition): { fields: Field[]; required: string[] } {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: string }>;
  return {
    fields: Object.entries(properties).map(([name, schema]) => ({ name, type: schema.type ?? 'unknown' })),
    required: (tool.inputSchema.required ?? []) as string[],
  };
}

/** A valid input: the required path field set to ok.txt (by absolute path, but comma's are workspace-relative). */
function validInput(tool: ToolDefinition, dialect: DialectName): Record<string, unknown> {
  const { required } = fieldsOf(tool);
  const ok = dialect === 'comma' ? 'ok.txt' : path.join(ws.root, 'ok.txt');
  return Object.fromEntries(required.map((name) => [name, name === 'paths' ? [ok] : ok]));
}

const NOT_OBJECTS: readonly unknown[] = [null, undefined, 42, 'ok.txt', true, [], [{}], () => 'ok.txt', Symbol('input')];
const WRONG_FOR: Record<string, readonly unknown[]> = {
  string: [42, null, true, {}, ['ok.txt']],
  number: ['5', null, true, {}, [5]],
  integer: ['5', null, true, {}, [5]],
  boolean: ['true', 1, null, {}],
  array: ['ok.txt', 42, null, [42], [null]],
};
/**
 * What readpool's own tool takes in another type, as models send it (see `readpool-tool.ts`): a
 * number or a flag written as a string, and its one string field, `pages`, given a page as a
 * number. Every other dialect refuses them, as its original does.
 */
const TAKEN: Readonly<Record<string, unknown>> = { number: '5', integer: '5', boolean: 'true', pages: 42 };
const taken = (dialect: DialectName, field: { name: string; type: string }, wrong: unknown) =>
  dialect === 'readpool' && (TAKEN[field.type] === wrong || TAKEN[field.name] === wrong);
const EDGE_NUMBERS: readonly number[] = [-1, 0, -1e20, 1.5, 1e300, Number.MAX_SAFE_INTEGER + 2, Infinity, -Infinity, NaN];

/** Each answer: a result, never a throw; text parts; nothing from outside the root. */
async function answerTo(tool: ToolDefinition, input: unknown): Promise<ToolOutput> {
  const out = await tool.execute(input);
  expect(typeof out.isError).toBe('boolean');
  expect(out.content.length).toBeGreaterThan(0);
  expectNoLeak(out);
  const text = textOf(out);
  expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
  expect(text).not.toContain('[object Object]');
  return out;
}

async function stillReads(tool: ToolDefinition, dialect: DialectName): Promise<void> {
  const out = await tool.execute(validInput(tool, dialect));
  expect(out.isError, textOf(out)).toBe(false);
  expect(JSON.stringify(out)).toContain(tool.name === 'read_media_file' ? 'b2ssIHN0aWxs' : OK_LINE); // base64 of "ok, still"
}

for (const dialect of DIALECT_NAMES) {
  describe(`dialect ${dialect}`, () => {
    // Tools are made per test: the engine exists only once beforeAll has run.
    const tools = () => createTools(engine, dialect);
    const toolNames = dialect === 'mcp-filesystem' ? ['read_text_file', 'read_media_file', 'read_multiple_files'] : [null];
    for (const only of toolNames) {
      const pick = () => {
        const all = tools();
        const tool = only === null ? all[0] : all.find((candidate) => candidate.name === only);
        if (tool === undefined) throw new Error(`no tool ${String(only)} in ${dialect}`);
        return tool;
      };
      const label = only ?? 'its tool';
      const schemaFailure = async (input: unknown) => {
        const tool = pick();
        const out = await answerTo(tool, input);
        expect(out.isError, `${shown(input)}: ${textOf(out)}`).toBe(true);
        SCHEMA_WORDS[dialect](out, tool.name);
      };

      it(`${label}: non-object inputs ${NOT_OBJECTS.map((value) => (typeof value === 'function' ? 'a function' : typeof value === 'symbol' ? 'a symbol' : shown(value))).join(', ')} -> isError in its words`, async () => {
        for (const input of NOT_OBJECTS) await schemaFailure(input);
        await stillReads(pick(), dialect);
      });

      it(`${label}: each required field missing, and an empty object -> isError in its words`, async () => {
        const tool = pick();
        await schemaFailure({});
        for (const name of fieldsOf(tool).required) {
          const input = validInput(tool, dialect);
          delete input[name];
          await schemaFailure({ ...input, unrelated: undefined });
        }
        await stillReads(tool, dialect);
      });

      it(`${label}: wrong types for every field (strings, numbers, null, booleans, objects, arrays) -> isError in its words`, async () => {
        const tool = pick();
        for (const field of fieldsOf(tool).fields) {
          for (const wrong of WRONG_FOR[field.type] ?? []) {
            const input = { ...validInput(tool, dialect), [field.name]: wrong };
            if (taken(dialect, field, wrong)) expect((await answerTo(tool, input)).isError, `${shown(input)}`).toBe(false);
            else await schemaFailure(input);
          }
        }
        await stillReads(tool, dialect);
      });

      it(`${label}: extra fields (evil, __proto__, constructor) -> ${LENIENT.includes(dialect) ? 'ignored, the file read' : 'isError in its words'}`, async () => {
        const tool = pick();
        const extras = [{ evil: 1 }, JSON.parse('{"__proto__": {"allowBinary": true}}') as object, { constructor: 'x' }];
        for (const extra of extras) {
          const input = { ...validInput(tool, dialect), ...extra };
          if (LENIENT.includes(dialect)) expect((await answerTo(tool, input)).isError).toBe(false);
          else await schemaFailure(input);
        }
        await stillReads(tool, dialect);
      });

      it(`${label}: every number field at ${EDGE_NUMBERS.map(String).join(', ')} -> an answer (a window or an error in its words), never a throw`, async () => {
        const tool = pick();
        for (const field of fieldsOf(tool).fields.filter((f) => f.type === 'number' || f.type === 'integer')) {
          for (const value of EDGE_NUMBERS) {
            const out = await answerTo(tool, { ...validInput(tool, dialect), [field.name]: value });
            if (out.isError && !Number.isFinite(value)) SCHEMA_WORDS[dialect](out, tool.name);
          }
        }
        await stillReads(tool, dialect);
      });

      it(`${label}: hostile path values (../secret.txt, the secret by absolute path, the prefix sibling, "", NUL, 5000 characters, file:// of the secret) -> isError, nothing leaked`, async () => {
        const tool = pick();
        const pathField = fieldsOf(tool).required[0] ?? 'path';
        const values = ['../secret.txt', ws.secret, ws.siblingSecret, '', 'ok.txt\0', 'a'.repeat(5000), `file://${ws.secret}`, `${ws.root}/../secret.txt`];
        for (const value of values) {
          const out = await answerTo(tool, { [pathField]: pathField === 'paths' ? [value] : value });
          // read_multiple_files answers per file: the call succeeds, the entry is an error.
          if (pathField === 'paths') expect(textOf(out)).toMatch(/Error|error/);
          else expect(out.isError, `${shown(value)}: ${textOf(out)}`).toBe(true);
        }
        await stillReads(tool, dialect);
      });
    }
  });
}
