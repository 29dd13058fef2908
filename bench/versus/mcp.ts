/**
 * 8. MCP: readpool serve against the official filesystem server over stdio, both driven by the
 * SDK Client: one read_multiple_files of 500 files, 200 read_text_file at concurrency 16, and
 * spawn to first answer. The figures are the lead's `measureMcpSpeed` (bench/compat/mcp-speed);
 * when the engine scenarios of the same run measured them already, they are reused.
 */
import { measureMcpSpeed, type McpSpeedFigures, type McpSystem } from '../compat/mcp-speed.js';
import { OFFICIAL_MCP, READPOOL_MCP } from './catalog.js';
import type { Row } from './measure.js';

const SCENARIO = '8 MCP';
const NAMES: Record<McpSystem, string> = { 'readpool serve': READPOOL_MCP, 'official server': OFFICIAL_MCP };

export async function mcpRows(
  projectRoot: string,
  quick: boolean,
  engineReports: readonly { scenario: string; figures?: unknown }[] | undefined,
  peersProblem: string | null,
): Promise<Row[]> {
  let figures = engineReports?.find((report) => report.scenario === 'mcp')?.figures as McpSpeedFigures | undefined;
  if (figures === undefined) {
    if (peersProblem !== null) {
      return [{ scenario: SCENARIO, case: 'all', system: OFFICIAL_MCP, status: 'failed', unit: '', reason: peersProblem }];
    }
    try {
      figures = await measureMcpSpeed(projectRoot, quick ? 1 : 3, (line) => process.stderr.write(`  mcp: ${line}\n`));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return [{ scenario: SCENARIO, case: 'all', system: OFFICIAL_MCP, status: 'failed', unit: '', reason }];
    }
  }
  const rows: Row[] = [];
  for (const [system, f] of Object.entries(figures.systems) as [McpSystem, McpSpeedFigures['systems'][McpSystem]][]) {
    const name = NAMES[system];
    rows.push(
      {
        scenario: SCENARIO,
        case: `read_multiple_files of ${figures.files} files`,
        system: name,
        status: 'ok',
        unit: 'files',
        ops: figures.files,
        medianMs: f.multipleMs,
        perSecond: figures.files / (f.multipleMs / 1000),
        bytes: f.multipleBytes,
      },
      {
        scenario: SCENARIO,
        case: '200 read_text_file, concurrency 16',
        system: name,
        status: 'ok',
        unit: 'calls',
        ops: 200,
        medianMs: f.singleP50Ms,
        p99Ms: f.singleP99Ms,
        perSecond: f.singleFilesPerSecond,
      },
      {
        scenario: SCENARIO,
        case: 'spawn to first answered call',
        system: name,
        status: 'ok',
        unit: 'starts',
        ops: figures.passes,
        medianMs: f.firstCallMs,
        perSecond: 1000 / f.firstCallMs,
        note: `handshake done at ${Math.round(f.connectMs)} ms; node -e 0 takes ${Math.round(figures.bareNodeMs)} ms`,
      },
    );
  }
  return rows;
}
