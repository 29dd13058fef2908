/**
 * The native tool's answer for a result: the content parts a model reads and the facts beside
 * them. Kept apart from the tool's schema (zod), so that `readpool read` prints a result without
 * loading it.
 */
import type { ReadResult } from '../result.js';
import { imagePart, notebookParts, pdfParts, text, textOutput } from './parts.js';
import type { ToolOutput } from './tool.js';

/** A window and its notice, as the model reads them. */
function withNotice(content: string, notice: string | null): string {
  if (notice === null) return content;
  return content === '' ? notice : `${content}\n\n${notice}`;
}

/** What `data` carries: the result's facts without its payload (the content parts hold that). */
function factsOf(result: ReadResult): Record<string, unknown> {
  const facts: Record<string, unknown> = { ...result };
  for (const key of ['content', 'data', 'images', 'text', 'stub', 'note', 'notice']) delete facts[key];
  return facts;
}

/** A native result as the tool answers it (also what `readpool read` prints). */
export function nativeOutput(result: ReadResult): ToolOutput {
  const data = factsOf(result);
  switch (result.kind) {
    case 'text':
      return textOutput(withNotice(result.content, result.notice), false, data);
    case 'unchanged':
      return textOutput(result.stub, false, data);
    case 'binary':
      return textOutput(
        `[${result.relativePath} is binary: ${result.size} bytes, sha256 ${result.sha256}. Its bytes follow as base64.]\n${result.data}`,
        false,
        data,
      );
    case 'image':
      return { content: [text(result.note), imagePart(result)], isError: false, data };
    case 'description':
      return textOutput(result.text, false, data);
    case 'pdf':
      return { content: [text(result.note), ...pdfParts(result)], isError: false, data };
    case 'notebook':
      return { content: notebookParts(result, withNotice(result.content, result.notice)), isError: false, data };
  }
}
