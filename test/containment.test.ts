/**
 * The pure containment checks the worker runs on every canonical path it opens, against the
 * `path.relative` rule they stand in for; and the deny matcher's verdicts, remembered, and as a
 * worker builds them from the rules the host compiled.
 */
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findRoot, findRootOfCanonical, relativeTo, relativeToCanonical } from '../src/core/containment.js';
import { denyMatcherOf, literalOfGlob } from '../src/core/deny-matcher.js';
import { compileDenyRules, compileGlob, compileSecretRules, createDenyMatcher, SECRET_RULES } from '../src/core/deny-rules.js';
import { SECRET_PATTERNS } from '../src/core/secret-patterns.js';

/** Canonical absolute paths built from a few segments, so roots, prefixes and siblings collide often. */
const segment = fc.constantFrom('srv', 'ws', 'ws-evil', 'w', 'a', 'a.b', '.env', 'x y', 'é');
const canonical = fc.array(segment, { minLength: 0, maxLength: 5 }).map((parts) => `/${parts.join('/')}`);

describe('containment of canonical paths', () => {
  it('gives the same root and the same relative path as path.relative for every canonical path', () => {
    fc.assert(
      fc.property(fc.array(canonical, { minLength: 1, maxLength: 3 }), canonical, (roots, candidate) => {
        const expected = findRoot(roots, candidate);
        expect(findRootOfCanonical(roots, candidate)).toBe(expected);
        if (expected !== null) expect(relativeToCanonical(expected, candidate)).toBe(relativeTo(expected, candidate));
      }),
      { numRuns: 2000, seed: 20261124 },
    );
  });

  it('does not take a sibling whose name starts with the root name for the root', () => {
    expect(findRootOfCanonical(['/srv/ws'], '/srv/ws-evil/secret')).toBeNull();
    expect(findRootOfCanonical(['/srv/ws'], '/srv/ws/inside')).toBe('/srv/ws');
    expect(relativeToCanonical('/', '/etc/hosts')).toBe(path.join('etc', 'hosts'));
  });
});

