import { statFile } from './io/probe.js';
import { STAT_BATCH, STAT_SLOTS, type FileStat } from './io/stat-wire.js';
import { OncePerTurn } from './microtask.js';
import { StatThread } from './stat-thread.js';
import { StuckWatch } from './stuck-watch.js';

export type { FileStat } from './io/stat-wire.js';

/**
 * What a stat comes back as: the file's version fields; null when the path is not a plain regular
 * file; or `NOT_STATTED` when the lane gave up (a stuck or failed stat thread) or is closed.
 */
export type StatAnswer = FileStat | null | typeof NOT_STATTED;
export const NOT_STATTED = 'not-statted';

/**
 * Called once with the path's stat. It must not throw: the lane calls several in a row, and a
 * throw would leave the rest uncalled.
 */
export type StatCall = (stat: StatAnswer) => void;

/**
 * Stats asked for in one turn that go to the stat thread; fewer are made on the host. A round
 * trip to the thread costs the host about 22 µs (waking it, and being woken; 29 to 33 when it
 * was a message each way), a stat about 2.8 µs. From about 8 up the thread would seem cheaper,
 * but 8 measured worse: at concurrency 12 (source tree, `bench/ab.js`, 20 passes each) a cached
 * read cost the host 4.78 against 3.78 µs, and 160 000 against 236 000 were answered a second.
 */
const MIN_BATCH = 16;

/**
 * Batches at the stat thread at once, and the most stats in one. A turn's stats are split among
 * the free places, so that the host answers the reads of one batch while the thread stats the
 * next: in one piece, the host and the thread took turns, and cached reads fell from 200 000 to
 * 160 000 a second (source tree, concurrency 64, 2 cores); in two parts, 270 000. Parts are
 * otherwise as large as the turn brings (each costs the host a wake-up each way): the swarm's
 * 128-read turns took 935 ms against 1 038 in parts of at most 32. Three places instead of two:
 * the swarm took 1 026 ms against 913 (8 alternating each), and again 857 against 789 once the
 * batches went through shared memory (8 pairs, faster in 4). Both sizes are fixed in the layout
 * of that memory (`STAT_SLOTS`, `STAT_BATCH`).
 */
const MAX_IN_FLIGHT = STAT_SLOTS;
const MAX_BATCH = STAT_BATCH;

/**
 * A batch unanswered this long after the thread took it up (1 s, and 8 ms a stat) means a stat
 * is stuck in the kernel (a hung network mount): its reads, and those waiting behind it, are
 * answered `NOT_STATTED` and go to the text pool, whose timeouts and recycling handle such
 * files. Healthy batches take about a millisecond; a slow file system's 128 stats may take 16 ms
 * each before they count as stuck. A read's abort or deadline is only looked at once its stat is
 * answered: this bounds the wait.
 */
const STUCK_MS = 1000;
const STUCK_MS_A_STAT = 8;

/**
 * After a stat thread is given up on, busy turns stat on the host for this long before another
 * thread is started, doubling while threads keep failing: a path that hangs every stat, or a
 * thread that cannot start, must not cost a thread a turn.
 */
const RESTART_BASE_MS = 1000;
const RESTART_MAX_MS = 60_000;

interface Sent {
  readonly calls: StatCall[];
  /** For each call, the entry of the reply that answers it (reads of one path share one). */
  readonly entries: Int32Array;
}

/** Paths the host and the stat thread number alike; past this both start over. */
const MAX_NUMBERED = 65_536;

export interface StatLaneStats {
  /** Stats made on the host thread (turns with few reads, or before the thread was up). */
  readonly onHost: number;
  /** Stats answered from the stat thread, and the batches that carried them. */
  readonly onThread: number;
  /** Of those, stats shared: reads of a path that another read in the same batch had asked for. */
  readonly shared: number;
  readonly batches: number;
  /** Batches given up on (a stuck or failed thread); their reads went to the text pool. */
  readonly abandoned: number;
  /** Stats asked for and not answered yet. */
  readonly waiting: number;
  /** Stat threads given up on (stuck, failed, or failed to start). */
  readonly lost: number;
  /** True while a stat thread is up and takes the busy turns' stats. */
  readonly threadUp: boolean;
  /**
   * Why no stat thread can be started in this process (its `Worker` was refused), or null:
   * every stat is then made on the host thread, and each cache hit costs it about twice as much.
   */
  readonly unavailable: string | null;
}

/**
 * Where the host gets the stat that a cache hit rests on. A stat is the largest part of a hit's
 * host-thread CPU (2.8 of 5 µs here), and the host thread is the ceiling on many cores, so in
 * busy turns the stats go to a thread of their own, in batches, through memory the two threads
 * share: no message is made for a batch or its answer, only for a path the thread does not know
 * yet. Freshness is unchanged: every stat, on either thread, is made after the read that asked
 * for it arrived, so a read still sees every write that finished before it was asked for.
 */
