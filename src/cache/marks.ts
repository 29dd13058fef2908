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

/** A session's read of a file: the result's shared facts, and what is the session's own. */
export interface ReadMark {
  readonly facts: ReadFacts;
  /** The range it asked for (`''` for the default one). */
  readonly range: string;
  readonly readAt: number;
  /** See `LastRead.version`: moved on by a touch that kept the content. */
  version: string;
  /** See `LastRead.settled`. */
  settled: boolean;
  /** The ledger's own: its write count when it recorded this mark (see `FileMarks`). */
  written?: number;
}
