/**
 * A tool's output on a terminal: text as it is, and media never as a wall of base64. An image or
 * a PDF is described in one line and written to `--out FILE` when asked; `--json` prints the
 * whole output, base64 included, for programs.
 */
import fs from '../node-fs.js';
import path from 'node:path';
import type { ContentPart, ToolOutput } from '../dialects/tool.js';
import { print } from './print.js';

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'application/pdf': '.pdf',
};

/**
 * Prints `output` to stdout; media parts are written to `out` (numbered `name-2.jpg`, ... when
 * there are several) or described. Returns the files written.
 */
export function printOutput(output: ToolOutput, out: string | null): string[] {
  const media = output.content.filter((part): part is Exclude<ContentPart, { type: 'text' }> => part.type !== 'text');
  const written: string[] = [];
  const lines: string[] = [];
  media.forEach((part, index) => {
    const bytes = Buffer.from(part.data, 'base64');
    if (out === null) {
      lines.push(`[${part.mimeType}, ${bytes.length} bytes: pass --out FILE to save it, or --json for the base64]`);
      return;
    }
    const file = media.length === 1 ? out : numbered(out, index + 1, EXTENSIONS[part.mimeType] ?? '');
    fs.writeFileSync(file, bytes);
    written.push(file);
    lines.push(`[${part.mimeType}, ${bytes.length} bytes written to ${file}]`);
  });
  const texts = output.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
  const body = [...texts, ...lines].filter((text) => text !== '').join('\n\n');
  if (body !== '') print(`${body}\n`, output.isError ? 2 : 1);
  return written;
}

function numbered(file: string, n: number, fallbackExtension: string): string {
  const extension = path.extname(file) || fallbackExtension;
  const stem = path.extname(file) === '' ? file : file.slice(0, -extension.length);
  return `${stem}-${n}${extension}`;
}
