import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/** What a measured child process left behind: its wall time, peak RSS and standard output. */
export interface ChildRun {
  readonly ms: number;
  readonly maxRssMiB: number;
  readonly stdout: string;
}

/**
 * Runs `node ARGS` in a child with `preload` (bench/rss-preload) imported first, so its peak
 * RSS (main and worker threads together) is its own, with no other scenario's garbage in it.
 */
export function runMeasured(args: readonly string[], cwd: string, preload: string): ChildRun {
  const started = performance.now();
  const child = spawnSync(process.execPath, ['--import', pathToFileURL(preload).href, ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - started;
  const tagged = /READPOOL_RSS (\{.*\})/.exec(child.stderr);
  if (child.status !== 0 || tagged?.[1] === undefined) {
    throw new Error(`measured child failed (${child.status}): ${child.stderr.slice(0, 2000)}`);
  }
  const { maxRssKiB } = JSON.parse(tagged[1]) as { maxRssKiB: number };
  return { ms, maxRssMiB: maxRssKiB / 1024, stdout: child.stdout };
}
