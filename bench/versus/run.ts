/**
 * The side-by-side comparison: every scenario against every system, each (system, scenario)
 * in a measured child process; then bench/results/latest.json (every figure and the machine)
 * and bench/results/latest.md (tables and SVG charts). `npm run bench` runs it after the engine
 * scenarios; alone:
 *
 *   node --expose-gc dist/bench/versus/run.js [--quick] [--systems a,b] [--scenarios x,y]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runMeasured } from '../child.js';
import { ensurePeers, peerVersions } from '../compat/peers.js';
import { prepareCorpus, warmCorpus } from './corpus.js';
import { SCENARIOS, SYSTEMS, type SystemEntry } from './catalog.js';
import { mcpRows } from './mcp.js';
import type { Row } from './measure.js';
import { writeResults } from './results.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const projectRoot = path.resolve(here, '../../..');
const log = (line: string) => process.stderr.write(`[versus ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

export interface VersusOptions {
  readonly quick: boolean;
  readonly systems?: readonly string[];
  readonly scenarios?: readonly string[];
  /** what the engine scenarios of the same run wrote (the MCP one among them), kept in latest.json */
  readonly engine?: { readonly reports: readonly { scenario: string; figures?: unknown }[] };
}

/** Why the bench/peers packages cannot be used, or null when they can. */
function peersProblem(): string | null {
  try {
    ensurePeers();
    return null;
  } catch (error) {
    return `bench/peers could not be installed or loaded: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`;
  }
}

/** Runs `scenarios` for one system in a measured child; a child that fails becomes rows that say why. */
function runChild(systemKey: string, system: SystemEntry, scenarios: readonly string[], quick: boolean, problem: string | null): Row[] {
  const titles = scenarios.map((key) => SCENARIOS[key]?.title ?? key);
  const failed = (reason: string) => titles.map((title): Row => ({ scenario: title, case: 'all', system: system.name, status: 'failed', unit: '', reason }));
  if (system.peer && problem !== null) return failed(problem);
  const started = performance.now();
  const args = ['--expose-gc', path.join(here, 'child.js'), systemKey, scenarios.join(','), ...(quick ? ['--quick'] : [])];
  try {
    const child = runMeasured(args, projectRoot, path.join(here, '../rss-preload.js'));
    const tagged = /VERSUS_ROWS (\[.*\])/.exec(child.stdout);
    if (tagged?.[1] === undefined) throw new Error('the child printed no rows');
    return (JSON.parse(tagged[1]) as Row[]).map((row) => ({ ...row, peakRssMiB: child.maxRssMiB + (row.serverRssMiB ?? 0) }));
  } catch (error) {
    return failed((error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 400));
  } finally {
    log(`${titles.join(', ')} / ${system.name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

function versions(): Record<string, string> {
  try {
    return peerVersions();
  } catch {
    return {};
  }
}

export async function runVersus(options: VersusOptions): Promise<void> {
  const started = performance.now();
  const corpus = await prepareCorpus(projectRoot, log);
  warmCorpus(corpus);
  // The tree's paths are too long for one environment variable: the child reads them from a file.
  const corpusFile = path.join(corpus.root, 'corpus.json');
  fs.writeFileSync(corpusFile, JSON.stringify(corpus));
  process.env.VERSUS_CORPUS = corpusFile;
  const problem = peersProblem();
  if (problem !== null) log(problem);
  const rows: Row[] = [];
  const systemKeys = options.systems ?? Object.keys(SYSTEMS);
  const scenarioKeys = options.scenarios ?? [...Object.keys(SCENARIOS), 'mcp'];
  const childScenarios = scenarioKeys.filter((key) => key !== 'mcp');
  for (const key of childScenarios) if (SCENARIOS[key] === undefined) throw new Error(`unknown scenario ${key}`);
  // A full run gives each (system, scenario) its own process, so peak RSS is per scenario; a
  // quick run one process per system (RSS per system), to spare the start-ups.
  const batches = options.quick ? [childScenarios] : childScenarios.map((key) => [key]);
  for (const batch of batches) {
    if (batch.length === 0) continue;
    for (const systemKey of systemKeys) {
      const system = SYSTEMS[systemKey];
      if (system === undefined) throw new Error(`unknown system ${systemKey}`);
      rows.push(...runChild(systemKey, system, batch, options.quick, problem));
    }
  }
  if (scenarioKeys.includes('mcp')) {
    log('8 MCP: readpool serve vs the official server');
    rows.push(...(await mcpRows(projectRoot, options.quick, options.engine?.reports, problem)));
  }
  const sorted = [...rows].sort((a, b) => a.scenario.localeCompare(b.scenario, 'en', { numeric: true }));
  const machine = {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
  const markdown = writeResults(projectRoot, {
    date: new Date().toISOString(),
    mode: options.quick ? 'quick' : 'full',
    seconds: (performance.now() - started) / 1000,
    machine,
    versions: problem === null ? versions() : {},
    rows: sorted,
    ...(options.engine === undefined ? {} : { engine: options.engine }),
  });
  // Every table on the terminal, as the engine scenarios print theirs; the charts are in the files.
  process.stdout.write(`\n${markdown.split('\n').filter((line) => !line.startsWith('![')).join('\n')}\n`);
  log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s: bench/results/latest.json and latest.md`);
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, systems: { type: 'string' }, scenarios: { type: 'string' } } });
  await runVersus({
    quick: values.quick,
    ...(values.systems === undefined ? {} : { systems: values.systems.split(',') }),
    ...(values.scenarios === undefined ? {} : { scenarios: values.scenarios.split(',') }),
  });
}
