/**
 * Read-ahead for an agent paging through a large file. Once a page of a file with a line index
 * (see `FactsCache`) is answered, other than its first, and more lines follow, the next page of
 * the same shape is read at once, while the agent takes in this one: when it asks for it (the
 * next `offset` the notice gives), the page is there or on its way, and it joins that read.
 *
 * Pages read ahead wait in a store of their own, which their first reader takes them from: not
 * in the result cache, whose entries outlive young collections and are copied by each one (a
 * reason large windows enter it only when read twice, see `LARGE_RESULT_BYTES`). At most one
 * page a file is read ahead at a time, only from a page that was itself asked for, and never for
 * a first page (an agent that reads a log's head may stop there), a tail read or a column read.
 */
import type { ParsedRequest } from './request.js';
import type { ReadResult } from './result.js';
import { resultBytes } from './result-of.js';

/** Pages read ahead and not yet taken, oldest dropped first: a few agents paging at once. */
const WAITING_PAGES = 32;
/** And their bytes (by `resultBytes`), whatever budgets the pages were read with. */
const WAITING_BYTES = 32 * 1024 * 1024;

/**
 * The request for the page after `result`, when it is worth reading ahead; else null. A page its
 * limit or its budget ended (most pages read with the default budget end at the budget) goes on
 * at `nextOffset`; one that ended inside a long line goes on in that line's columns, not here.
 */
export function nextPage(req: ParsedRequest, result: ReadResult): ParsedRequest | null {
  if (result.kind !== 'text' || result.truncated === false || result.truncated.reason === 'line-length') return null;
  if (req.offset <= 1 || req.column !== 0) return null;
  return { ...req, offset: result.truncated.nextOffset, fresh: false };
}

/** Pages read ahead, by result-cache key, until their first reader takes them. */
export class AheadPages {
  readonly #pages = new Map<string, ReadResult>();
  #bytes = 0;

  /** Keeps a page read ahead; the oldest go while too many wait, or too many bytes. */
  put(key: string, page: ReadResult): void {
    this.#remove(key);
    this.#pages.set(key, page);
    this.#bytes += resultBytes(page);
    while (this.#pages.size > WAITING_PAGES || (this.#bytes > WAITING_BYTES && this.#pages.size > 1)) {
      const oldest = this.#pages.keys().next();
      if (oldest.done === true) break;
      this.#remove(oldest.value);
    }
  }

  /** The page for `key` at `version`, taken out of the store; undefined when none (or stale). */
  take(key: string, version: string): ReadResult | undefined {
    const page = this.#remove(key);
    return page?.version === version ? page : undefined;
  }

  #remove(key: string): ReadResult | undefined {
    const page = this.#pages.get(key);
    if (page === undefined) return undefined;
    this.#pages.delete(key);
    this.#bytes -= resultBytes(page);
    return page;
  }

  has(key: string): boolean {
    return this.#pages.has(key);
  }

  get size(): number {
    return this.#pages.size;
  }
}
