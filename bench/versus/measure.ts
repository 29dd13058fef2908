/**
 * One row of the comparison (a system in one case of one scenario) and the loop that measures
 * it: every call timed, the pass timed, the host's event-loop delay watched, the bytes that
 * reached the model counted. A request the tool cannot express becomes a row that says why.
 */
import { forEachConcurrent, LoopDelayProbe } from '../event-loop.js';
import { collectGarbage, median, percentile } from '../stats.js';
import { payloadBytes, Unsupported, type Payload } from './system.js';

export interface Row {
  readonly scenario: string;
  readonly case: string;
  readonly system: string;
  /** ok; refused (every call answered an error); unsupported (the tool cannot express it); failed (it threw) */
  readonly status: 'ok' | 'refused' | 'unsupported' | 'failed';
  readonly reason?: string;
  /** what one operation is: files, reads, pages, calls */
  readonly unit: string;
  readonly ops?: number;
  readonly medianMs?: number;
  readonly p99Ms?: number;
  /** operations a second over a measured pass (median pass) */
  readonly perSecond?: number;
  /** bytes returned to the model in one pass: text as UTF-8, media as base64 */
  readonly bytes?: number;
  readonly loopP99Ms?: number;
  readonly errors?: number;
  readonly preview?: string;
  readonly fits5MB?: boolean;
  readonly tokens?: number;
  /** a figure estimated rather than measured, and how */
  readonly note?: string;
  /** an MCP server's own peak RSS, when the system runs one */
  readonly serverRssMiB?: number;
  /** filled in by the parent: the measured process's peak RSS plus the server's */
  readonly peakRssMiB?: number;
}

export interface Pass {
  readonly wallMs: number;
  readonly latencies: number[];
  readonly payloads: Payload[];
}

/** Calls `op` on every item at `concurrency`; the payloads are kept in item order. */
export async function pass<T>(items: readonly T[], concurrency: number, op: (item: T, index: number) => Promise<Payload>): Promise<Pass> {
  const latencies: number[] = [];
  const payloads: Payload[] = new Array<Payload>(items.length);
  const indexed = items.map((item, index) => ({ item, index }));
  const start = performance.now();
  await forEachConcurrent(indexed, concurrency, async ({ item, index }) => {
    const callStart = performance.now();
    payloads[index] = await op(item, index);
    latencies.push(performance.now() - callStart);
  });
  return { wallMs: performance.now() - start, latencies, payloads };
}

export interface Plan<T> {
  readonly scenario: string;
  readonly case: string;
  readonly system: string;
  readonly unit: string;
  readonly items: readonly T[];
  readonly concurrency: number;
  readonly passes: number;
  readonly warmup: boolean;
  readonly op: (item: T, index: number) => Promise<Payload>;
}

/** Measures a plan into a row; Unsupported and thrown errors become rows that say so. */
export async function measure<T>(plan: Plan<T>): Promise<Row> {
  return measureFresh({ ...plan, reps: 1, start: () => Promise.resolve({ plan, stop: () => Promise.resolve() }) });
}

export interface FreshPlan<T> extends Omit<Plan<T>, 'op'> {
  /** measured instances: each starts, runs its warm-up and `passes` passes, and stops */
  readonly reps: number;
  readonly start: () => Promise<{ plan: Pick<Plan<T>, 'op'>; stop: () => Promise<void> }>;
}

/**
 * Like `measure`, over `reps` fresh instances, so no pass finds what an earlier one cached
 * (readpool runs with its defaults: its result cache is on, in-process and as a server).
 */
export async function measureFresh<T>(plan: FreshPlan<T>): Promise<Row> {
  const head = { scenario: plan.scenario, case: plan.case, system: plan.system, unit: plan.unit };
  try {
    const passes: Pass[] = [];
    const delays: number[] = [];
    const probe = new LoopDelayProbe();
    for (let rep = 0; rep < plan.reps; rep++) {
      const { plan: instance, stop } = await plan.start();
      try {
        if (plan.warmup) await pass(plan.items, plan.concurrency, instance.op);
        for (let i = 0; i < plan.passes; i++) {
          collectGarbage();
          probe.start();
          passes.push(await pass(plan.items, plan.concurrency, instance.op));
          delays.push(probe.stop().p99);
        }
      } finally {
        await stop();
      }
    }
    return rowOf(head, passes, Math.max(...delays));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ...head, status: error instanceof Unsupported ? 'unsupported' : 'failed', reason };
  }
}

/** A row from measured passes: latency over every call, rate over the median pass, bytes of the last. */
export function rowOf(head: Pick<Row, 'scenario' | 'case' | 'system' | 'unit'>, passes: readonly Pass[], loopP99Ms: number): Row {
  const latencies = passes.flatMap((p) => p.latencies);
  const last = passes[passes.length - 1]?.payloads ?? [];
  const errors = last.filter((p) => p.isError).length;
  const ops = last.length;
  const base = {
    ...head,
    ops,
    medianMs: median(latencies),
    p99Ms: percentile(latencies, 99),
    perSecond: ops / (median(passes.map((p) => p.wallMs)) / 1000),
    bytes: last.reduce((sum, p) => sum + payloadBytes(p), 0),
    loopP99Ms,
    errors,
    preview: (last.find((p) => p.isError) ?? last[0])?.preview ?? '',
  };
  if (ops > 0 && errors === ops) return { ...base, status: 'refused', reason: base.preview };
  return { ...base, status: 'ok' };
}
