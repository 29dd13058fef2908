/**
 * What a model reads from the `gemini-cli` dialect: Gemini CLI's `read_file` as seed 003 gives it
 * (the version with `absolute_path` and a 0-based `offset`), and the texts of the
 * `processSingleFileContent` it calls, as @google/gemini-cli-core 0.61.0 words them. Data and
 * small templates only; `gemini-cli.ts` decides which applies.
 */
import type { ReadErrorCode } from '../errors.js';

export const TOOL_NAME = 'read_file';
export const TITLE = 'ReadFile';

export const DESCRIPTION =
  "Reads and returns the content of a specified file. If the file is large, the content will be truncated. The tool's response will clearly indicate if truncation has occurred and will provide details on how to read more of the file using the 'offset' and 'limit' parameters. Handles text, images (PNG, JPG, GIF, WEBP, SVG, BMP), and PDF files. For text files, it can read specific line ranges.";

/** The tool as hosts list it. */
export const TOOL = { name: TOOL_NAME, title: TITLE, description: DESCRIPTION } as const;

export const PARAMETERS = {
  absolute_path:
    "The absolute path to the file to read (e.g., '/home/user/project/file.txt'). Relative paths are not supported. You must provide an absolute path.",
  offset:
    "Optional: For text files, the 0-based line number to start reading from. Requires 'limit' to be set. Use for paginating through large files.",
  limit:
    "Optional: For text files, maximum number of lines to read. Use with 'offset' to paginate through large files. If omitted, reads the entire file (if feasible, up to a default limit).",
} as const;

/** `ToolErrorType` values, as a `ToolResult`'s `error.type` carries them. */
export const ERROR_TYPES = {
  invalidParams: 'invalid_tool_params',
  notFound: 'file_not_found',
  tooLarge: 'file_too_large',
  readFailure: 'read_content_failure',
} as const;

export type ErrorType = (typeof ERROR_TYPES)[keyof typeof ERROR_TYPES];

// The tool's own parameter checks (`validateToolParams`), in the order it makes them.
export const relativePath = (filePath: string) => `File path must be absolute, but was relative: ${filePath}. You must provide an absolute path.`;
export const outsideWorkspace = (directories: readonly string[]) => `File path must be within one of the workspace directories: ${directories.join(', ')}`;
export const NEGATIVE_OFFSET = 'Offset must be a non-negative number';
export const NON_POSITIVE_LIMIT = 'Limit must be a positive number';
export const ignored = (filePath: string) => `File path '${filePath}' is ignored by .geminiignore pattern(s).`;

/** A schema failure as its JSON Schema validator (ajv, `dataVar: 'params'`) words the first one. */
export function schemaIssue(field: string | null, missing: boolean): string {
  if (field === null) return 'params must be object';
  const expected = field === 'absolute_path' ? 'string' : 'number';
  return missing ? `params must have required property '${field}'` : `params/${field} must be ${expected}`;
}

/** How a tool answers parameters it refuses (`validateBuildAndExecute`). */
export const invalidParameters = (reason: string) => `Error: Invalid parameters provided. Reason: ${reason}`;

/** The seed's truncation header, verbatim: a leading newline, and a blank line before the content. */
export function truncationHeader(start: number, end: number, total: number, nextOffset: number): string {
  return `
IMPORTANT: The file content has been truncated.
Status: Showing lines ${start}-${end} of ${total} total lines.
Action: To read more of the file, you can use the 'offset' and 'limit' parameters in a subsequent 'read_file' call. For example, to read the next section of the file, use offset: ${nextOffset}.

--- FILE CONTENT (truncated) ---
`;
}

/** `returnDisplay` of a text read, as `processSingleFileContent` words it ('' for a plain whole read). */
export function textDisplay(start: number, end: number, total: number, relative: string, windowed: boolean, shortened: boolean): string {
  const note = shortened ? ' (some lines were shortened)' : '';
  if (windowed) return `Read lines ${start}-${end} of ${total} from ${relative}${note}`;
  return shortened ? `Read all ${total} lines from ${relative}${note}` : '';
}

// `processSingleFileContent`'s own texts (llmContent, returnDisplay, error).
export const NOT_FOUND = {
  llmContent: 'Could not read file because no file was found at the specified path.',
  returnDisplay: 'File not found.',
  error: (absolute: string) => `File not found: ${absolute}`,
};
export const DIRECTORY = {
  llmContent: 'Could not read file because the provided path is a directory, not a file.',
  returnDisplay: 'Path is a directory.',
  error: (absolute: string) => `Path is a directory, not a file: ${absolute}`,
};
export const MAX_FILE_BYTES = 20 * 1024 * 1024;
export const TOO_LARGE = {
  returnDisplay: 'File size exceeds the 20MB limit.',
  error: (absolute: string, size: number) => `File size exceeds the 20MB limit: ${absolute} (${(size / (1024 * 1024)).toFixed(2)}MB)`,
};
export const BINARY = {
  llmContent: (relative: string) => `Cannot display content of binary file: ${relative}`,
  returnDisplay: (relative: string) => `Skipped binary file: ${relative}`,
};
export const SVG = {
  maxBytes: 1024 * 1024,
  display: (relative: string) => `Read SVG as text: ${relative}`,
  skipped: (relative: string) => `Cannot display content of SVG file larger than 1MB: ${relative}`,
  skippedDisplay: (relative: string) => `Skipped large SVG file (>1MB): ${relative}`,
};
export const mediaDisplay = (kind: 'image' | 'pdf', relative: string) => `Read ${kind} file: ${relative}`;
/** Said with the page images of a PDF too large to send whole, when pages were left out. */
export const pdfPagesShown = (relative: string, last: number, pageCount: number) =>
  `[${relative} has ${pageCount} pages, too many to send whole: pages 1-${last} are shown as images.]`;

/** The seed's wording of any other failure: `Could not read file. ` and the function's error. */
export const couldNotRead = (error: string) => `Could not read file. ${error}`;
export const readFailure = (shown: string, reason: string) => `Error reading file ${shown}: ${reason}`;
export const FALLBACK_DISPLAY = 'Error reading file';

/** The reason of a read failure, in the words of the Node.js errors Gemini CLI passes on. */
export function failureReason(code: ReadErrorCode, details: Readonly<Record<string, unknown>>): string {
  switch (code) {
    case 'unreadable':
      return typeof details.errno === 'string' && details.errno !== '' ? `${details.errno}: the operating system refused the read` : 'the operating system refused the read';
    case 'not_regular_file':
      return 'not a regular file (a device, FIFO, socket or kernel pseudo-file could block or never end)';
    case 'changed_during_read':
      return 'the file changed while it was being read';
    case 'corrupt_media':
      return 'its bytes cannot be decoded as the image, PDF or notebook its name or content announces';
    case 'encrypted':
      return 'the PDF is password-protected';
    case 'overloaded':
      return `the file service is at capacity; retry in ${typeof details.retryAfterMs === 'number' ? details.retryAfterMs : 100} ms`;
    case 'aborted':
      return 'the read was cancelled';
    case 'timeout':
      return 'the read timed out';
    case 'closed':
      return 'the file service has been closed';
    case 'invalid_request':
      return Array.isArray(details.issues) ? details.issues.join('; ') : 'invalid request';
    // The dialect answers these in their own words; a reason is kept for completeness.
    case 'not_found':
    case 'is_directory':
    case 'outside_root':
    case 'denied':
    case 'binary_file':
    case 'file_too_large':
    case 'internal':
      return typeof details.message === 'string' ? details.message : code.replaceAll('_', ' ');
  }
}
