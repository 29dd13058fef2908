/** Something with a deadline (`Date.now()` scale) that is told when it passes. */
export interface Expiring {
  readonly deadline: number;
  expire(): void;
}

/**
 * Deadlines of many waiting reads on one timer, armed for the earliest. A timer per read costs
 * more than the read's whole host-side work (a timer object, a list insertion, a clear); here a
 * read costs a set insertion and removal. When the timer fires, expired entries are told and the
 * timer is armed again for the earliest left: that scan is over the reads waiting, and happens
 * once per deadline reached, not per read.
 */
export class Deadlines {
  readonly #entries = new Set<Expiring>();
  #timer: NodeJS.Timeout | undefined;
  #armedFor = Infinity;

  add(entry: Expiring): void {
    this.#entries.add(entry);
    if (entry.deadline < this.#armedFor) this.#arm(entry.deadline);
  }

  delete(entry: Expiring): void {
    this.#entries.delete(entry);
    if (this.#entries.size === 0) this.#disarm();
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
    let next = Infinity;
    for (const entry of this.#entries) {
      if (entry.deadline <= now) {
        this.#entries.delete(entry);
        entry.expire();
      } else if (entry.deadline < next) next = entry.deadline;
    }
    if (next !== Infinity) this.#arm(next);
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