describe('deny verdicts', () => {
  it('answers a path the same however often it is asked, also after its remembered verdict was dropped', () => {
    const deny = createDenyMatcher({ denySecrets: true, deny: ['**/*.secret'] });
    const asked = ['.env', 'app/.env.local', 'app/.env.example', 'keys/id_rsa', 'notes.secret', 'src/app.ts', 'README.md'];
    const first = asked.map(deny);
    expect(first).toEqual(['**/.env', '**/.env.*', null, '**/id_rsa', '**/*.secret', null, null]);
    // More distinct paths than the matcher keeps: it starts over, and must still answer the same.
    for (let i = 0; i < 20_000; i++) deny(`generated/file-${i}.txt`);
    expect(asked.map(deny)).toEqual(first);
    expect(asked.map(deny)).toEqual(first);
  });

  it('holds in SECRET_PATTERNS exactly what picomatch makes of SECRET_RULES', () => {
    const compiled = compileSecretRules();
    const q = (value: unknown) => JSON.stringify(value);
    const pattern = (p: { source: string; flags: string } | null) => (p === null ? 'null' : `{ source: ${q(p.source)}, flags: ${q(p.flags)} }`);
    const lines = compiled.map((rule) => `  { glob: ${q(rule.glob)}, pattern: ${pattern(rule.pattern)}, except: ${pattern(rule.except)} },`);
    expect(SECRET_PATTERNS, `src/core/secret-patterns.ts is out of date with SECRET_RULES; its array should read:\n${lines.join('\n')}`).toEqual(compiled);
  });

  it("gives a worker's matcher, built from the host's compiled rules after a structured clone, the host's verdicts", () => {
    const options = { denySecrets: true, deny: ['**/*.secret', 'build/**'] };
    const host = createDenyMatcher(options);
    // What a worker receives in its workerData: the rules as plain data, cloned.
    const worker = denyMatcherOf(structuredClone(compileDenyRules(options)));
    const names = fc.constantFrom('.env', '.ENV.local', '.env.example', 'id_rsa', 'id_rsa.pub', 'a.secret', 'A.SECRET', 'x.key', 'config', 'credentials', 'known_hosts', 'app.ts');
    const dirs = fc.constantFrom('', 'build/', 'src/', '.ssh/', '.aws/', '.git/', 'deep/.ssh/', 'Build/', '.config/gcloud/');
    fc.assert(
      fc.property(dirs, dirs, names, (outer, inner, name) => {
        const relativePath = `${outer}${inner}${name}`;
        expect(worker(relativePath)).toBe(host(relativePath));
      }),
      { numRuns: 1000, seed: 20261124 },
    );
    expect(['build/out.js', 'src/.ssh/token', 'src/.ssh/id_ed25519.pub', 'README.md'].map(worker)).toEqual(['build/**', '**/.ssh/*', null, null]);
  });

  it("takes as a glob's literal run only text that every path it matches holds", () => {
    expect(SECRET_RULES.map(({ glob }) => literalOfGlob(glob))).toEqual([
      '.env', '.env.', '.pem', '.key', '.p12', '.pfx', 'id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', '.npmrc', '.pypirc', '.netrc',
      '.git-credentials', '.git/config', '.aws/credentials', '.aws/config', '.config/gcloud', '.docker/config.json', '.kube/config', '.ssh',
    ]);
    // Globs whose literal text need not all appear in a match, or that have too little of it.
    for (const glob of ['{src,lib}/x.ts', 'a/[bc]d', '!keep', '+(a|b)', 'x\\*y', '"quoted"', './build/**', 'a/../b', '**/*', 'a/**/b', 'caf\u00e9', 'notes$$', '^x', '***secret.txt']) {
      expect(literalOfGlob(glob), glob).toBeNull();
    }
    // Every path picomatch's pattern matches holds the run, in some case.
    const globs = fc.constantFrom('**/.env', '**/*.pem', '**/.ssh/*', 'build/**', '**/.git/config', '*.secret', '**/dist-?/out*.js', 'src/**/*.gen.ts');
    const part = fc.constantFrom('.env', '.ENV', 'a.pem', 'x.PEM', '.ssh', '.SSH', 'id', 'build', 'Build', '.git', 'config', 'x.secret', 'dist-1', 'out.js', 'src', 'g.gen.ts', 'a');
    fc.assert(
      fc.property(globs, fc.array(part, { minLength: 1, maxLength: 4 }), (glob, parts) => {
        const relativePath = parts.join('/');
        const { source, flags } = compileGlob(glob);
        const literal = literalOfGlob(glob);
        expect(literal).not.toBeNull();
        if (new RegExp(source, flags).test(relativePath)) expect(relativePath.toLowerCase()).toContain(literal?.toLowerCase());
      }),
      { numRuns: 3000, seed: 20261127 },
    );
  });

  it("holds a random glob's literal run in every path picomatch matches it with, whatever the glob's characters", () => {
    // Globs of any printable ASCII, and paths made from each: its wildcards filled in, then a
    // character or two dropped, so that near misses are tried as well as matches.
    const printable = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i));
    const token = fc.oneof(fc.constantFrom('*', '**', '***', '?', '/', '.', 'ab', '$$', '^'), fc.constantFrom(...printable));
    const fill = fc.constantFrom('', 'x', '/', 'x/', '.', 'X', 'ab/c');
    fc.assert(
      fc.property(fc.array(token, { minLength: 1, maxLength: 7 }), fc.array(fill, { minLength: 4, maxLength: 4 }), fc.array(fc.nat(), { minLength: 4, maxLength: 4 }), (tokens, fills, cuts) => {
        const glob = tokens.join('');
        const literal = literalOfGlob(glob);
        if (literal === null) return;
        const { source, flags } = compileGlob(glob);
        const pattern = new RegExp(source, flags);
        let filled = '';
        let wildcard = 0;
        for (const part of glob.split(/([*?]+)/)) filled += /^[*?]+$/.test(part) ? fills[wildcard++ % fills.length] : part;
        const candidates = [filled, ...cuts.flatMap((cut) => [1, 2].map((n) => filled.slice(0, cut % (filled.length + 1)) + filled.slice((cut % (filled.length + 1)) + n)))];
        for (const candidate of candidates) {
          if (pattern.test(candidate)) expect(candidate.toLowerCase(), `${glob} matches ${candidate}`).toContain(literal.toLowerCase());
        }
      }),
      { numRuns: 20_000, seed: 20261127 },
    );
  });

  it('gives the same verdicts with its literal screen as the rules alone, with and without a glob that has no screen', () => {
    const names = fc.constantFrom('.env', '.Env.local', '.env.example', 'ID_RSA', 'id_rsa.pub', 'a.secret', 'x.KEY', 'config', 'config.json', 'credentials', 'app.ts', 'out.js');
    const dirs = fc.constantFrom('', 'build/', 'src/', '.ssh/', '.SSH/', '.aws/', '.git/', '.docker/', '.kube/', '.config/gcloud/', 'a/.config/GCloud/x/');
    for (const deny of [['**/*.secret', 'build/**'], ['**/*.secret', '{build,out}/**']]) {
      const compiled = compileDenyRules({ denySecrets: true, deny });
      const screened = denyMatcherOf(compiled);
      const rules = compiled.map(({ glob, pattern, except }) => ({ glob, re: new RegExp(pattern.source, pattern.flags), except: except === null ? null : new RegExp(except.source, except.flags) }));
      const plain = (relativePath: string) => rules.find(({ re, except }) => re.test(relativePath) && except?.test(relativePath) !== true)?.glob ?? null;
      fc.assert(
        fc.property(dirs, dirs, names, (outer, inner, name) => {
          const relativePath = `${outer}${inner}${name}`;
          expect(screened(relativePath)).toBe(plain(relativePath));
        }),
        { numRuns: 2000, seed: 20261127 },
      );
    }
  });
});
