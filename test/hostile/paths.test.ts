/**
 * Hostile paths, one case per input: `..` in every position, encoded forms (taken literally),
 * absolute paths outside, the root's prefix sibling, empty and whitespace-only paths, over-long
 * paths and segments, NUL bytes, trailing and repeated separators, `.` segments, Unicode
 * normalisation variants, case and look-alike variants of secret names, `file://` URLs, and
 * malformed request fields. Each asserts the exact code or result, the deadline, no leak, and
 * that the engine still serves.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createEngine, type Engine, type ReadRequest } from '../../src/index.js';
import { removeTempDir, writeFile } from '../support/temp-dir.js';
import { check, hostileWorkspace, OK_LINE, shown, textIs, type Expected, type HostileWorkspace } from './harness.js';

let ws: HostileWorkspace;
let engine: Engine;

beforeAll(async () => {
  ws = hostileWorkspace();
  writeFile(ws.root, 'sub/inner.txt', 'inner\n');
  writeFile(ws.root, 'caf\u00e9.txt', 'nfc\n');
  writeFile(ws.root, '.env', 'TOKEN=inside-but-denied\n');
  writeFile(ws.root, '.env.example', 'TOKEN=\n');
  writeFile(ws.root, 'keys/id_rsa', 'PRIVATE\n');
  writeFile(ws.root, '%2e%2e/secret.txt', 'literal percent directory\n');
  fs.mkdirSync(path.join(ws.root, 'empty-dir'));
  engine = await createEngine({ root: ws.root, threads: 1 });
});

afterAll(async () => {
  await engine.close();
  removeTempDir(ws.base);
});

const OK = textIs(`1\t${OK_LINE}`);
const INNER = textIs('1\tinner');

/** Rows: a name, the request's path (built once the workspace exists), what it must answer. */
type Row = readonly [name: string, path: () => string, expected: Expected];

const dotDot: Row[] = [
  ['.. alone', () => '..', 'outside_root'],
  ['../secret.txt', () => '../secret.txt', 'outside_root'],
  ['../../../../../../etc/passwd', () => '../../../../../../etc/passwd', 'outside_root'],
  ['./../secret.txt', () => './../secret.txt', 'outside_root'],
  ['sub/../../secret.txt', () => 'sub/../../secret.txt', 'outside_root'],
  ['sub/../sub/../../secret.txt', () => 'sub/../sub/../../secret.txt', 'outside_root'],
  ['ok.txt/../../secret.txt (through a file)', () => 'ok.txt/../../secret.txt', 'outside_root'],
  ['missing/../../secret.txt', () => 'missing/../../secret.txt', 'outside_root'],
  ['sub/.. (the root itself)', () => 'sub/..', 'is_directory'],
  ['sub/../ok.txt (stays inside)', () => 'sub/../ok.txt', OK],
  ['../root/ok.txt (leaves and comes back)', () => '../root/ok.txt', OK],
  ['ROOT/../secret.txt absolute', () => `${ws.root}/../secret.txt`, 'outside_root'],
  ['ROOT/sub/../../root/sub/inner.txt absolute', () => `${ws.root}/sub/../../root/sub/inner.txt`, INNER],
  ['.. trailing: sub/inner.txt/..', () => 'sub/inner.txt/..', 'is_directory'],
];

const encoded: Row[] = [
  ['%2e%2e/secret.txt (a literal directory name)', () => '%2e%2e/secret.txt', textIs('1\tliteral percent directory')],
  ['%2e%2e%2fsecret.txt', () => '%2e%2e%2fsecret.txt', 'not_found'],
  ['..%2fsecret.txt', () => '..%2fsecret.txt', 'not_found'],
  ['..%252fsecret.txt (double-encoded)', () => '..%252fsecret.txt', 'not_found'],
  ['..\\secret.txt (a backslash is a name character)', () => '..\\secret.txt', 'not_found'],
  ['..%5csecret.txt', () => '..%5csecret.txt', 'not_found'],
  ['....//secret.txt', () => '....//secret.txt', 'not_found'],
  ['.../secret.txt', () => '.../secret.txt', 'not_found'],
  ['%00 outside a URL is literal: ok.txt%00', () => 'ok.txt%00', 'not_found'],
  ['~/secret.txt (no tilde expansion)', () => '~/secret.txt', 'not_found'],
  ['$HOME/secret.txt (no variable expansion)', () => '$HOME/secret.txt', 'not_found'],
  ['..\u2215secret.txt (division slash)', () => '..\u2215secret.txt', 'not_found'],
  ['\uff0e\uff0e/secret.txt (fullwidth dots)', () => '\uff0e\uff0e/secret.txt', 'not_found'],
];

const absolute: Row[] = [
  ['the planted secret by absolute path', () => ws.secret, 'outside_root'],
  ['the prefix sibling ROOT-evil/secret.txt, absolute', () => ws.siblingSecret, 'outside_root'],
  ['the prefix sibling as ../root-evil/secret.txt', () => '../root-evil/secret.txt', 'outside_root'],
  ['/etc/passwd', () => '/etc/passwd', 'outside_root'],
  ['/proc/self/environ', () => '/proc/self/environ', 'outside_root'],
  ['/ (the file-system root)', () => '/', 'outside_root'],
  ['//etc/passwd (doubled leading slash)', () => '//etc/passwd', 'outside_root'],
  ['the root itself, absolute', () => ws.root, 'is_directory'],
  ['ROOT/ok.txt absolute', () => path.join(ws.root, 'ok.txt'), OK],
];

