/**
 * One pass of the swarm scenario in a process of its own, so that its peak RSS and its speed
 * are its own (no garbage from another pass). Prints one JSON line.
 *
 *   node dist/bench/swarm-pass.js engine|engine-misses|naive ROOT FILES SESSIONS
 *
 * `engine-misses` runs the engine with its result cache off, so no read is a hit: each is a miss
 * or joins another session's read of the same file under way (single flight), the host-thread
 * cost of a read that the cache cannot answer, under the swarm's shape (many sessions, one read
 * each in flight).
 *
 * Host-thread CPU is given twice: over the whole pass (`hostUsPerRead`), which starts cold and so
 * carries the process's warm-up (V8 compiling the host's code, the young generation growing and
 * its pages first touched, the workers' and the stat thread's boots), and over the pass's second
 * half alone (`hostUsPerReadWarm`), by when every file has been read once: the cost each further
 * read adds, which is what bounds reads a second on many cores. The host thread's page faults a
 * read are given both ways too (`hostFaultsPerRead`, `hostFaultsPerReadWarm`; see
 * `mainThreadFaults`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createEngine } from '../src/index.js';
import { LoopDelayProbe } from './event-loop.js';
import { naiveRead } from './naive-reader.js';
import { shuffled } from './stats.js';
import { mainThreadCpuMs, mainThreadFaults } from './thread-cpu.js';

const [mode, root = '', fileCount = '500', sessionCount = '256'] = process.argv.slice(2);
const files = fs.readFileSync(path.join(root, '.complete'), 'utf8').split('\n').filter(Boolean).slice(0, Number(fileCount));
for (const file of files) fs.readFileSync(path.join(root, file)); // page cache warm for both
const orders = Array.from({ length: Number(sessionCount) }, (_, session) => shuffled(files, session + 1));
const probe = new LoopDelayProbe();

if (mode === 'engine' || mode === 'engine-misses') {
  const engine = await createEngine(mode === 'engine' ? { root } : { root, cacheBytes: 0 });
  let errors = 0;
  const reads = files.length * orders.length;
  const half = Math.floor(reads / 2);
  let answered = 0;
  let cpuAtHalf = NaN;
  let faultsAtHalf = NaN;
  probe.start();
  const started = performance.now();
  const faultsStarted = mainThreadFaults();
  const cpuStarted = mainThreadCpuMs();
  await Promise.all(
    orders.map(async (order, index) => {
      // Named once, as an agent host names its session once and passes the same string each call.
      const session = `agent-${index}`;
      for (const file of order) {
        await engine.read({ path: file, session }).catch(() => errors++);
        if (++answered === half) {
          cpuAtHalf = mainThreadCpuMs();
          faultsAtHalf = mainThreadFaults();
        }
      }
    }),
  );
  const ms = performance.now() - started;
  const cpuEnded = mainThreadCpuMs();
  const hostUsPerRead = ((cpuEnded - cpuStarted) * 1000) / reads;
  const hostUsPerReadWarm = ((cpuEnded - cpuAtHalf) * 1000) / (reads - half);
  const faultsEnded = mainThreadFaults();
  const hostFaultsPerRead = (faultsEnded - faultsStarted) / reads;
  const hostFaultsPerReadWarm = (faultsEnded - faultsAtHalf) / (reads - half);
  const loop = probe.stop();
  const { cache } = engine.stats();
  await engine.close();
  process.stdout.write(
    `${JSON.stringify({ ms, loopP99: loop.p99, hostUsPerRead, hostUsPerReadWarm, hostFaultsPerRead, hostFaultsPerReadWarm, errors, resultHits: cache.result.hits, resultMisses: cache.result.misses, singleFlightJoins: cache.singleFlight.joins, sessions: cache.sessions.sessions })}\n`,
  );
} else {
  probe.start();
  const started = performance.now();
  await Promise.all(
    orders.map(async (order) => {
      for (const file of order) await naiveRead(path.join(root, file));
    }),
  );
  const ms = performance.now() - started;
  process.stdout.write(`${JSON.stringify({ ms, loopP99: probe.stop().p99 })}\n`);
}
