/**
 * Runs the real peer tools (Gemini CLI's read_file, the reference MCP filesystem server) on a
 * fresh fixture set and prints everything they answered as JSON on stdout. The dialects'
 * differential checks compare against this.
 *
 *   npm run build && node dist/bench/compat/probe.js [--keep] > peers.json
 *
 * Paths in the output are under `root` (a fresh temp folder each run); `--keep` leaves it.
 */
import { parseArgs } from 'node:util';
import { writeFixtures } from './fixtures.js';
import { probeGemini } from './gemini.js';
import { probeMcpFilesystem } from './mcp-filesystem.js';
import { ensurePeers, peerVersions } from './peers.js';

const { values } = parseArgs({ options: { keep: { type: 'boolean', default: false } } });

// gemini-cli-core's debugLogger writes to console.log/console.debug: keep stdout for the JSON.
const toStderr = (...args: unknown[]): void => {
  process.stderr.write(`${args.map(String).join(' ')}\n`);
};
console.log = toStderr;
console.debug = toStderr;
console.info = toStderr;

ensurePeers();
const set = writeFixtures();
try {
  const gemini = await probeGemini(set);
  const mcpFilesystem = await probeMcpFilesystem(set);
  const output = {
    date: new Date().toISOString(),
    node: process.version,
    versions: peerVersions(),
    base: set.base,
    root: set.root,
    outside: set.outside,
    fixtures: set.fixtures,
    gemini,
    mcpFilesystem,
  };
  process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
} finally {
  if (!values.keep) set.remove();
}
