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
  const globs = [...(options.denySecrets ? SECRET_GLOBS : []), ...options.deny];
  if (globs.length === 0) return () => null;
  const matchOptions = { dot: true, nocase: true } as const;
  // One alternation of every rule: a path that matches none (nearly all) costs one regex test.
  const any = unionOf(globs.map((glob) => picomatch.makeRe(glob, matchOptions)));
  const rules = globs.map((glob) => ({ glob, re: picomatch.makeRe(glob, matchOptions) }));
  const exception = options.denySecrets ? unionOf(SECRET_EXCEPTIONS.map((glob) => picomatch.makeRe(glob, matchOptions))) : null;
  return (relativePath) => {
    if (!any.test(relativePath)) return null;
    if (exception?.test(relativePath) === true) return null;
    return rules.find((rule) => rule.re.test(relativePath))?.glob ?? null;
  };
}

function unionOf(patterns: readonly RegExp[]): RegExp {
  return new RegExp(patterns.map((re) => `(?:${re.source})`).join('|'), 'i');
}
