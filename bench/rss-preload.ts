/**
 * Preloaded into a measured child (`node --import`): on exit, writes the process's peak RSS
 * (main and worker threads together) to stderr as one tagged JSON line.
 *
 * On Linux the peak is /proc/self/status's VmHWM: `getrusage`'s maxRSS survives execve, so a
 * child spawned by a large parent reports the parent's peak as its own (a child of a 400 MiB
 * parent read 403 MiB where VmHWM read 39).
 */
import { readFileSync, writeSync } from 'node:fs';

function peakKiB(): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match?.[1] !== undefined) return Number(match[1]);
  } catch {
    // not Linux: getrusage below
  }
  return process.resourceUsage().maxRSS;
}

process.on('exit', () => {
  writeSync(2, `\nREADPOOL_RSS ${JSON.stringify({ maxRssKiB: peakKiB() })}\n`);
});
