import picomatch from 'picomatch';
import { denyMatcherOf, orderDenyRules, unionOf, type CompiledDenyRules, type DenyMatcher, type PatternData } from './deny-matcher.js';
import { SECRET_PATTERNS } from './secret-patterns.js';

export type { CompiledDenyRules, DenyMatcher } from './deny-matcher.js';

/**
 * Files that commonly hold credentials, matched case-insensitively against root-relative
 * paths. Each rule may carry the exceptions that lift it (templates, public halves); an
 * exception lifts only its own rule. The engine uses them compiled, from `SECRET_PATTERNS`
 * (secret-patterns.ts), so that picomatch loads only for configured globs; a test checks that
 * the two agree, and prints the new file when a rule here changes.
 */
export const SECRET_RULES: readonly { readonly glob: string; readonly except: readonly string[] }[] = Object.freeze([
  { glob: '**/.env', except: [] },
  { glob: '**/.env.*', except: ['**/.env.example', '**/.env.sample', '**/.env.template', '**/.env.dist'] },
  { glob: '**/*.pem', except: [] },
  { glob: '**/*.key', except: [] },
  { glob: '**/*.p12', except: [] },
  { glob: '**/*.pfx', except: [] },
  { glob: '**/id_rsa', except: [] },
  { glob: '**/id_dsa', except: [] },
  { glob: '**/id_ecdsa', except: [] },
  { glob: '**/id_ed25519', except: [] },
  { glob: '**/.npmrc', except: [] },
  { glob: '**/.pypirc', except: [] },
  { glob: '**/.netrc', except: [] },
  { glob: '**/.git-credentials', except: [] },
  { glob: '**/.git/config', except: [] },
  { glob: '**/.aws/credentials', except: [] },
  { glob: '**/.aws/config', except: [] },
  { glob: '**/.config/gcloud/**', except: [] },
  { glob: '**/.docker/config.json', except: [] },
  { glob: '**/.kube/config', except: [] },
  { glob: '**/.ssh/*', except: ['**/.ssh/*.pub', '**/.ssh/known_hosts', '**/.ssh/config'] },
]);

export interface DenyRuleOptions {
  readonly denySecrets: boolean;
  readonly deny: readonly string[];
}

/** A glob as the deny rules match it: against root-relative paths, dot files included, case ignored. */
export function compileGlob(glob: string): PatternData {
  const re = picomatch.makeRe(glob, { dot: true, nocase: true });
  return { source: re.source, flags: re.flags };
}

/** Configured deny globs, compiled (they have no exceptions). */
export function compileGlobRules(globs: readonly string[]): CompiledDenyRules {
  return globs.map((glob) => ({ glob, pattern: compileGlob(glob), except: null }));
}

/** `SECRET_RULES` compiled: what `SECRET_PATTERNS` holds, made again (the tests compare the two). */
export function compileSecretRules(): CompiledDenyRules {
  return SECRET_RULES.map(({ glob, except }) => ({ glob, pattern: compileGlob(glob), except: unionOf(except.map(compileGlob)) }));
}

/** The rules that apply under `options`: configured globs first, then the secrets'. */
export function compileDenyRules(options: DenyRuleOptions): CompiledDenyRules {
  return orderDenyRules(compileGlobRules(options.deny), options.denySecrets ? SECRET_PATTERNS : null);
}

/** A matcher straight from the options. */
export function createDenyMatcher(options: DenyRuleOptions): DenyMatcher {
  return denyMatcherOf(compileDenyRules(options));
}
