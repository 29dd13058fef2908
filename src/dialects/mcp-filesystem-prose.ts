/**
 * What a model reads from the `mcp-filesystem` dialect: the official MCP filesystem server's
 * descriptions and texts, verbatim, plus readpool's own words for what that server never says
 * (budgets, media asked for as text). Its failures are in `mcp-filesystem-failures.ts`.
 */
export const TEXT_TOOL = {
  name: 'read_text_file',
  title: 'Read Text File',
  /** The server's deprecated `read_file`: the same handler, still answered, no longer listed. */
  aliases: ['read_file'],
  description:
    'Read the complete contents of a file from the file system as text. ' +
    'Handles various text encodings and provides detailed error messages ' +
    'if the file cannot be read. Use this tool when you need to examine ' +
    "the contents of a single file. Use the 'head' parameter to read only " +
    "the first N lines of a file, or the 'tail' parameter to read only " +
    'the last N lines of a file. Operates on the file as text regardless of extension. ' +
    'Only works within allowed directories.',
  tail: 'If provided, returns only the last N lines of the file',
  head: 'If provided, returns only the first N lines of the file',
} as const;

export const MEDIA_TOOL = {
  name: 'read_media_file',
  title: 'Read Media File',
  description:
    'Read a file and return it as a base64-encoded content block with its MIME type. ' +
    'Image and audio files are returned as image/audio content; any other file type is ' +
    'returned as an embedded resource. Only works within allowed directories.',
} as const;

export const MULTIPLE_TOOL = {
  name: 'read_multiple_files',
  title: 'Read Multiple Files',
  description:
    'Read the contents of multiple files simultaneously. This is more ' +
    'efficient than reading files one by one when you need to analyze ' +
    "or compare multiple files. Each file's content is returned with its " +
    'path as a reference. Failed reads for individual files won\'t stop ' +
    'the entire operation. Only works within allowed directories.',
  paths: 'Array of file paths to read. Each path must be a string pointing to a valid file within allowed directories.',
} as const;

/** The server's MIME map for `read_media_file`, by extension; anything else is a resource. */
export const MEDIA_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.svg': 'image/svg+xml',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.flac': 'audio/flac',
};

export const BOTH_HEAD_AND_TAIL = 'Cannot specify both head and tail parameters simultaneously';

/** One schema issue as the MCP SDK words a zod 3 issue; `received` is the input's type there. */
export function describeIssue(code: string, expected: string, received: string): string {
  if (code === 'invalid_type') return received === 'undefined' ? 'Required' : `Expected ${expected}, received ${received}`;
  if (code === 'too_small') return 'Array must contain at least 1 element(s)';
  return 'Invalid input';
}

export function invalidArguments(tool: string, issues: readonly string[]): string {
  return `MCP error -32602: Input validation error: Invalid arguments for tool ${tool}: ${issues.join('\n')}`;
}

/** Where a text window stopped short of what was asked, and how to read on with these tools. */
export function describeBudgetStop(facts: { first: number; last: number; total: number | null; unit: string; cut: boolean }): string {
  const { first, last, total, unit, cut } = facts;
  const of = total === null ? '' : ` of ${total}`;
  const cutNote = cut ? ` (line ${last} cut short)` : '';
  const next =
    total !== null && total > last
      ? `call it with tail: ${total - last} for the lines after these (capped the same way)`
      : 'ask for fewer lines with head or tail';
  return (
    `[readpool: output capped at its ${unit} budget; showing lines ${first}-${last}${of}${cutNote}. ` +
    `read_text_file has no offset: ${next}, or search the file for the part you need.]`
  );
}

/** `read_text_file` on a file readpool serves as media: where its content can be had. */
export function describeMediaAsText(absolute: string, kind: 'image' | 'pdf'): string {
  return `Cannot read ${absolute} as text: it is ${kind === 'pdf' ? 'a PDF' : 'an image'}. Use read_media_file to get it as base64.`;
}
