/**
 * The references measured in the same run: the naive in-process reader of bench/ (the whole
 * file read and split on the host's thread, its first 2000 lines numbered) and the shell tools
 * an agent's bash would run per call (`head -n`, `tail -n`, `sed -n`), spawned once a read.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { naiveRead } from '../../naive-reader.js';
import { payloadOf, Unsupported, type System, type Window } from '../system.js';

const run = promisify(execFile);

export function naiveSystem(): System {
  return {
    name: 'naive fs reader',
    read: async (path: string, window: Window) => {
      if (window.tail !== undefined || (window.offset ?? 1) !== 1 || (window.limit ?? 2000) !== 2000) {
        throw new Unsupported('the in-repo reference reads the first 2000 lines only');
      }
      return payloadOf([await naiveRead(path)], [], false);
    },
    media: () => Promise.reject(new Unsupported('text only')),
    close: () => Promise.resolve(),
  };
}

/** `head`/`tail`/`sed` per call: the floor of a bash tool, with no numbering, caps or sandbox. */
export function shellSystem(): System {
  const out = async (command: string, args: string[]) => {
    const { stdout } = await run(command, args, { maxBuffer: 1 << 30, encoding: 'utf8' });
    return payloadOf([stdout], [], false);
  };
  return {
    name: 'shell head/tail/sed',
    read: (path: string, window: Window) => {
      if (window.tail !== undefined) return out('tail', ['-n', String(window.tail), path]);
      const offset = window.offset ?? 1;
      const limit = window.limit ?? 2000;
      if (offset === 1) return out('head', ['-n', String(limit), path]);
      return out('sed', ['-n', `${offset},${offset + limit - 1}p;${offset + limit - 1}q`, path]);
    },
    media: () => Promise.reject(new Unsupported('text only')),
    close: () => Promise.resolve(),
  };
}
