/**
 * One system in one or more scenarios, in a process of its own, so its peak RSS is its own:
 * started by bench/versus/run with bench/rss-preload, the corpus described by the JSON file
 * that VERSUS_CORPUS names. Prints its rows as one tagged JSON line on stdout.
 *
 *   node --import <rss-preload> dist/bench/versus/child.js SYSTEM SCENARIO[,SCENARIO] [--quick]
 */
import fs from 'node:fs';
import { SCENARIOS, SYSTEMS } from './catalog.js';
import type { Corpus } from './corpus.js';
import type { Row } from './measure.js';

const [systemKey = '', scenarioKeys = '', flag] = process.argv.slice(2);
const system = SYSTEMS[systemKey];
if (system === undefined) throw new Error(`unknown system ${systemKey}`);
const corpus = JSON.parse(fs.readFileSync(process.env.VERSUS_CORPUS ?? '', 'utf8')) as Corpus;
const rows: Row[] = [];
for (const key of scenarioKeys.split(',')) {
  const scenario = SCENARIOS[key];
  if (scenario === undefined) throw new Error(`unknown scenario ${key}`);
  try {
    rows.push(...(await scenario.run({ corpus, quick: flag === '--quick', name: system.name, start: () => system.start(corpus.root) })));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    rows.push({ scenario: scenario.title, case: 'all', system: system.name, status: 'failed', unit: '', reason });
  }
  process.stderr.write(`  ${system.name}: ${scenario.title} done\n`);
}
process.stdout.write(`\nVERSUS_ROWS ${JSON.stringify(rows)}\n`);
