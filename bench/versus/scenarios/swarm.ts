/**
 * 5. swarm: 256 agents at once over the same tree, each reading the same files in its own
 * seeded order; one fresh instance, one pass. An MCP server is one connection shared by the
 * 256 agents (256 stdio servers would measure process start-up, see scenario 8).
 */
import { shuffled } from '../../stats.js';
import { measure, type Row } from '../measure.js';
import { spread, withSystem, type Context } from './context.js';

const AGENTS = 256;

export async function swarm(context: Context): Promise<Row[]> {
  const files = spread(context.corpus.tree, context.quick ? 20 : 100);
  if (context.name === 'shell head/tail/sed') {
    const reason = 'a process spawned per read: 256 agents would measure process start-up (scenario 1 has its per-file rate)';
    return [{ scenario: '5 swarm', case: `${AGENTS} agents x ${files.length} files`, system: context.name, status: 'unsupported', unit: 'reads', reason }];
  }
  const orders = Array.from({ length: AGENTS }, (_, agent) => shuffled(files, agent + 1));
  const { value, extraRssMiB } = await withSystem(context, async (system) =>
    measure({
      scenario: '5 swarm',
      case: `${AGENTS} agents x ${files.length} files`,
      system: context.name,
      unit: 'reads',
      items: orders.flatMap((order, agent) => order.map((file) => ({ file, session: `agent-${agent}` }))),
      concurrency: AGENTS,
      passes: 1,
      warmup: false,
      op: ({ file, session }) => system.read(file, {}, session),
    }),
  );
  return [{ ...value, serverRssMiB: extraRssMiB }];
}
