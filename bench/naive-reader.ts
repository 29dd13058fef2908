import fs from 'node:fs';

/**
 * The baseline a host writes without readpool: read the whole file in-process with
 * `fs.promises`, split it, number the first 2000 lines. No sandbox, no caps, no hashing.
 */
export async function naiveRead(file: string): Promise<string> {
  const text = await fs.promises.readFile(file, 'utf8');
  return formatLines(text);
}

/** The same work with blocking calls on the host's own thread. */
export function syncRead(file: string): string {
  return formatLines(fs.readFileSync(file, 'utf8'));
}

function formatLines(text: string): string {
  return text
    .split(/\r?\n/)
    .slice(0, 2000)
    .map((line, index) => `${index + 1}\t${line}`)
    .join('\n');
}
