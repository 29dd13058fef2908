/**
 * Preloaded with `--import`: appends the URL of every module the process imports (ES module
 * resolution, packages loaded through `import` included) to the file named by
 * `READPOOL_TRACE_LOADS`, one a line. The hooks run on Node's loader thread, so they write to a
 * file rather than keep a list.
 */
import { register } from 'node:module';

register('./trace-loads-hooks.mjs', import.meta.url);
