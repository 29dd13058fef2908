/**
 * The MCP sessions a streamable HTTP server holds, and which of them are in use. A session is in
 * use while a response of its is open: a call being answered, or a stream its client keeps open
 * (the SDK's client holds one for as long as it is connected). A client that goes away without
 * ending its session leaves it idle. When a new session comes and the server holds its most or
 * more, idle sessions are closed, the longest idle first, to make room; a session in use is
 * never closed for room, and a new session is never refused, so a swarm of connected agents
 * larger than the cap is served as before. With the server's `--session-idle` time, sessions idle
 * that long are closed too.
 *
 * A client whose session was closed is answered 404 on its next request. The protocol has a
 * client start a new session then; not every client does (the TypeScript SDK's reports an
 * error), so sessions are closed only for room by default, not for time.
 */
import type { ServerResponse } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { DEFAULTS } from '../options.js';

/** Sessions held at once by default: as many as the engine's ledger keeps sessions by default. */
export const MAX_SESSIONS = DEFAULTS.maxSessions;

interface Live {
  readonly transport: StreamableHTTPServerTransport;
  /** Responses of this session still open. */
  open: number;
  /** When its last response ended (or it began), in ms since the epoch. */
  lastSeen: number;
}

export class HttpSessions {
  readonly #live = new Map<string, Live>();
  readonly #max: number;
  readonly #log: (line: string) => void;

  constructor(max: number, log: (line: string) => void) {
    this.#max = max;
    this.#log = log;
  }

  get size(): number {
    return this.#live.size;
  }

  transport(id: string): StreamableHTTPServerTransport | undefined {
    return this.#live.get(id)?.transport;
  }

  /** Holds a session its transport has just initialized, in use until `res` (its first response) ends. */
  add(id: string, transport: StreamableHTTPServerTransport, res: ServerResponse): void {
    const live: Live = { transport, open: 0, lastSeen: Date.now() };
    this.#live.set(id, live);
    this.#inUseUntilEnd(live, res);
  }

  /** The session is in use until `res` ends. */
  using(id: string, res: ServerResponse): void {
    const live = this.#live.get(id);
    if (live !== undefined) this.#inUseUntilEnd(live, res);
  }

  /** Lets go of a session that ended (its client's DELETE, or its transport closed). */
  remove(id: string): void {
    this.#live.delete(id);
  }

  /**
   * Makes room for a new session: while the server holds `max` or more, closes the session idle
   * the longest. False when it still holds `max` or more, every one of them in use.
   */
  makeRoom(): boolean {
    if (this.#live.size < this.#max) return true;
    const idle = [...this.#live].filter(([, live]) => live.open === 0).sort((a, b) => a[1].lastSeen - b[1].lastSeen);
    const now = Date.now();
    for (const [id, live] of idle.slice(0, this.#live.size - this.#max + 1)) {
      this.#close(id, live, `closed, idle ${Math.round((now - live.lastSeen) / 1000)} s, to make room for a new one (--max-sessions ${this.#max} reached)`);
    }
    return this.#live.size < this.#max;
  }

  /** Closes the sessions idle for `idleMs` or longer. */
  closeIdle(idleMs: number): void {
    const now = Date.now();
    for (const [id, live] of this.#live) {
      if (live.open === 0 && now - live.lastSeen >= idleMs) this.#close(id, live, `closed after ${Math.round((now - live.lastSeen) / 1000)} s idle`);
    }
  }

  /** Closes every session (the server is shutting down). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#live.values()].map((live) => live.transport.close()));
  }

  #inUseUntilEnd(live: Live, res: ServerResponse): void {
    live.open++;
    res.once('close', () => {
      live.open--;
      live.lastSeen = Date.now();
    });
  }

  #close(id: string, live: Live, why: string): void {
    this.#log(`session ${id}: ${why}`);
    this.#live.delete(id);
    void live.transport.close().catch(() => undefined);
  }
}
