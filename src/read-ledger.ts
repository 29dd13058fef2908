import type { ReadErrorCode } from './errors.js';

/**
 * What the engine counts of its reads: answers, errors by code, and which cache layer answered.
 * Plain fields, bumped on the hot path and read by `stats()`.
 */
export class ReadLedger {
  answered = 0;
  resultHits = 0;
  /** Pages read ahead of an agent paging (see `read-ahead.ts`). */
  readAheads = 0;
  resultMisses = 0;
  stubHits = 0;
  singleFlightJoins = 0;
  lineIndexHits = 0;
  hashHits = 0;
  readonly errors: Partial<Record<ReadErrorCode, number>> = {};

  failed(code: ReadErrorCode): void {
    this.answered++;
    this.errors[code] = (this.errors[code] ?? 0) + 1;
  }
}
