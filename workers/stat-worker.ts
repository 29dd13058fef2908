/**
 * The stat thread (see `StatLane` in src/io/stat-lane.ts): stats each path of a batch, exactly as
 * the host would (`statFile`), and posts the version fields back.
 */
import { parentPort } from 'node:worker_threads';
import { statFile } from '../src/io/probe.js';
import { STAT_FIELDS, writeStat, type StatAsk, type StatReply } from '../src/io/stat-wire.js';

const port = parentPort;
if (port === null) throw new Error('the stat worker runs in a worker thread');

port.on('message', ({ id, paths }: StatAsk) => {
  const stats = new Float64Array(paths.length * STAT_FIELDS);
  for (let i = 0; i < paths.length; i++) writeStat(stats, i, statFile(paths[i] ?? ''));
  const reply: StatReply = { id, stats };
  port.postMessage(reply, [stats.buffer]);
});
