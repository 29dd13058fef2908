/**
 * The bare-worker reference's worker: reads each file of a message with `readFileSync`, numbers
 * its first 2000 lines as the naive reader does, and posts the rendered strings back. No
 * sandbox, no caps, no hashing: what a plain `worker_threads` pool costs, nothing more.
 */
import { parentPort } from 'node:worker_threads';
import { syncRead } from './naive-reader.js';

parentPort?.on('message', (files: string[]) => {
  parentPort?.postMessage(files.map((file) => syncRead(file)));
});
