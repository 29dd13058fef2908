/**
 * The deny rules as the workers use them: regular expressions already compiled from the globs
 * (`Sandbox.denyRules`: configured globs compiled on the host, the secret rules in advance), sent
 * as plain data. A worker builds its matcher from them without loading the glob library, which
 * cost each worker's boot about 4 ms (its code and the rules' compilation), on the way to the
 * engine's first answer.
 */

/** Returns the glob that denies `relativePath`, or null when it may be read. */
export type DenyMatcher = (relativePath: string) => string | null;

/** A regular expression as data: what `new RegExp(source, flags)` takes. */
export interface PatternData {
  readonly source: string;
  readonly flags: string;
}

export interface CompiledDenyRule {
  readonly glob: string;
  readonly pattern: PatternData;
  /** The rule's exceptions as one pattern, or null when it has none. */
  readonly except: PatternData | null;
}

/** Every rule in order, configured rules first. */
export type CompiledDenyRules = readonly CompiledDenyRule[];

/**
 * The rules in the order they are asked: configured globs first (a path they deny is reported
 * under its configured glob), then, with `denySecrets`, the secret rules.
 */
export function orderDenyRules(configured: CompiledDenyRules, secrets: CompiledDenyRules | null): CompiledDenyRules {
  return secrets === null ? configured : [...configured, ...secrets];
}

/** Paths whose deny verdict a matcher remembers; past this it starts over. */
const VERDICTS_KEPT = 16_384;

interface Rule {
  readonly glob: string;
  readonly re: RegExp;
  readonly except: RegExp | null;
}

export function denyMatcherOf(compiled: CompiledDenyRules): DenyMatcher {
  const rules: readonly Rule[] = compiled.map(({ glob, pattern, except }) => ({ glob, re: regExpOf(pattern), except: except === null ? null : regExpOf(except) }));
  const union = unionOf(compiled.map(({ pattern }) => pattern));
  const any = union === null ? null : regExpOf(union);
  const screen = screenOf(compiled.map(({ glob }) => glob));
  const verdict = (relativePath: string): string | null => {
    // A path that holds none of the rules' literal parts matches none of them; a few plain
    // substrings are asked first, because the union's first tests compile it (about 3 ms, paid by
    // a one-read command and by every worker's first read).
    if (any === null || screen?.test(relativePath) === false || !any.test(relativePath)) return null;
    for (const rule of rules) {
      if (rule.re.test(relativePath) && rule.except?.test(relativePath) !== true) return rule.glob;
    }
    return null;
  };
  // A verdict is a function of the string alone, and agents read the same paths again and again:
  // a map lookup instead of the alternation of every rule (about a microsecond a read).
  const known = new Map<string, string | null>();
  return (relativePath) => {
    let rule = known.get(relativePath);
    if (rule === undefined) {
      rule = verdict(relativePath);
      if (known.size >= VERDICTS_KEPT) known.clear();
      known.set(relativePath, rule);
    }
    return rule;
  };
}

/**
 * A glob's longest literal run: text that every path the glob matches holds, case aside. Null
 * when it has no literal run of two characters or more, or when the glob holds anything beyond
 * `*`, `?`, `/` and plain characters (letters, digits, `.`, `_`, `-`, space, `~#%,=:;&'`): not
 * only classes, braces, extglobs, negation, quotes and escapes, whose literal parts need not all
 * appear, but also text that picomatch turns into pattern syntax of its own (in `x$$` it escapes
 * only the first `$`, and the second anchors). Also null for three stars or more (after `***` it
 * rebuilds the pattern from its tokens and leaves a `.` unescaped, matching any character) and
 * for `.` or `..` folders, which it may drop.
 *
 * A run is cut at every wildcard and trimmed of its slashes, because `**` may match nothing and
 * take the slash beside it along: the rule for `.env` in any folder matches `.env` itself. Runs
 * are ASCII: under the rules' `i` flag an ASCII letter matches only itself in either case,
 * which is what a case-insensitive test for the run finds.
 */
export function literalOfGlob(glob: string): string | null {
  if (!/^[\w.\-/*? ~#%,=:;&']*$/.test(glob) || /\*{3}|(?:^|\/)\.\.?(?:\/|$)/.test(glob)) return null;
  let longest = '';
  for (const run of glob.split(/[*?]+/)) {
    const trimmed = run.replace(/^\/+|\/+$/g, '');
    if (trimmed.length > longest.length) longest = trimmed;
  }
  return longest.length >= 2 ? longest : null;
}

/** One case-insensitive test for any rule's literal run, or null when some rule has none. */
function screenOf(globs: readonly string[]): RegExp | null {
  const literals: string[] = [];
  for (const glob of globs) {
    const literal = literalOfGlob(glob);
    if (literal === null) return null;
    literals.push(literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  }
  return literals.length === 0 ? null : new RegExp(literals.join('|'), 'i');
}

/** One case-insensitive alternation of several patterns, or null for none. */
export function unionOf(patterns: readonly PatternData[]): PatternData | null {
  return patterns.length === 0 ? null : { source: patterns.map(({ source }) => `(?:${source})`).join('|'), flags: 'i' };
}

function regExpOf({ source, flags }: PatternData): RegExp {
  return new RegExp(source, flags);
}
