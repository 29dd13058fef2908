/**
 * Preloaded into a measured child (`node --import`): on exit, writes the process's peak RSS
 * (main and worker threads together) to stderr as one tagged JSON line.
 */
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(2, `\nREADPOOL_RSS ${JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS })}\n`);
});
