/**
 * `npm run bench`: runs the scenarios, prints each with its ratios against the baselines
 * measured in the same run, and writes the figures to bench/results/latest.json.
 *
 *   node dist/bench/run.js [--only NAME[,NAME]] [--rounds N] [--threads LIST] [--concurrency N] [--cores N] [--out NAME] [--quick]
 *
 * `--threads 1,2,4,8,15` sweeps the source-tree scenario's engine and bare-worker reference over
 * those thread counts (default: the engine's default for the cores). `--cores 64` tells its engines the machine has 64
 * cores, to see what the scheduler does there. `--out` names the JSON file (default latest.json).
 * Then, unless --only names engine scenarios, readpool beside the real peer tools
 * (bench/versus), which writes latest.json again with everything and latest.md. --quick runs
 * only that comparison, with fewer files and passes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatReport, type ScenarioReport } from './report.js';
import { fairness } from './scenarios/fairness.js';
import { largeFile } from './scenarios/large-file.js';
import { largeReads } from './scenarios/large-reads.js';
import { mcp } from './scenarios/mcp.js';
import { media } from './scenarios/media.js';
import { pagination } from './scenarios/pagination.js';
import { encodings } from './scenarios/encodings.js';
import { reread } from './scenarios/reread.js';
import { slicerMicro } from './scenarios/slicer-micro.js';
import { DEFAULT_CONCURRENCY, sourceTree } from './scenarios/source-tree.js';
import { startUp } from './scenarios/start-up.js';
import { swarm } from './scenarios/swarm.js';
import { runVersus } from './versus/run.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const SCENARIOS: Record<string, (rounds: number) => Promise<ScenarioReport>> = {
  'source-tree': (rounds) => sourceTree(projectRoot, rounds, threads, concurrency, cores),
  'start-up': () => startUp(projectRoot),
  'slicer-micro': () => slicerMicro(projectRoot),
  'large-file': () => largeFile(projectRoot),
  'large-reads': (rounds) => largeReads(projectRoot, rounds),
  swarm: (rounds) => swarm(projectRoot, rounds),
  pagination: (rounds) => pagination(projectRoot, rounds),
  're-read': () => reread(projectRoot),
  fairness: (rounds) => fairness(projectRoot, rounds),
  media: () => media(projectRoot),
  mcp: (rounds) => mcp(projectRoot, rounds),
  encodings: (rounds) => encodings(projectRoot, rounds),
};

const USAGE = `usage: node dist/bench/run.js [--only NAME[,NAME]] [--rounds N] [--threads LIST] [--concurrency N] [--cores N] [--out NAME] [--quick]
  --only         scenarios to run: ${Object.keys(SCENARIOS).join(', ')} (default: all, then the peers)
  --rounds       interleaved rounds a scenario runs (default 6)
  --threads      thread counts for the source-tree scenario, like 1,2,4,8,15 (default: the engine's default for the cores)
  --concurrency  reads in flight in the source-tree scenario (default ${DEFAULT_CONCURRENCY}; a many-core sweep wants 256)
  --cores        the cores the source-tree scenario's engines are told of (default: what Node sees)
  --out          the JSON file in bench/results (default latest.json)
  --quick        only readpool beside the peers, with fewer files and passes
`;

function parseOptions() {
  try {
    return parseArgs({
      options: {
        only: { type: 'string' },
        rounds: { type: 'string', default: '6' },
        threads: { type: 'string' },
        concurrency: { type: 'string', default: String(DEFAULT_CONCURRENCY) },
        cores: { type: 'string' },
        out: { type: 'string', default: 'latest.json' },
        quick: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
}
const { values } = parseOptions();
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const threads = values.threads?.split(',').map(Number);
if (threads?.some((count) => !Number.isInteger(count) || count < 1)) throw new Error(`--threads takes whole numbers, like 1,2,4 (received ${values.threads})`);
const concurrency = Number(values.concurrency);
if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`--concurrency takes a whole number, like 256 (received ${values.concurrency})`);
const cores = values.cores === undefined ? undefined : Number(values.cores);
if (cores !== undefined && (!Number.isInteger(cores) || cores < 1)) throw new Error(`--cores takes a whole number, like 64 (received ${values.cores})`);
const names = values.only !== undefined ? values.only.split(',') : values.quick ? [] : Object.keys(SCENARIOS);
const rounds = Number(values.rounds);

const reports: ScenarioReport[] = [];
for (const name of names) {
  const scenario = SCENARIOS[name];
  if (scenario === undefined) throw new Error(`unknown scenario ${name}; known: ${Object.keys(SCENARIOS).join(', ')}`);
  process.stdout.write(`running ${name} ...\n`);
  const report = await scenario(rounds);
  reports.push(report);
  process.stdout.write(`${formatReport(report)}\n`);
}

const output = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: (await import('node:os')).availableParallelism(),
  reports,
};
const file = path.join(projectRoot, 'bench/results', values.out);
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, `${JSON.stringify(output, null, 2)}\n`);
process.stdout.write(`\nfigures written to bench/results/${values.out}\n`);
if (values.only === undefined) await runVersus({ quick: values.quick, engine: output });
