/**
 * 9. an agent session, scripted: 20 source files read twice, the 18 MB PNG, pages 1-3 of the
 * PDF, the minified file, the head of the 200 MB log, one session throughout. Total bytes and
 * estimated tokens returned to the model, and how many steps came back with what was asked
 * (an error, a refusal or an unsupported request delivers nothing).
 */
import { LoopDelayProbe } from '../../event-loop.js';
import type { Row } from '../measure.js';
import { payloadBytes, Unsupported, type Payload, type System } from '../system.js';
import { spread, withSystem, type Context } from './context.js';
import { BUDGET_BYTES, tokensOf } from './tokens.js';

interface Step {
  readonly label: string;
  readonly run: (system: System) => Promise<Payload>;
}

export async function session(context: Context): Promise<Row[]> {
  const { corpus } = context;
  const session = 'agent-1';
  const files = spread(corpus.tree, 20);
  const readFiles = files.map((file): Step => ({ label: 'source file', run: (s) => s.read(file, {}, session) }));
  const steps: Step[] = [
    ...readFiles,
    ...readFiles,
    { label: 'PNG photo', run: (s) => s.media(corpus.png) },
    { label: 'PDF pages 1-3', run: (s) => s.media(corpus.pdf, '1-3') },
    { label: 'minified file', run: (s) => s.read(corpus.minified, {}, session) },
    { label: '200 MB log head', run: (s) => s.read(corpus.largeLog, { limit: 2000 }, session) },
  ];
  const { value, extraRssMiB } = await withSystem(context, async (system) => {
    const probe = new LoopDelayProbe();
    const failed: string[] = [];
    let undelivered = 0;
    let bytes = 0;
    let tokens = 0;
    probe.start();
    const start = performance.now();
    for (const step of steps) {
      const before = failed.length;
      try {
        const payload = await step.run(system);
        if (payload.isError) failed.push(`${step.label}: ${payload.preview.slice(0, 80)}`);
        if (payloadBytes(payload) > BUDGET_BYTES) failed.push(`${step.label}: ${payloadBytes(payload)} bytes, over the 5 MB budget`);
        bytes += payloadBytes(payload);
        tokens += await tokensOf(payload);
      } catch (error) {
        failed.push(`${step.label}: ${error instanceof Unsupported ? 'unsupported, ' : ''}${error instanceof Error ? error.message : String(error)}`);
      }
      if (failed.length > before) undelivered++;
    }
    const wallMs = performance.now() - start;
    return { wallMs, loop: probe.stop(), failed, undelivered, bytes, tokens };
  });
  const delivered = steps.length - value.undelivered;
  return [
    {
      scenario: '9 agent session',
      case: `${steps.length} scripted calls`,
      system: context.name,
      status: 'ok',
      unit: 'sessions',
      ops: steps.length,
      medianMs: value.wallMs,
      perSecond: 1000 / value.wallMs,
      bytes: value.bytes,
      tokens: value.tokens,
      loopP99Ms: value.loop.p99,
      errors: value.undelivered,
      ...(value.failed.length === 0 ? {} : { reason: `${delivered}/${steps.length} calls delivered; ${[...new Set(value.failed)].join('; ')}` }),
      serverRssMiB: extraRssMiB,
    },
  ];
}
