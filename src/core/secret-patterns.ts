// Generated from SECRET_RULES (deny-rules.ts) by picomatch, with { dot: true, nocase: true }: not
// edited by hand. test/containment.test.ts checks that it is what picomatch makes of those rules,
// and prints this file anew when a rule changes.
import type { CompiledDenyRules } from './deny-matcher.js';

/** The secret rules, compiled: what workers and the host match against when `denySecrets` is on. */
export const SECRET_PATTERNS: CompiledDenyRules = [
  { glob: "**/.env", pattern: { source: "^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)\\.env)$", flags: "i" }, except: null },
  { glob: "**/.env.*", pattern: { source: "^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)\\.env\\.[^/]*?\\/?)$", flags: "i" }, except: { source: "(?:^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)\\.env\\.example)$)|(?:^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)\\.env\\.sample)$)|(?:^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)\\.env\\.template)$)|(?:^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)\\.env\\.dist)$)", flags: "i" } },
  { glob: "**/*.pem", pattern: { source: "^(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$))(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)?(?!\\.{1,2}(?:\\/|$))(?=.)[^/]*?\\.pem\\/?)$", flags: "i" }, except: null },
  { glob: "**/*.key", pattern: { source: "^(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$))(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)?(?!\\.{1,2}(?:\\/|$))(?=.)[^/]*?\\.key\\/?)$", flags: "i" }, except: null },
  { glob: "**/*.p12", pattern: { source: "^(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$))(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)?(?!\\.{1,2}(?:\\/|$))(?=.)[^/]*?\\.p12\\/?)$", flags: "i" }, except: null },
  { glob: "**/*.pfx", pattern: { source: "^(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$))(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)?(?!\\.{1,2}(?:\\/|$))(?=.)[^/]*?\\.pfx\\/?)$", flags: "i" }, except: null },
  { glob: "**/id_rsa", pattern: { source: "^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)id_rsa)$", flags: "i" }, except: null },
  { glob: "**/id_dsa", pattern: { source: "^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)id_dsa)$", flags: "i" }, except: null },
  { glob: "**/id_ecdsa", pattern: { source: "^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)id_ecdsa)$", flags: "i" }, except: null },
  { glob: "**/id_ed25519", pattern: { source: "^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)id_ed25519)$", flags: "i" }, except: null },
  { glob: "**/.npmrc", pattern: { source: "^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)\\.npmrc)$", flags: "i" }, except: null },
  { glob: "**/.pypirc", pattern: { source: "^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)\\.pypirc)$", flags: "i" }, except: null },
  { glob: "**/.netrc", pattern: { source: "^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)\\.netrc)$", flags: "i" }, except: null },
  { glob: "**/.git-credentials", pattern: { source: "^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)\\.git-credentials)$", flags: "i" }, except: null },
  { glob: "**/.git/config", pattern: { source: "^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)\\.git\\/config)$", flags: "i" }, except: null },
  { glob: "**/.aws/credentials", pattern: { source: "^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)\\.aws\\/credentials)$", flags: "i" }, except: null },
  { glob: "**/.aws/config", pattern: { source: "^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)\\.aws\\/config)$", flags: "i" }, except: null },
  { glob: "**/.config/gcloud/**", pattern: { source: "^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)\\.config\\/gcloud(?:\\/(?!\\.{1,2}(?:\\/|$))(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)|$))$", flags: "i" }, except: null },
  { glob: "**/.docker/config.json", pattern: { source: "^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)\\.docker\\/config\\.json)$", flags: "i" }, except: null },
  { glob: "**/.kube/config", pattern: { source: "^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)\\.kube\\/config)$", flags: "i" }, except: null },
  { glob: "**/.ssh/*", pattern: { source: "^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)\\.ssh\\/(?!\\.{1,2}(?:\\/|$))(?=.)[^/]*?\\/?)$", flags: "i" }, except: { source: "(?:^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)\\.ssh\\/(?!\\.{1,2}(?:\\/|$))(?=.)[^/]*?\\.pub)$)|(?:^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)\\.ssh\\/known_hosts)$)|(?:^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)\\.ssh\\/config)$)", flags: "i" } },
];
