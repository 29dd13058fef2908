import type { FactsCache } from './cache/file-facts.js';
import type { ReadFacts, ReadMark, SessionLedger } from './cache/sessions.js';
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
  /** The facts of each result some session was given, shared by every session given it. */
  readonly #shared = new WeakMap<ReadResult, ReadFacts>();

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
  unchanged(held: ReadMark | undefined, version: string): UnchangedResult | undefined {
    if (held === undefined) return undefined;
    if (held.settled && held.version === version) return this.stub(held, 'same_version');
    const known = this.#versions.get(version);
    if (known === undefined || known.xxh64 !== held.facts.xxh64) return undefined;
    this.#ledger.hashHits++;
    held.version = version;
    held.settled = true;
    return this.stub(held, 'same_content');
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
      held.version = result.version;
      held.settled = settled;
      return this.stub(held, 'same_content');
    }
    let facts = this.#shared.get(result);
    if (facts === undefined) {
      facts = factsOf(result);
      this.#shared.set(result, facts);
    }
    this.#sessions.record(session, absolute, { facts, range, readAt: Date.now(), version: result.version, settled, written: 0 });
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
