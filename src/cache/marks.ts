/** What a session was given when it read a file: enough for stubs and for an edit tool's check. */
export interface LastRead {
  /** Canonical path of the file read. */
  readonly path: string;
  readonly relativePath: string;
  /** When the read was answered, in milliseconds since the epoch. */
  readonly readAt: number;
  /** Version key at that read (`dev:ino:size:mtimeMs:ctimeMs`); moves on when a touch kept the content. */
  readonly version: string;
  readonly size: number;
  readonly xxh64: string | null;
  readonly sha256: string | null;
  readonly startLine: number;
  readonly endLine: number;
  readonly totalLines: number | null;
  /** True when the session saw every line it asked for, uncut: only such reads earn stubs. */
  readonly complete: boolean;
  /**
   * True when the file had not changed for `settleMs` before the read, so its version alone
   * identifies the content. A mark that is not settled earns stubs by content hash only.
   */
  readonly settled: boolean;
}

/**
 * What every session given one result shares of it (see `LastRead`), made once per result: a
 * swarm's sessions read the same cached results, and a mark that copied these fields was most of
 * what each read kept.
 */
export type ReadFacts = Omit<LastRead, 'readAt' | 'version' | 'settled'>;

/**
 * What a session's read of a file shares with other sessions' reads of the same result: its facts,
 * the range asked for, and the version the session holds (see `LastRead`). Never changed once
 * made: a touch that kept the content gives the session a new one (`SessionLedger.renew`). Every
 * session given a result for the default range, at a settled version, shares one, so that a
 * swarm's read keeps only a few numbers of its own (see `FileMarks`).
 */
export interface MarkBase {
  readonly facts: ReadFacts;
  /** The range it asked for (`''` for the default one). */
  readonly range: string;
  /** See `LastRead.version`. */
  readonly version: string;
  /** See `LastRead.settled`. */
  readonly settled: boolean;
}

/** A session's read of a file, as the ledger answers it: its base and when it was answered. */
export interface ReadMark extends MarkBase {
  readonly readAt: number;
}
