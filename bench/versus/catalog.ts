/** The systems compared and the scenarios they run, by the keys the child process takes. */
import { geminiSystem } from './drivers/gemini.js';
import { mcpSystem } from './drivers/mcp.js';
import { piSystem } from './drivers/pi.js';
import { readpoolSystem } from './drivers/readpool.js';
import { naiveSystem, shellSystem } from './drivers/reference.js';
import { batch } from './scenarios/batch.js';
import type { Scenario } from './scenarios/context.js';
import { media } from './scenarios/media.js';
import { minified } from './scenarios/minified.js';
import { pagination } from './scenarios/pagination.js';
import { reread } from './scenarios/reread.js';
import { session } from './scenarios/session.js';
import { swarm } from './scenarios/swarm.js';
import { windows } from './scenarios/windows.js';
import type { System } from './system.js';

export interface SystemEntry {
  readonly name: string;
  /** whether it comes from bench/peers (installed on demand) */
  readonly peer: boolean;
  readonly start: (root: string) => Promise<System>;
}

export const READPOOL = 'readpool';
export const READPOOL_MCP = 'readpool serve (MCP)';
export const OFFICIAL_MCP = 'MCP official server';

export const SYSTEMS: Record<string, SystemEntry> = {
  readpool: { name: READPOOL, peer: false, start: (root) => readpoolSystem(root) },
  gemini: { name: 'gemini-cli-core', peer: true, start: (root) => geminiSystem(root) },
  pi: { name: 'pi-coding-agent', peer: true, start: (root) => piSystem(root) },
  'mcp-official': { name: OFFICIAL_MCP, peer: true, start: (root) => mcpSystem('official server', root) },
  'mcp-readpool': { name: READPOOL_MCP, peer: false, start: (root) => mcpSystem('readpool serve', root) },
  naive: { name: 'naive fs reader', peer: false, start: () => Promise.resolve(naiveSystem()) },
  shell: { name: 'shell head/tail/sed', peer: false, start: () => Promise.resolve(shellSystem()) },
};

export const SCENARIOS: Record<string, { title: string; run: Scenario }> = {
  batch: { title: '1 batch', run: batch },
  windows: { title: '2 large-log windows', run: windows },
  pagination: { title: '3 pagination', run: pagination },
  reread: { title: '4 re-read', run: reread },
  swarm: { title: '5 swarm', run: swarm },
  media: { title: '6 images and PDFs', run: media },
  minified: { title: '7 minified line', run: minified },
  session: { title: '9 agent session', run: session },
};
