/**
 * The stat thread (see `StatLane` in src/io/stat-lane.ts): stats each path of a batch, exactly as
 * the host would (`statFile`), and posts the version fields back.
 */
import { parentPort } from 'node:worker_threads';
import { statFile } from '../src/io/probe.js';
import { STAT_FIELDS, writeStat, type StatAsk, type StatReply } from '../src/io/stat-wire.js';

const port = parentPort;
if (port === null) throw new Error('the stat worker runs in a worker thread');

/** Paths by the number the host gave them (see `StatAsk`). */
const paths: string[] = [];

port.on('message', ({ id, reset, added, numbers }: StatAsk) => {
  if (reset) paths.length = 0;
  for (const path of added) paths.push(path);
  const stats = new Float64Array(numbers.length * STAT_FIELDS);
  for (let i = 0; i < numbers.length; i++) {
    const path = paths[numbers[i] ?? -1];
    writeStat(stats, i, path === undefined ? null : statFile(path));
  }
  const reply: StatReply = { id, stats };
  port.postMessage(reply, [stats.buffer]);
});
