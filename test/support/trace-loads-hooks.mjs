/** Module hooks for `trace-loads.mjs`: records each resolved URL. */
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const file = process.env.READPOOL_TRACE_LOADS;
  if (file) appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
