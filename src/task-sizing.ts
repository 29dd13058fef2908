/**
 * How many of the queued reads the next pool task takes, and when a few reads wait instead for
 * the tasks in workers to come back: the scheduler's batching policy (see README, Scheduling).
 */
import { BATCH_BYTES } from './wire.js';

/**
 * How long a few queued reads may wait for the tasks in workers to come back, rather than go out
 * as a small task of their own: a task that does not come back (a worker stuck in a system call)
 * holds them no longer than this.
 */
const HOLD_MS = 2;
/**
 * The share floor applies while a task at the floor would take less than this in its worker, at
 * the recent pace of a read there: slow reads (a cold disk, a network mount: a millisecond or
 * more each) are spread over the workers, one task each, as before. Quick ones go at the floor.
 */
const FLOOR_TASK_MS = 16;
/** Reads of this many bytes or more in all are worth a task however few they are. */
const HOLD_BYTES = BATCH_BYTES / 4;

/**
 * The share floor's ceiling for `threads` worker threads: the most reads the floor asks a task
 * to carry while reads are quick and one session waits (`TaskSizing.next` lowers it for a thin
 * backlog). A pool
 * task costs the host thread about as much as five reads (measured on 2 cores, misses on 2
 * threads: 30, 19, 17 and 11 µs of host CPU a read in tasks of 2, 4, 8 and 16; about 42 µs a
 * task and 8.6 a read), and the more threads, the more of the machine waits on the host thread:
 * with 15 threads at concurrency 64, tasks of 4 or 5 reads took the host to 30 µs a read. With
 * one or two threads the workers are the scarcer: each takes its share of the queue, however few.
 */
export function shareFloor(threads: number): number {
  return threads <= 2 ? 1 : Math.min(16, 2 * threads);
}

/**
 * The lowest the share floor goes when the backlog is thin (unless its ceiling is lower still):
 * a task of 8 still spreads its cost to the host over 8 reads. See `TaskSizing.next`.
 */
export const FLOOR_MIN = 8;

/**
 * The reads a task takes when it would wait in a busy worker's port (see
 * `SchedulerOptions.aloneInFlight`): half of `cap`, no fewer (fewer wait for a worker to free
 * up) and no more. Such a task is not urgent, its worker being busy, and a sliver costs the host
 * as much as several reads: on 2 cores (source tree, concurrency 64, 2 threads) the tasks went
 * with 11.5 reads on average, against 15 to 18 so. No more, so that a session that starts
 * reading waits behind at most that much more in each worker.
 */
function portFloorOf(cap: number): number {
  return Math.max(1, cap >> 1);
}

/**
 * How long after several sessions last had reads waiting the scheduler still keeps to one task a
 * worker (`SchedulerOptions.aloneInFlight` applies only past it). In the fairness scenario, 50
 * sessions reading one file at a time beside one with 10 000 queued, the others' reads were
 * seldom waiting at the moment a task went: judged on that moment alone, the greedy session got
 * two full tasks a worker, and the others' p99 beside it was 3.44 times their p99 alone (median
 * of 6 runs) against 2.59 with one task a worker. With this rule, and a port's task held to half
 * a batch (`next`), 2.49, in the same alternating runs on 2 cores.
 */
const SEVERAL_MS = 100;

/** What the next task's size depends on, as the scheduler sees it now. */
export interface QueueState {
  /** Reads waiting in the lanes, and the bytes of their files (unsized reads count 0). */
  readonly queued: number;
  readonly queuedBytes: number;
  /** Sessions with reads waiting. */
  readonly sessions: number;
  /**
   * Tasks in workers, and how many more the workers can take now: together the tasks allowed in
   * flight, one a worker thread (two on a small machine while one session reads: see
   * `SchedulerOptions.aloneInFlight`).
   */
  readonly inFlight: number;
  readonly free: number;
  /**
   * Reads in workers now. A read answered early (its abort or deadline) leaves this count
   * while its worker may still be on it.
   */
  readonly running: number;
  /** A read's recent time in its worker, in milliseconds (0 before any task came back). */
  readonly paceMs: number;
  /**
   * Workers that hold no task now. With none, the next task would wait in a worker's port
   * behind the one it runs (see `SchedulerOptions.aloneInFlight`).
   */
  readonly idle: number;
}

export class TaskSizing {
  readonly #batchSize: number;
  readonly #floor: number;
  readonly #cores: number;
  readonly #holdMs: number;
  readonly #holdEnded: () => void;
  /** Ends a hold when no task came back within `holdMs`. */
  #holdTimer: NodeJS.Timeout | null = null;
  #holdOver = false;
  readonly #maxInFlight: number;
  readonly #aloneInFlight: number;
  /** When `limit` last found several sessions with reads waiting (`performance.now()`). */
  #severalAt = -Infinity;

  /**
   * `maxInFlight` tasks may be out at once, `aloneInFlight` (more, on a small machine) while one
   * session reads alone (see `limit`). `holdEnded` is called when a hold runs out: the scheduler
   * then sends what waits.
   */
  constructor(options: { batchSize: number; floor: number; cores: number; maxInFlight: number; aloneInFlight: number; holdMs?: number }, holdEnded: () => void) {
    if (!(Number.isSafeInteger(options.cores) && options.cores > 0)) throw new RangeError(`cores must be a positive integer (received ${options.cores})`);
    this.#maxInFlight = options.maxInFlight;
    this.#aloneInFlight = options.aloneInFlight;
    this.#batchSize = options.batchSize;
    this.#floor = options.floor;
    this.#cores = options.cores;
    this.#holdMs = options.holdMs ?? HOLD_MS;
    this.#holdEnded = holdEnded;
  }

