/**
 * 1. batch: every file of the source tree, its first 2000 lines, at concurrency 1 and 64, each
 * pass by a fresh instance (readpool's result cache holds nothing of them: scenario 4 measures
 * re-reads). The shell adds one reference pass: `cat` of every file to /dev/null in one
 * process; its own rows (a `head` spawned per file) are measured on a sample of the files.
 */
import { spawnSync } from 'node:child_process';
import type { Row } from '../measure.js';
import { measureCold, warmOnTree, spread, type Context } from './context.js';

/** A process spawned per file costs milliseconds: the shell reads a sample, its rate still per file. */
const SHELL_FILES = 150;

export async function batch(context: Context): Promise<Row[]> {
  const all = spread(context.corpus.tree, context.quick ? 500 : context.corpus.tree.length);
  const shell = context.name === 'shell head/tail/sed';
  const files = shell ? spread(all, SHELL_FILES) : all;
  const rows: Row[] = [];
  for (const concurrency of [1, 64]) {
    rows.push(
      await measureCold(context, {
        scenario: '1 batch',
        case: `${all.length} source files, concurrency ${concurrency}`,
        unit: 'files',
        items: files,
        concurrency,
        reps: context.quick ? 1 : 5,
        passes: 1,
        warm: (system) => warmOnTree(context, system),
        op: (system, file) => system.read(file, { limit: 2000 }),
      }),
    );
  }
  if (shell) rows.push(catReference(all, context.quick ? 1 : 3));
  return rows;
}

function catReference(files: readonly string[], passes: number): Row {
  const walls: number[] = [];
  for (let i = 0; i <= passes; i++) {
    const start = performance.now();
    const result = spawnSync('xargs', ['-0', 'cat'], { input: files.join('\0'), stdio: ['pipe', 'ignore', 'inherit'] });
    if (result.status !== 0) throw new Error(`xargs cat exited ${result.status}`);
    if (i > 0) walls.push(performance.now() - start);
  }
  walls.sort((a, b) => a - b);
  const wall = walls[Math.floor(walls.length / 2)] ?? NaN;
  return {
    scenario: '1 batch',
    case: `${files.length} source files, one process`,
    system: 'cat > /dev/null',
    status: 'ok',
    unit: 'files',
    ops: files.length,
    perSecond: files.length / (wall / 1000),
    bytes: 0,
    note: 'the floor: every file read once by one process, nothing returned',
  };
}
