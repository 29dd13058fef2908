import type { Stats } from 'node:fs';
import fs from './node-fs.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isInside, relativeTo } from './core/containment.js';
import { denyMatcherOf, orderDenyRules, type CompiledDenyRules, type DenyMatcher } from './core/deny-matcher.js';
import { SECRET_PATTERNS } from './core/secret-patterns.js';
import type { ResolvedOptions } from './options.js';

/**
 * `fs.promises`' realpath and stat, from the callback API: the first touch of `fs.promises` loads
 * its module, and the modules that loads (readline's among them), into every one-read command.
 */
const realpathOf = (given: string) =>
  new Promise<string>((resolve, reject) => fs.realpath.native(given, (error, resolved) => (error === null ? resolve(resolved) : reject(error))));
const statOf = (given: string) => new Promise<Stats>((resolve, reject) => fs.stat(given, (error, stats) => (error === null ? resolve(stats) : reject(error))));

/** Requested paths whose location is remembered; past this the memo starts over. */
const LOCATED_PATHS = 8192;

interface Root {
  /** The root as configured (may pass through symbolic links). */
  readonly given: string;
  /** Its canonical form; every path handed to a worker is under one of these. */
  readonly canonical: string;
}

export type Location =
  | { readonly ok: true; readonly absolute: string; readonly relativePath: string }
  | { readonly ok: false; readonly code: 'invalid_request' | 'outside_root' | 'denied'; readonly details: Readonly<Record<string, unknown>> };

/**
 * The deny rules under `options`: configured globs first, compiled here (picomatch loads only
 * then: about 5 ms of `import('readpool')` and 3 of `createEngine` otherwise), then the secret
 * rules, compiled in advance (secret-patterns.ts).
 */
async function denyRulesOf(options: ResolvedOptions): Promise<CompiledDenyRules> {
  const configured = options.deny.length === 0 ? [] : (await import('./core/deny-rules.js')).compileGlobRules(options.deny);
  return orderDenyRules(configured, options.denySecrets ? SECRET_PATTERNS : null);
}

/**
 * The main thread's half of the sandbox: purely lexical checks that need no I/O per request.
 * The worker's half (`src/io/open-checked.ts`) resolves links and checks the descriptor.
 */
export class Sandbox {
  readonly #roots: readonly Root[];
  /** The deny rules, compiled once here; the workers build their matchers from these. */
  readonly denyRules: CompiledDenyRules;
  readonly #deny: DenyMatcher;
  readonly #maxPathLength: number;
  /**
   * `locate` is a pure function of the string, and a swarm asks for the same paths over and
   * over: the deny rules' matching alone cost a tenth of a cached read before this memo. A plain
   * Map that starts over when full, not an LRU: an entry is cheap to make again, and a Map's
   * lookup costs a cached read less than half of an LRU's.
   */
  readonly #located = new Map<string, Location>();

  private constructor(roots: readonly Root[], denyRules: CompiledDenyRules, options: ResolvedOptions) {
    this.#roots = roots;
    this.denyRules = denyRules;
    this.#deny = denyMatcherOf(denyRules);
    this.#maxPathLength = options.maxPathLength;
  }

  /** Canonicalises each root once; a root that is not a directory is an options error. */
  static async create(options: ResolvedOptions): Promise<Sandbox> {
    const roots: Root[] = [];
    for (const entry of options.roots) {
      const given = path.resolve(entry);
      let canonical: string;
      try {
        canonical = await realpathOf(given);
      } catch {
        throw new TypeError(`options.roots: ${JSON.stringify(entry)} does not exist`);
      }
      if (!(await statOf(canonical)).isDirectory()) {
        throw new TypeError(`options.roots: ${JSON.stringify(entry)} is not a directory`);
      }
      roots.push({ given, canonical });
    }
    return new Sandbox(roots, await denyRulesOf(options), options);
  }

  get roots(): readonly string[] {
    return this.#roots.map((root) => root.canonical);
  }

  /** Resolves a requested path against the roots, before any system call. */
  locate(requested: string): Location {
    let located = this.#located.get(requested);
    if (located === undefined) {
      located = Object.freeze(this.#locate(requested));
      if (this.#located.size >= LOCATED_PATHS) this.#located.clear();
      this.#located.set(requested, located);
    }
    return located;
  }

  #locate(requested: string): Location {
    let plain = requested;
    if (requested.startsWith('file://')) {
      try {
        plain = fileURLToPath(requested);
      } catch {
        return { ok: false, code: 'invalid_request', details: { issues: ['path: not a valid local file:// URL'] } };
      }
    }
    // Checked after URL decoding, so a %00 in a file:// URL is refused like a raw NUL.
    const issue = pathIssue(plain, this.#maxPathLength);
    if (issue !== null) return { ok: false, code: 'invalid_request', details: { issues: [`path: ${issue}`] } };
    const primary = this.#roots[0];
    if (primary === undefined) throw new Error('a sandbox always has a root');
    if (CLEAN_RELATIVE.test(plain)) {
      // Already normalised and relative: inside the primary root by construction.
      const rule = this.#deny(plain);
      if (rule !== null) return { ok: false, code: 'denied', details: { rule } };
      return { ok: true, absolute: `${primary.canonical}${path.sep}${plain}`, relativePath: plain };
    }
    const absolute = path.resolve(primary.canonical, plain);
    for (const root of this.#roots) {
      for (const form of [root.canonical, root.given]) {
        if (!isInside(form, absolute)) continue;
        const relativePath = relativeTo(form, absolute);
        const rule = this.#deny(relativePath);
        if (rule !== null) return { ok: false, code: 'denied', details: { rule } };
        return { ok: true, absolute: path.join(root.canonical, relativePath), relativePath };
      }
    }
    return { ok: false, code: 'outside_root', details: { throughLink: false, roots: this.roots } };
  }
}

/**
 * A relative POSIX path with no empty, `.` or `..` segment and no trailing slash: the common
 * case, which needs no `path.resolve`. Anything else takes the general route.
 */
const CLEAN_RELATIVE = path.sep === '/' ? /^(?!\.{1,2}(?:\/|$))(?:[^/]+\/(?!\.{1,2}(?:\/|$)))*[^/]+$/ : /^$/;

function pathIssue(requested: string, maxLength: number): string | null {
  if (requested.trim().length === 0) return 'must not be empty';
  if (requested.includes('\0')) return 'must not contain a NUL byte';
  if (requested.length > maxLength) return `must be at most ${maxLength} characters (received ${requested.length})`;
  return null;
}
