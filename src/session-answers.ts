import type { FactsCache } from './cache/file-facts.js';
import type { MarkBase, ReadMark, SessionLedger } from './cache/sessions.js';
import { describeStub } from './dialects/readpool-notices.js';
import type { ReadLedger } from './read-ledger.js';
import type { ParsedRequest } from './request.js';
import type { ReadResult, UnchangedResult } from './result.js';
import { isSettled } from './result-keys.js';
import { factsOf } from './result-of.js';

/**
 * What a session is given for a read, beside the result itself: an `unchanged` stub when it
 * already holds the content, and the mark of what it was given, for its next read's stub and for
 * an edit tool's check (`lastRead`, `checkUnchanged`).
 */
export class SessionAnswers {
  readonly #sessions: SessionLedger;
  readonly #ledger: ReadLedger;
  /** Hashes of settled versions, for a stub after a touch. */
  readonly #versions: FactsCache;
  readonly #settleMs: number;
  /**
   * The mark base of each result some session was given for the default range, at a settled
   * version: its facts, shared by every session given it (a mark that copied them was most of
   * what each read kept), and the base itself, which is all of most marks but their time.
   */
  readonly #shared = new WeakMap<ReadResult, MarkBase>();

  constructor(sessions: SessionLedger, ledger: ReadLedger, facts: FactsCache, settleMs: number) {
    this.#sessions = sessions;
    this.#ledger = ledger;
    this.#versions = facts;
    this.#settleMs = settleMs;
  }

  /** The session's mark for this range (`''` for the default range), unless it asked afresh. */
  held(req: ParsedRequest, absolute: string, range: string): ReadMark | undefined {
    const session = req.session;
    return session === null || req.fresh ? undefined : this.#sessions.range(session, absolute, range);
  }

  /**
   * The stub for a session that holds the file at `version`, which a stat just gave: its mark
   * has that version, or the facts cache knows the version's hash and it is the mark's (a touch:
   * facts are kept only for settled versions, so a match means the same bytes). Else undefined.
   */
  unchanged(req: ParsedRequest, absolute: string, held: ReadMark | undefined, version: string): UnchangedResult | undefined {
    // A session holds marks only when the read names one.
    const session = req.session;
    if (held === undefined || session === null) return undefined;
    if (held.settled && held.version === version) return this.stub(held, 'same_version');
    const known = this.#versions.get(version);
    if (known === undefined || known.xxh64 !== held.facts.xxh64) return undefined;
    this.#ledger.hashHits++;
    return this.stub(this.#sessions.renew(session, absolute, held, version, true), 'same_content');
  }

  /**
   * A stub when the session already holds this very content under another version (a touch),
   * else the result, recorded as read.
   */
  remember(result: ReadResult, req: ParsedRequest, absolute: string, held: ReadMark | undefined, range: string, startedAt: number, fromCache = false): ReadResult {
    const session = req.session;
    if (session === null || result.kind === 'unchanged') return result;
    // The result cache takes only settled versions, and a version settled for an earlier read is
    // settled for every later one: no need to parse its ctime again on every hit.
    const settled = fromCache || isSettled(result.version, startedAt, this.#settleMs);
    if (held !== undefined && held.facts.path === result.path && result.xxh64 !== null && result.xxh64 === held.facts.xxh64) {
      return this.stub(this.#sessions.renew(session, absolute, held, result.version, settled), 'same_content');
    }
    let shared = this.#shared.get(result);
    if (shared === undefined) {
      shared = { facts: factsOf(result), range: '', version: result.version, settled: true };
      this.#shared.set(result, shared);
    }
    const base = range === '' && settled ? shared : { facts: shared.facts, range, version: result.version, settled };
    this.#sessions.record(session, absolute, base, Date.now());
    return result;
  }

  /** The stub for a mark the session holds, counted. */
  stub(mark: ReadMark, reason: UnchangedResult['reason']): UnchangedResult {
    this.#ledger.stubHits++;
    const { facts } = mark;
    return {
      kind: 'unchanged',
      reason,
      path: facts.path,
      relativePath: facts.relativePath,
      stub: describeStub(facts, mark.readAt),
      startLine: facts.startLine,
      endLine: facts.endLine,
      totalLines: facts.totalLines,
      version: mark.version,
      xxh64: facts.xxh64,
      readAt: mark.readAt,
    };
  }
}