const shape: Row[] = [
  ['empty string', () => '', 'invalid_request'],
  ['one space', () => ' ', 'invalid_request'],
  ['tabs and newlines only', () => '\t\n\r ', 'invalid_request'],
  ['4097 characters (over maxPathLength)', () => 'a'.repeat(4097), 'invalid_request'],
  ['a/ repeated 3000 times', () => 'a/'.repeat(3000), 'invalid_request'],
  ['one 300-byte segment (over NAME_MAX)', () => 'n'.repeat(300), 'invalid_request'],
  ['NUL at the end: ok.txt\\0', () => 'ok.txt\0', 'invalid_request'],
  ['NUL alone', () => '\0', 'invalid_request'],
  ['NUL before a suffix: ../secret.txt\\0.png', () => '../secret.txt\0.png', 'invalid_request'],
  // Resolved lexically, as `path.resolve` does: the trailing slash is dropped, the file read.
  ['trailing slash on a file: ok.txt/', () => 'ok.txt/', OK],
  ['trailing slashes on a directory: sub//', () => 'sub//', 'is_directory'],
  ['repeated separators: sub///inner.txt', () => 'sub///inner.txt', INNER],
  ['dot segments: ././sub/./inner.txt', () => '././sub/./inner.txt', INNER],
  ['a lone dot', () => '.', 'is_directory'],
  ['an empty directory', () => 'empty-dir', 'is_directory'],
  ['a leading space: " ok.txt"', () => ' ok.txt', 'not_found'],
  ['a trailing space: "ok.txt "', () => 'ok.txt ', 'not_found'],
];

const names: Row[] = [
  ['NFC name as written: café.txt', () => 'caf\u00e9.txt', textIs('1\tnfc')],
  ['NFD variant of café.txt (bytes differ on Linux)', () => 'cafe\u0301.txt', 'not_found'],
  ['.env', () => '.env', 'denied'],
  ['.ENV (case variant)', () => '.ENV', 'denied'],
  ['.Env (case variant)', () => '.Env', 'denied'],
  ['sub/../.env', () => 'sub/../.env', 'denied'],
  ['./.env', () => './.env', 'denied'],
  ['ROOT/.env absolute', () => path.join(ws.root, '.env'), 'denied'],
  ['KEYS/ID_RSA (case variant)', () => 'KEYS/ID_RSA', 'denied'],
  ['.env.example (the template is allowed)', () => '.env.example', textIs('1\tTOKEN=')],
  ['.\u0435nv (Cyrillic e look-alike)', () => '.\u0435nv', 'not_found'],
  ['".env " (trailing space)', () => '.env ', 'not_found'],
];

const urls: Row[] = [
  ['file:// URL of ok.txt', () => pathToFileURL(path.join(ws.root, 'ok.txt')).href, OK],
  ['file:// URL of the secret', () => pathToFileURL(ws.secret).href, 'outside_root'],
  ['file:// URL with %2e%2e climbing out', () => `${pathToFileURL(ws.root).href}/%2e%2e/secret.txt`, 'outside_root'],
  ['file:// URL with %2F (an encoded separator)', () => `${pathToFileURL(ws.root).href}/..%2Fsecret.txt`, 'invalid_request'],
  ['file:// URL with %00', () => `${pathToFileURL(path.join(ws.root, 'ok.txt')).href}%00`, 'invalid_request'],
  ['file://evil.example/etc/passwd (a remote host)', () => 'file://evil.example/etc/passwd', 'invalid_request'],
  ['file:///etc/passwd', () => 'file:///etc/passwd', 'outside_root'],
  ['file:../secret.txt (not a URL: a relative name)', () => 'file:../secret.txt', 'not_found'],
  ['FILE:// in upper case (a relative name)', () => `FILE://${ws.secret}`, 'not_found'],
];

const families: Record<string, Row[]> = { '.. segments': dotDot, 'encoded forms': encoded, 'absolute paths': absolute, 'path shape': shape, 'names and secrets': names, 'file:// URLs': urls };

for (const [family, rows] of Object.entries(families)) {
  describe(`paths: ${family}`, () => {
    for (const [name, pathOf, expected] of rows) {
      it(`${name} -> ${typeof expected === 'string' ? expected : 'safe result'}`, async () => {
        await check(engine, { path: pathOf() }, expected);
      });
    }
  });
}

/** Requests malformed around the path: each is `invalid_request`, answered before any I/O. */
const fields: readonly [string, unknown][] = [
  ['path as a number', { path: 42 }],
  ['path as null', { path: null }],
  ['path as an array', { path: ['ok.txt'] }],
  ['path as an object with toString', { path: { toString: () => '../secret.txt' } }],
  ['path missing', {}],
  ['an unknown field', { path: 'ok.txt', follow: true }],
  ['__proto__ field', JSON.parse('{"path":"ok.txt","__proto__":{"allowBinary":true}}') as unknown],
  ['within holding an empty string', { path: 'ok.txt', within: [''] }],
];

describe('paths: malformed request fields', () => {
  for (const [name, request] of fields) {
    it(`${name}: ${shown(request)} -> invalid_request`, async () => {
      await check(engine, request as ReadRequest, 'invalid_request');
    });
  }

  it('within naming a directory outside the root cannot widen it: ../secret.txt within [BASE] -> outside_root', async () => {
    await check(engine, { path: '../secret.txt', within: [ws.base] }, 'outside_root');
  });
});
