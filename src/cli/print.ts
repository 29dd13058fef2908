/**
 * The command's output, written straight to its descriptor. `process.stdout` is a stream built on
 * first use, and building it loads Node's stream modules: 5 to 7 ms of a one-read command's
 * start (spawn to exit, alternating fresh processes on 2 cores). A synchronous write needs none
 * of it, and is done before the command goes on. Once a descriptor has fallen back to its stream
 * (below), what the stream still holds is written before a natural exit, as before this module,
 * but not past a `process.exit` (a usage error, a closed stdout).
 */
import fs from '../node-fs.js';

type Descriptor = 1 | 2;

/** Descriptors that once refused a write (EAGAIN): their stream takes the rest, in order. */
const streamed = new Set<Descriptor>();

/**
 * Writes `text` to standard output (1) or standard error (2). A reader that stopped early
 * (`readpool read big.log | head`) closed the pipe: the rest has nowhere to go, which is not a
 * failure of the read, so the command ends quietly, as cat and grep do. A descriptor left
 * non-blocking by whoever opened it can refuse a write while its reader catches up: the rest
 * then goes through Node's stream, which waits for it.
 */
export function print(text: string, fd: Descriptor = 1): void {
  if (streamed.has(fd)) return void streamOf(fd).write(text);
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  while (at < bytes.length) {
    try {
      at += fs.writeSync(fd, bytes, at);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return closedEarly(fd);
      if (code !== 'EAGAIN') throw error;
      streamed.add(fd);
      streamOf(fd).write(bytes.subarray(at));
      return;
    }
  }
}

function closedEarly(fd: Descriptor): void {
  if (fd === 1) process.exit(0);
}

/** Descriptors whose stream has this module's error handler. */
const watched = new Set<Descriptor>();

/**
 * The descriptor's stream. Once a worker thread has started, the stream exists (a worker's output
 * is piped to it) and has made the descriptor non-blocking, so a long output ends up here.
 */
function streamOf(fd: Descriptor): NodeJS.WriteStream {
  const stream = fd === 1 ? process.stdout : process.stderr;
  if (!watched.has(fd)) {
    watched.add(fd);
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') return closedEarly(fd);
      throw error;
    });
  }
  return stream;
}
