/**
 * The built package as a user loads it: `readpool` and `readpool/tools` by name, from a module
 * inside the package. The build bundles its entries (rolldown.config.ts); they must share one
 * copy of each class, or a tool would not recognise the engine's `ReadError` and would throw
 * where it should answer a model in the dialect's words.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeTempDir, writeFile } from './support/temp-dir.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
/** Git-ignored: the module runs from inside the package so its own name resolves. */
const SCRATCH = path.join(REPO, '.scratch');

const PROGRAM = `
import { createEngine, ReadError } from 'readpool';
import { createTools } from 'readpool/tools';

const engine = await createEngine({ root: process.argv[2] });
const [read] = createTools(engine, 'readpool');
const found = await read.execute({ path: 'here.txt' });
const missing = await read.execute({ path: 'missing.txt' });
const rejection = await engine.read({ path: 'missing.txt' }).catch((error) => error);
await engine.close();
console.log(JSON.stringify({
  found: { isError: found.isError, text: found.content[0].text },
  missing: { isError: missing.isError, text: missing.content[0].text },
  rejection: { isReadError: rejection instanceof ReadError, code: rejection.code },
}));
`;

/** A host that reads text and nothing else. */
const TEXT_READ = `
import { createEngine } from 'readpool';

const engine = await createEngine({ root: process.argv[2] });
const result = await engine.read({ path: 'here.txt' });
await engine.close();
console.log(result.content);
`;

describe('the built package', () => {
  let base = '';
  let root = '';
  let program = '';

  beforeAll(() => {
    ({ base, root } = makeWorkspace());
    writeFile(root, 'here.txt', 'one\ntwo\n');
    fs.mkdirSync(SCRATCH, { recursive: true });
    program = path.join(SCRATCH, `package-entries-${process.pid}.mjs`);
    fs.writeFileSync(program, PROGRAM);
  });

  afterAll(() => {
    removeTempDir(base);
    fs.rmSync(program, { force: true });
  });

  it("answers through readpool/tools with the engine's own errors, so a missing file is a model's answer, not a throw", () => {
    const run = spawnSync(process.execPath, [program, root], { cwd: REPO, encoding: 'utf8', timeout: 30_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const outcome = JSON.parse(run.stdout) as {
      found: { isError: boolean; text: string };
      missing: { isError: boolean; text: string };
      rejection: { isReadError: boolean; code: string };
    };
    expect(outcome.found).toEqual({ isError: false, text: '1\tone\n2\ttwo' });
    expect(outcome.missing.isError).toBe(true);
    expect(outcome.missing.text).toContain('missing.txt');
    expect(outcome.rejection).toEqual({ isReadError: true, code: 'not_found' });
  });

  it('lets a program that awaited ready() and never closed its engine exit on its own', () => {
    const program = path.join(SCRATCH, `ready-${process.pid}.mjs`);
    fs.writeFileSync(program, `import { createEngine } from 'readpool';\nconst engine = await createEngine({ root: process.argv[2] });\nawait engine.ready();\nconsole.log(engine.stats().text.started);\n`);
    const run = spawnSync(process.execPath, [program, root], { cwd: REPO, encoding: 'utf8', timeout: 20_000 });
    fs.rmSync(program, { force: true });
    expect(run.signal).toBeNull();
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('true\n');
    expect(run.status).toBe(0);
  });

  it('loads no package a text read does not need: Piscina, sharp and mupdf wait for a media read, zod and the MCP SDK for a tool', () => {
    const trace = path.join(SCRATCH, `loads-${process.pid}.txt`);
    const reader = path.join(SCRATCH, `text-read-${process.pid}.mjs`);
    fs.rmSync(trace, { force: true });
    fs.writeFileSync(reader, TEXT_READ);
    const preload = pathToFileURL(path.join(REPO, 'test/support/trace-loads.mjs')).href;
    const run = spawnSync(process.execPath, ['--import', preload, reader, root], {
      cwd: REPO,
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, READPOOL_TRACE_LOADS: trace },
    });
    fs.rmSync(reader, { force: true });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('1\tone\n2\ttwo\n');
    const loaded = fs.readFileSync(trace, 'utf8');
    fs.rmSync(trace, { force: true });
    const packages = new Set([...loaded.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)\//g)].map((match) => match[1]));
    // The trace sees what it should: the engine's own chunks and the one package a read needs.
    expect(loaded).toContain('/dist/src/');
    expect(packages).toContain('lru-cache');
    for (const name of ['piscina', 'sharp', 'mupdf', 'zod', '@modelcontextprotocol/sdk']) expect(packages).not.toContain(name);
  });
});