  /**
   * Tasks allowed out now, with `sessions` sessions' reads waiting: one a worker while several
   * sessions read, so that each session's next read waits behind less of the others' work
   * (fairness) and answers do not pile up into long host turns. A session reading one file at a
   * time has a read waiting only now and then, so it counts for `SEVERAL_MS` after.
   */
  limit(sessions: number): number {
    if (this.#aloneInFlight <= this.#maxInFlight) return this.#maxInFlight;
    const now = performance.now();
    if (sessions > 1) this.#severalAt = now;
    return now - this.#severalAt < SEVERAL_MS ? this.#maxInFlight : this.#aloneInFlight;
  }

  /** The reads the next task takes, or 0 when they wait for tasks to come back (a hold, bounded). */
  next(state: QueueState): number {
    const { queued, sessions, inFlight, free } = state;
    // With a few sessions waiting, smaller batches: a session's next read then waits behind
    // less of another's work (the fairness scenario: others' p99 2.5x instead of 3x). With more
    // sessions waiting, a batch of one read each, up to a full one: one round of the lanes fills
    // it, so no read waits behind another session's several. A swarm (256 sessions, one read
    // each in flight, result cache off) went in tasks of 8, at 5 µs of host CPU a read for the
    // tasks alone; in tasks of about 30, a read cost the host 12.1 against 17.3 and 15.1 against
    // 21.2 µs (alternating passes in one process). Never more than `batchSize`: the cancel slots
    // are counted by it.
    const several = sessions > 1;
    const cap = several ? Math.min(this.#batchSize, Math.max(4, this.#batchSize >> 2, sessions)) : this.#batchSize;
    // The share floor, for one session's quick reads (several sessions keep the small tasks
    // that fairness wants; slow reads, judged at the floor's ceiling, are spread over the workers).
    const ceiling = Math.min(cap, this.#floor);
    const shared = several || state.paceMs * ceiling > FLOOR_TASK_MS ? 1 : this.#lowered(ceiling, state);
    // A task that would wait behind another in its worker need not go now: it waits for half a
    // full batch, or for a worker to free up (see `portFloor`).
    const portFloor = portFloorOf(cap);
    const floor = state.idle === 0 ? Math.max(shared, portFloor) : shared;
    // Fewer reads than a task is worth while tasks are out: they wait for those to come back
    // (or for more reads), up to HOLD_MS, unless their files are large enough to be worth one.
    if (inFlight > 0 && queued < floor && state.queuedBytes < HOLD_BYTES && !this.#holdOver) {
      this.#holdBriefly();
      return 0;
    }
    // Sized by the backlog per free worker: the queue is shared among the workers that can take
    // a batch now, not all of them. Split by every worker, a free one took half the queue and
    // left the rest waiting for a busy one: at concurrency 64 on 2 threads, batches of 15
    // where 32 fit, and the host paid a task (about three reads' worth) per 15 reads. Measured
    // in one process against that rule: host CPU per miss 14.5 against 16.4 µs, files/s +8 %.
    // At the floor: as many tasks of at least `floor` reads as the queue fills, the last one
    // taking the remainder rather than leaving it to wait.
    // Beyond a task for each idle worker, one for a port only with the port floor's worth.
    const tasks = Math.max(1, Math.min(free, Math.floor(queued / floor), state.idle + Math.floor(queued / portFloor)));
    // A task for a port takes no more than the port floor either: a session that starts reading
    // waits behind at most that much more in each worker.
    return Math.min(state.idle === 0 ? portFloor : cap, Math.ceil(queued / tasks));
  }

  /**
   * The floor for a backlog: its ceiling, lowered to the reads in the engine (queued and in
   * workers) per busy thread while those are fewer, but not under FLOOR_MIN; busy threads are
   * counted up to the cores. A floor above the backlog per thread leaves threads idle: on 16
   * cores at concurrency 64 (source tree, two passes each), a floor of 16 kept 4 tasks out at 8
   * to 16 threads and read 33 000 to 42 000 files/s, fewer than 4 threads did; lowered to the
   * backlog (tasks of about 9), 50 000 to 63 000. But threads beyond the cores gain nothing from
   * being kept busy: on 2 cores, 15 threads at concurrency 64 read 10 % fewer files a second in
   * tasks of 8 than of 16, at 10 to 18 % more host CPU a read.
   */
  #lowered(ceiling: number, state: QueueState): number {
    const busy = Math.min(state.inFlight + state.free, this.#cores);
    const perThread = Math.ceil((state.queued + state.running) / busy);
    return Math.min(ceiling, Math.max(FLOOR_MIN, perThread));
  }

  close(): void {
    if (this.#holdTimer !== null) clearTimeout(this.#holdTimer);
    this.#holdTimer = null;
  }

  #holdBriefly(): void {
    if (this.#holdTimer !== null) return;
    this.#holdTimer = setTimeout(() => {
      this.#holdTimer = null;
      this.#holdOver = true;
      try {
        this.#holdEnded();
      } finally {
        this.#holdOver = false;
      }
    }, this.#holdMs);
  }
}
