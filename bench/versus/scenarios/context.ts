/** What every scenario gets: the corpus, the mode, and a way to start the system under test. */
import type { Corpus } from '../corpus.js';
import type { Row } from '../measure.js';
import type { System } from '../system.js';

export interface Context {
  readonly corpus: Corpus;
  readonly quick: boolean;
  /** the system's display name, known before it starts */
  readonly name: string;
  /** starts a fresh instance; `cache` turns readpool's result cache on (the others have none) */
  readonly start: (options: { cache: boolean }) => Promise<System>;
}

export type Scenario = (context: Context) => Promise<Row[]>;

/** `count` items spread evenly over `all` (all of them when count >= length). */
export function spread<T>(all: readonly T[], count: number): T[] {
  if (count >= all.length) return [...all];
  return Array.from({ length: count }, (_, i) => all[Math.floor((i * all.length) / count)] as T);
}

/** Starts a system, runs `work`, and always closes it; the server's RSS is kept for the row. */
export async function withSystem<T>(context: Context, cache: boolean, work: (system: System) => Promise<T>): Promise<{ value: T; extraRssMiB: number }> {
  const system = await context.start({ cache });
  try {
    const value = await work(system);
    await system.close();
    return { value, extraRssMiB: system.extraRssMiB?.() ?? 0 };
  } catch (error) {
    await system.close().catch(() => undefined);
    throw error;
  }
}
