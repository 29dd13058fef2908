/**
 * The stat thread (see `StatLane` in src/stat-lane.ts): stats each path of a batch, exactly as
 * the host would (`statFile`), through the memory it shares with the host (`serveStats`).
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { statFile } from '../src/io/probe.js';
import { serveStats, type StatShared } from '../src/io/stat-wire.js';

if (parentPort === null) throw new Error('the stat worker runs in a worker thread');
serveStats(workerData as StatShared, parentPort, receiveMessageOnPort, statFile);
