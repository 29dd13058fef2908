import fs from 'node:fs';

/**
 * CPU time of the main thread alone, in milliseconds: the host-thread cost of reads, which
 * sets the engine's ceiling (1 000 000 / µs-per-read reads a second, whatever the cores).
 *
 * Node 20 has no `process.threadCpuUsage()`, and `process.cpuUsage()` counts every thread of
 * the process, workers included. On Linux the main thread's id is the process id, and
 * `/proc/self/task/<pid>/schedstat` holds that thread's own time on a CPU in nanoseconds (its
 * first field); `stat`'s utime + stime would do too, but in 10 ms ticks. Elsewhere the figure
 * falls back to the process-wide `cpuUsage()` and says so through `THREAD_CPU_SOURCE`.
 */
const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;

function readSchedstat(): number | null {
  try {
    const first = fs.readFileSync(SCHEDSTAT, 'latin1').split(' ', 1)[0];
    const ns = Number(first);
    return Number.isFinite(ns) ? ns / 1e6 : null;
  } catch {
    return null;
  }
}

export const THREAD_CPU_SOURCE: 'schedstat' | 'process' = readSchedstat() === null ? 'process' : 'schedstat';

export function mainThreadCpuMs(): number {
  if (THREAD_CPU_SOURCE === 'schedstat') return readSchedstat() ?? NaN;
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const STAT = `/proc/self/task/${process.pid}/stat`;

/**
 * The main thread's minor page faults so far (Linux; NaN elsewhere): the tenth field after the
 * command name in `/proc/self/task/<pid>/stat`. A first touch of a page costs about 15 µs on the
 * project's 2-core VM, where bare metal takes well under 1, so the bench gives the faults a read
 * beside the CPU a read: they tell that machine's cost from the engine's.
 */
export function mainThreadFaults(): number {
  try {
    const stat = fs.readFileSync(STAT, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]);
  } catch {
    return NaN;
  }
}

/** Adds up the main thread's CPU time and page faults over measured spans, and the reads they answered. */
export class HostCpuMeter {
  #ms = 0;
  #faults = 0;
  #reads = 0;

  async measure<T>(reads: number, work: () => Promise<T>): Promise<T> {
    const faults = mainThreadFaults();
    const start = mainThreadCpuMs();
    const value = await work();
    this.#ms += mainThreadCpuMs() - start;
    this.#faults += mainThreadFaults() - faults;
    this.#reads += reads;
    return value;
  }

  /** Microseconds of main-thread CPU per answered read (NaN before any). */
  get usPerRead(): number {
    return this.#reads === 0 ? NaN : (this.#ms * 1000) / this.#reads;
  }

  /** The main thread's minor page faults per answered read (NaN before any, or off Linux). */
  get faultsPerRead(): number {
    return this.#reads === 0 ? NaN : this.#faults / this.#reads;
  }
}
