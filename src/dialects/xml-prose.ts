/**
 * The words of seed 000's `read` (see `xml.ts`): its description, built from the seed's overview
 * and behaviour sections, and its error messages. The seed quotes none; these follow opencode's
 * read tool (`File not found: P`, `Cannot read binary file: P`) and say the rest in that voice.
 */
import path from 'node:path';
import type { ReadError } from '../errors.js';
import { isReadFailure } from './error-details.js';
import { isInsideRoots } from './roots.js';

export const DESCRIPTION = `The read tool provides flexible file reading capabilities for agents. It handles text files with line numbering, images as base64-encoded content, and PDFs as base64-encoded documents. The tool includes intelligent truncation and binary detection.

- Text files: returned wrapped in XML with metadata, with 1-based line numbers. At most 2000 lines by default and 50KB of output; lines longer than 2000 characters are truncated with a [truncated] suffix. Use offset and limit to read a large file in chunks.
- Images (.png, .jpg, .jpeg, .gif, .webp) and PDFs (.pdf) of at most 5MB are returned as base64 content.
- Binary files (files holding null bytes) are refused.`;

/** The tool as hosts list it. */
export const TOOL = { name: 'read', title: 'Read', description: DESCRIPTION } as const;

const cannotRead = (failure: ReadError, subject: string) => `Cannot read file: ${subject}. ${failure.message}`;

/** A `ReadError` in the tool's words; `subject` is the path as the caller gave it. */
export function describeFailure(failure: ReadError, subject: string, roots: readonly string[]): string {
  const { details } = failure;
  if (isReadFailure(failure.code)) return cannotRead(failure, subject);
  switch (failure.code) {
    case 'not_found': {
      const root = roots.find((candidate) => isInsideRoots([candidate], subject)) ?? roots[0] ?? '/';
      const suggestions = (Array.isArray(details.suggestions) ? details.suggestions : []).map((entry) => path.join(root, String(entry)));
      return suggestions.length > 0 ? `File not found: ${subject}\n\nDid you mean one of these?\n${suggestions.join('\n')}` : `File not found: ${subject}`;
    }
    case 'is_directory':
      return `Cannot read directory: ${subject}. Use a directory listing tool to see its entries.`;
    case 'outside_root':
      return `Cannot read file outside the workspace: ${subject}`;
    case 'denied':
      return `Permission denied: ${subject}`;
    case 'binary_file':
      return `Cannot read binary file: ${subject}`;
    case 'file_too_large':
      return `File too large: ${subject} (${String(details.size)} bytes)`;
    case 'invalid_request':
    case 'not_regular_file':
    case 'unreadable':
      return cannotRead(failure, subject);
  }
}

export const describeOutOfRange = (offset: number, total: number) => `Offset ${offset} is out of range for this file (${total} lines)`;

export const describeTooLarge = (subject: string, size: number) => `File too large: ${subject} (${size} bytes). Images and PDFs are limited to 5 MB.`;

export const describeRelative = (subject: string) => `File path must be absolute: ${subject}`;

export function describeInvalid(issues: readonly string[]): string {
  return `The read tool was called with invalid arguments: ${issues.join('; ')}.\nPlease rewrite the input so it satisfies the expected schema.`;
}
