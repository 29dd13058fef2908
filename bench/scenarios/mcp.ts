import { measureMcpSpeed, type McpSpeedFigures } from '../compat/mcp-speed.js';
import type { Measurement, ScenarioReport } from '../report.js';

const READY_MS = 300;

/**
 * readpool serve (mcp-filesystem dialect) against the official MCP filesystem server, both over
 * stdio and driven by the same SDK Client: readiness after spawning, read_multiple_files of 500
 * source files, 200 read_text_file calls at concurrency 16. The peer is installed on demand in
 * bench/peers.
 */
export async function mcp(projectRoot: string, rounds: number): Promise<ScenarioReport & { figures: McpSpeedFigures }> {
  const figures = await measureMcpSpeed(projectRoot, Math.max(3, rounds), (line) => process.stderr.write(`  mcp: ${line}\n`));
  const ours = figures.systems['readpool serve'];
  const theirs = figures.systems['official server'];
  const measurements: Measurement[] = [
    { label: 'node -e 0', metrics: { wallMs: figures.bareNodeMs } },
    ...Object.entries(figures.systems).map(([label, metrics]) => ({ label, metrics })),
  ];
  const multipleRatio = theirs.multipleMs / ours.multipleMs;
  const singleRatio = ours.singleFilesPerSecond / theirs.singleFilesPerSecond;
  return {
    scenario: 'mcp',
    description: `readpool serve vs the official MCP filesystem server over stdio (${figures.files} files, ${figures.passes} passes)`,
    measurements,
    targets: [
      { name: 'read_multiple_files of 500 files: official ms / readpool ms', value: multipleRatio, goal: '> 1', met: multipleRatio > 1 },
      { name: '200 read_text_file at concurrency 16: readpool files/s / official', value: singleRatio, goal: '> 1', met: singleRatio > 1 },
      { name: 'readpool serve: spawn to first answered call, ms', value: ours.firstCallMs, goal: `<= ${READY_MS}`, met: ours.firstCallMs <= READY_MS },
    ],
    figures,
  };
}