export class StatLane {
  #paths: string[] = [];
  #calls: StatCall[] = [];
  /** This turn's stats go in one flush, after the turn's other reads have asked too. */
  readonly #flushSoon = new OncePerTurn(() => this.#flush());
  /** The stat thread, from its start until it is given up on or the lane closes. */
  #thread: StatThread | null = null;
  /** How the thread reaches the lane: each answered batch, and its loss. */
  readonly #threadCalls = {
    answered: (id: number): void => this.#reply(id),
    lost: (): void => this.#giveUp(),
  };
  /** Why the stat thread cannot be started here, or null: while set, every stat is made on the host. */
  #unavailable: string | null = null;
  #closed = false;
  /** Batches at the thread, oldest first: the thread takes them up in this order. */
  readonly #sent = new Map<number, Sent>();
  /** Times the oldest batch at the thread, from when the thread took it up (see `#watchOldest`). */
  readonly #stuck = new StuckWatch(() => this.#giveUp());
  readonly #maxNumbered: number;
  #onHost = 0;
  #onThread = 0;
  #shared = 0;
  #batches = 0;
  #abandoned = 0;
  #lost = 0;
  /** Stats in the batches at the thread. */
  #sentStats = 0;
  /** No thread is started before this (`Date.now()`), after one was given up on. */
  #restartAt = 0;
  #restartMs = RESTART_BASE_MS;

  /** `maxNumbered` (for tests): paths numbered before the numbering starts over. */
  constructor({ maxNumbered = MAX_NUMBERED }: { maxNumbered?: number } = {}) {
    this.#maxNumbered = maxNumbered;
  }

  /** Stats `path` after this turn's other reads have asked too, and calls `call` with it. */
  stat(path: string, call: StatCall): void {
    this.#paths.push(path);
    this.#calls.push(call);
    this.#flushSoon.request();
  }

  /** Stats asked for and not answered yet: reads that wait here count as queued. */
  get waiting(): number {
    return this.#paths.length + this.#sentStats;
  }

  stats(): StatLaneStats {
    return {
      onHost: this.#onHost,
      onThread: this.#onThread,
      shared: this.#shared,
      batches: this.#batches,
      abandoned: this.#abandoned,
      waiting: this.waiting,
      lost: this.#lost,
      threadUp: this.#thread?.ready === true,
      unavailable: this.#unavailable,
    };
  }

  /** Answers what waits with `NOT_STATTED` and stops the thread. */
  close(): Promise<void> {
    this.#closed = true;
    this.#answerAll();
    return this.#drop();
  }

  #flush(): void {
    if (this.#paths.length === 0) return;
    if (this.#closed) return this.#answerAll();
    if (this.#paths.length >= MIN_BATCH && this.#unavailable === null && Date.now() >= this.#restartAt) {
      const thread = this.#thread ?? this.#boot();
      if (thread?.ready === true) {
        // At the limit the next reply flushes, and the batch waiting meanwhile grows.
        while (this.#sent.size < MAX_IN_FLIGHT && this.#paths.length > 0) this.#send(thread);
        return;
      }
    }
    const paths = this.#paths;
    const calls = this.#calls;
    this.#paths = [];
    this.#calls = [];
    this.#onHost += paths.length;
    for (let i = 0; i < paths.length; i++) (calls[i] as StatCall)(statFile(paths[i] as string));
  }

  #send(thread: StatThread): void {
    // The waiting stats shared among the free places: 64 go as 32 and 32 when both are free.
    const take = Math.min(MAX_BATCH, Math.ceil(this.#paths.length / (MAX_IN_FLIGHT - this.#sent.size)));
    const calls = this.#calls.splice(0, take);
    const paths = this.#paths.splice(0, take);
    const entries = new Int32Array(paths.length);
    const { id, asked } = thread.send(paths, entries);
    this.#shared += paths.length - asked;
    this.#sent.set(id, { calls, entries });
    if (this.#sent.size === 1) this.#watchOldest();
    this.#sentStats += calls.length;
    this.#onThread += calls.length;
    this.#batches++;
  }

  #reply(id: number): void {
    const sent = this.#sent.get(id);
    const thread = this.#thread;
    // A batch already given up on: its reads were answered.
    if (sent === undefined || thread === null) return;
    this.#sent.delete(id);
    this.#sentStats -= sent.calls.length;
    this.#watchOldest();
    this.#restartMs = RESTART_BASE_MS;
    const { calls, entries } = sent;
    for (let i = 0; i < calls.length; i++) (calls[i] as StatCall)(thread.statOf(id, entries[i] as number));
    // A retired table of `#sent` can keep this batch until a full GC: it keeps no reads with it.
    calls.length = 0;
    this.#flush();
  }

  /**
   * Times the oldest batch at the thread, if any, from now: the thread takes it up when it was
   * sent, or when the batch before it was answered.
   */
  #watchOldest(): void {
    const oldest = this.#sent.values().next();
    if (oldest.done === true) this.#stuck.idle();
    else this.#stuck.start(STUCK_MS + STUCK_MS_A_STAT * oldest.value.calls.length);
  }

  /** Starts the stat thread; until it is up, stats are made on the host. */
  #boot(): StatThread | null {
    const started = StatThread.start(this.#maxNumbered, this.#threadCalls);
    if ('failed' in started) {
      this.#unavailable = started.failed;
      return null;
    }
    this.#thread = started;
    return started;
  }

  /**
   * The thread is stuck or gone: the reads of its batches, and those waiting to be sent, are
   * answered `NOT_STATTED` (a text worker then reads each), and no thread starts again for a
   * while (`RESTART_BASE_MS`).
   */
  #giveUp(): void {
    this.#lost++;
    this.#abandoned += this.#sent.size;
    this.#restartAt = Date.now() + this.#restartMs;
    this.#restartMs = Math.min(RESTART_MAX_MS, this.#restartMs * 2);
    void this.#drop();
    this.#answerAll();
  }

  #drop(): Promise<void> {
    const thread = this.#thread;
    this.#thread = null;
    return thread === null ? Promise.resolve() : thread.stop();
  }

  /** Answers every stat not answered yet with `NOT_STATTED`. */
  #answerAll(): void {
    const calls = [...this.#calls, ...[...this.#sent.values()].flatMap((batch) => batch.calls)];
    this.#stuck.stop();
    this.#sent.clear();
    this.#sentStats = 0;
    this.#paths = [];
    this.#calls = [];
    for (const call of calls) call(NOT_STATTED);
  }
}
