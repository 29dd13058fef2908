import picomatch from 'picomatch';

/**
 * Files that commonly hold credentials, matched case-insensitively against root-relative paths.
 */
export const SECRET_GLOBS: readonly string[] = Object.freeze([
  '**/.env',
  '**/.env.*',
  '**/*.pem',
  '**/*.key',
  '**/*.p12',
  '**/*.pfx',
  '**/id_rsa',
  '**/id_dsa',
  '**/id_ecdsa',
  '**/id_ed25519',
  '**/.npmrc',
  '**/.pypirc',
  '**/.netrc',
  '**/.git-credentials',
  '**/.git/config',
  '**/.aws/credentials',
  '**/.aws/config',
  '**/.config/gcloud/**',
  '**/.docker/config.json',
  '**/.kube/config',
  '**/.ssh/*',
]);

/** Templates and public halves that the secret rules would otherwise catch. */
export const SECRET_EXCEPTIONS: readonly string[] = Object.freeze([
  '**/.env.example',
  '**/.env.sample',
  '**/.env.template',
  '**/.env.dist',
  '**/*.pub',
  '**/.ssh/known_hosts',
  '**/.ssh/config',
]);

export interface DenyRuleOptions {
  readonly denySecrets: boolean;
  readonly deny: readonly string[];
}

/** Returns the glob that denies `relativePath`, or null when it may be read. */
export type DenyMatcher = (relativePath: string) => string | null;

export function createDenyMatcher(options: DenyRuleOptions): DenyMatcher {
  const matchOptions = { dot: true, nocase: true } as const;
  const compile = (globs: readonly string[]) => globs.map((glob) => ({ glob, re: picomatch.makeRe(glob, matchOptions) }));
  // Configured globs always deny; the secret rules' exceptions (templates, public keys) only
  // lift the secret rules themselves.
  const configured = compile(options.deny);
  const secrets = options.denySecrets ? compile(SECRET_GLOBS) : [];
  const anyConfigured = unionOf(configured);
  const anySecret = unionOf(secrets);
  const exception = unionOf(options.denySecrets ? compile(SECRET_EXCEPTIONS) : []);
  return (relativePath) => {
    if (anyConfigured?.test(relativePath) === true) return firstMatch(configured, relativePath);
    if (anySecret?.test(relativePath) !== true || exception?.test(relativePath) === true) return null;
    return firstMatch(secrets, relativePath);
  };
}

interface Rule {
  readonly glob: string;
  readonly re: RegExp;
}

function firstMatch(rules: readonly Rule[], relativePath: string): string | null {
  return rules.find((rule) => rule.re.test(relativePath))?.glob ?? null;
}

/** One alternation of every rule: a path that matches none (nearly all) costs one regex test. */
function unionOf(rules: readonly Rule[]): RegExp | null {
  return rules.length === 0 ? null : new RegExp(rules.map(({ re }) => `(?:${re.source})`).join('|'), 'i');
}
