/** What every scenario gets: the corpus, the mode, and a way to start the system under test. */
import type { Corpus } from '../corpus.js';
import { measureFresh, pass, type Plan, type Row } from '../measure.js';
import type { Payload, System } from '../system.js';

export interface Context {
  readonly corpus: Corpus;
  readonly quick: boolean;
  /** the system's display name, known before it starts */
  readonly name: string;
  /** starts a fresh instance with its defaults */
  readonly start: () => Promise<System>;
}

export type Scenario = (context: Context) => Promise<Row[]>;

/** `count` items spread evenly over `all` (all of them when count >= length). */
export function spread<T>(all: readonly T[], count: number): T[] {
  if (count >= all.length) return [...all];
  return Array.from({ length: count }, (_, i) => all[Math.floor((i * all.length) / count)] as T);
}

/** Starts a system, runs `work`, and always closes it; the server's RSS is kept for the row. */
export async function withSystem<T>(context: Context, work: (system: System) => Promise<T>): Promise<{ value: T; extraRssMiB: number }> {
  const system = await context.start();
  try {
    const value = await work(system);
    await system.close();
    return { value, extraRssMiB: system.extraRssMiB?.() ?? 0 };
  } catch (error) {
    await system.close().catch(() => undefined);
    throw error;
  }
}

/**
 * A fresh instance's warm-up: one read of each of the 2 000 unmeasured files of the tree, so its
 * code is compiled, in readpool's case on its new worker threads too (a fresh engine's first
 * 2 000 reads ran at a third of its later rate).
 */
export async function warmOnTree(context: Context, system: System): Promise<void> {
  // A process per call has nothing to warm.
  if (context.name === 'shell head/tail/sed') return;
  await pass(context.corpus.warmTree, 64, (file) => system.read(file, { limit: 2000 }));
}

export interface ColdPlan<T> extends Omit<Plan<T>, 'op' | 'system' | 'warmup'> {
  readonly reps: number;
  /** one call on a file outside the measured set: the instance is started, its caches hold nothing measured */
  readonly warm: (system: System) => Promise<unknown>;
  readonly op: (system: System, item: T) => Promise<Payload>;
}

/**
 * `reps` fresh instances, each warmed on another file and then measured over `passes` passes:
 * the reads are the first of those files by that instance, with the page cache warm.
 */
export async function measureCold<T>(context: Context, plan: ColdPlan<T>): Promise<Row> {
  let serverRssMiB = 0;
  const row = await measureFresh({
    ...plan,
    system: context.name,
    warmup: false,
    start: async () => {
      const system = await context.start();
      await plan.warm(system);
      return {
        plan: { op: (item: T) => plan.op(system, item) },
        stop: async () => {
          await system.close();
          serverRssMiB = Math.max(serverRssMiB, system.extraRssMiB?.() ?? 0);
        },
      };
    },
  });
  return { ...row, serverRssMiB };
}
