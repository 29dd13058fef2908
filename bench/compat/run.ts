/**
 * `npm run compat`: readpool's dialects against the real tools they stand in for, on one fresh
 * fixture set (plain, CRLF, BOM, UTF-16, long lines, more than 2000 lines, windows, empty,
 * binary, image, missing, directory, too large, outside the root).
 *
 * - gemini-cli: the dialect's `read_file` against @google/gemini-cli-core's
 *   `processSingleFileContent` (body, truncation state and numbers, returnDisplay, error type).
 * - mcp-filesystem: the dialect's tools, called directly (`execute`) and through
 *   `readpool serve --dialect mcp-filesystem` over stdio, against the official server over stdio,
 *   both driven by the MCP SDK's own Client.
 *
 * One line per case: `same`, `differs (documented: why)` or `DIFFERS` with the first differing
 * line. Exits 1 if any difference is not on the documented list (`differences.ts`).
 *
 *   npm run compat [-- --only gemini|mcp] [--verbose]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
// From the package's entry, as the tools below: the build bundles the entries together, and an
// engine from the unbundled module would throw a ReadError class the tools do not know.
import { createEngine } from '../../src/index.js';
import { writeFixtures } from './fixtures.js';
import { geminiCases } from './gemini-diff.js';
import { mcpCases } from './mcp-diff.js';
import { ensurePeers, peerVersions, PROJECT_ROOT } from './peers.js';
import type { CaseOutcome } from './diff.js';

const { values } = parseArgs({
  options: { only: { type: 'string' }, verbose: { type: 'boolean', default: false } },
});

// gemini-cli-core's debug logger writes to console.log: keep stdout for the report.
const toStderr = (...args: unknown[]): void => {
  if (values.verbose) process.stderr.write(`${args.map(String).join(' ')}\n`);
};
console.log = toStderr;
console.debug = toStderr;
console.info = toStderr;

ensurePeers();
const versions = peerVersions();
process.stdout.write(`readpool compat: ${Object.entries(versions).map(([name, version]) => `${name} ${version}`).join(', ')}, node ${process.version}\n`);

const set = writeFixtures();
const engine = await createEngine({ root: set.root });
const outcomes: CaseOutcome[] = [];
const print = (outcome: CaseOutcome): void => {
  outcomes.push(outcome);
  // The fixture folder is fresh each run: name it the same way every time.
  if (outcome.reason !== undefined) outcome.reason = outcome.reason.replaceAll(set.base, '<tmp>');
  const verdict = outcome.status === 'same' ? 'same' : outcome.status === 'documented' ? `differs (documented: ${outcome.reason})` : `DIFFERS: ${outcome.reason}`;
  process.stdout.write(`${outcome.id.padEnd(72)} ${verdict}\n`);
};
try {
  if (values.only === undefined || values.only === 'gemini') {
    process.stdout.write('\n# gemini-cli dialect vs processSingleFileContent\n');
    for await (const outcome of geminiCases(engine, set)) print(outcome);
  }
  if (values.only === undefined || values.only === 'mcp') {
    process.stdout.write('\n# mcp-filesystem dialect (execute, and readpool serve over stdio) vs the official server over stdio\n');
    const cli = path.join(PROJECT_ROOT, 'dist/src/cli.cjs');
    for await (const outcome of mcpCases(engine, set, cli)) print(outcome);
  }
} finally {
  await engine.close();
  set.remove();
}

const count = (status: CaseOutcome['status']) => outcomes.filter((o) => o.status === status).length;
const undocumented = count('undocumented');
process.stdout.write(`\n${outcomes.length} cases: ${count('same')} same, ${count('documented')} documented differences, ${undocumented} undocumented differences\n`);
process.exitCode = undocumented === 0 ? 0 : 1;
