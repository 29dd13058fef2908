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
  const rules = [...(options.denySecrets ? SECRET_GLOBS : []), ...options.deny].map((glob) => ({
    glob,
    test: picomatch(glob, matchOptions),
  }));
  const exceptions = options.denySecrets ? picomatch([...SECRET_EXCEPTIONS], matchOptions) : () => false;
  return (relativePath) => {
    for (const rule of rules) {
      if (rule.test(relativePath)) return exceptions(relativePath) ? null : rule.glob;
    }
    return null;
  };
}
