/** Something with a deadline (`Date.now()` scale) that is told when it passes. */
export interface Expiring {
  readonly deadline: number;
  expire(): void;
  /** Its neighbours while `Deadlines` holds it, in the order added; both null otherwise. */
  earlier: Expiring | null;
  later: Expiring | null;
}

/**
 * Deadlines of many waiting reads on one timer, armed for the earliest. A timer per read costs
 * more than the read's whole host-side work (a timer object, a list insertion, a clear); here a
 * read is linked in and out of a list through two fields of its own, where a `Set` had hashed it
 * in and out (2 to 6 % of the host's CPU a miss on 2 cores). An entry is in one `Deadlines` at
 * most (one per `SingleFlight`; a waiter joins one flight once): its links are this list's. When the timer fires, expired entries are
 * told and the timer is armed again for the earliest left: that scan is over the reads waiting,
 * and happens once per deadline reached, not per read.
 */
export class Deadlines {
  #first: Expiring | null = null;
  #last: Expiring | null = null;
  #size = 0;
  #timer: NodeJS.Timeout | undefined;
  #armedFor = Infinity;

  get size(): number {
    return this.#size;
  }

  add(entry: Expiring): void {
    if (this.#holds(entry)) return;
    entry.earlier = this.#last;
    entry.later = null;
    if (this.#last === null) this.#first = entry;
    else this.#last.later = entry;
    this.#last = entry;
    this.#size++;
    if (entry.deadline < this.#armedFor) this.#arm(entry.deadline);
  }

  delete(entry: Expiring): void {
    if (!this.#holds(entry)) return;
    this.#unlink(entry);
    if (this.#size === 0) this.#disarm();
  }

  #holds(entry: Expiring): boolean {
    return entry.earlier !== null || this.#first === entry;
  }

  #unlink(entry: Expiring): void {
    const { earlier, later } = entry;
    if (earlier === null) this.#first = later;
    else earlier.later = later;
    if (later === null) this.#last = earlier;
    else later.earlier = earlier;
    entry.earlier = null;
    entry.later = null;
    this.#size--;
  }

  #arm(deadline: number): void {
    clearTimeout(this.#timer);
    this.#armedFor = deadline;
    // Not unref'd: like the timer a read had of its own, it keeps the process up until answered.
    this.#timer = setTimeout(() => this.#fire(), Math.max(1, deadline - Date.now()));
  }

  #disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedFor = Infinity;
  }

  #fire(): void {
    this.#timer = undefined;
    this.#armedFor = Infinity;
    const now = Date.now();
    // Expired entries are taken out first and told after: telling one can take others out of
    // the list (the last waiter of a flight leaving settles the flight's other waiters).
    const expired: Expiring[] = [];
    let next = Infinity;
    for (let entry = this.#first; entry !== null; ) {
      const later: Expiring | null = entry.later;
      if (entry.deadline <= now) {
        this.#unlink(entry);
        expired.push(entry);
      } else if (entry.deadline < next) next = entry.deadline;
      entry = later;
    }
    if (next !== Infinity) this.#arm(next);
    // Every expired entry is told, even if telling one throws: it is out of the list already.
    let failure: { error: unknown } | null = null;
    for (const entry of expired) {
      try {
        entry.expire();
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure !== null) throw failure.error;
  }
}

/**
 * Waits for `work` at most `ms`: true when it was fulfilled in time; its rejection is passed on. For
 * shutdowns that must not hang on a thread stuck in a system call. The timer is cleared once
 * either side wins; `keepAlive: false` lets the process exit while it runs.
 */
export async function settlesWithin(work: Promise<unknown>, ms: number, { keepAlive }: { keepAlive: boolean }): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    if (!keepAlive) timer.unref();
  });
  try {
    return await Promise.race([work.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}
