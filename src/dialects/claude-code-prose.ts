/**
 * What a model reads from the `claude-code` dialect: Claude Code's Read as seed 001 gives it
 * (2.0.14: the prompt, verbatim, with its variables filled) and the texts its results and errors
 * carry, from PEERS.md (tables B, C, D) where the seed is silent. Data and small templates only;
 * `claude-code.ts` decides which applies.
 */

export const TOOL_NAME = 'Read';

/** The seed's variables, as Claude Code 2.0 filled them. */
export const DEFAULT_READ_LINES = 2000;
export const MAX_LINE_LENGTH = 2000;
export const BASH_TOOL_NAME = 'Bash';
/** Claude Code's token cap on a read's output (`CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS`). */
export const MAX_OUTPUT_TOKENS = 25_000;

export const DESCRIPTION = `Reads a file from the local filesystem. You can access any file directly by using this tool.
Assume this tool is able to read all files on the machine. If the User provides a path to a file assume that path is valid. It is okay to read a file that does not exist; an error will be returned.

Usage:
- The file_path parameter must be an absolute path, not a relative path
- By default, it reads up to ${DEFAULT_READ_LINES} lines starting from the beginning of the file
- You can optionally specify a line offset and limit (especially handy for long files), but it's recommended to read the whole file by not providing these parameters
- Any lines longer than ${MAX_LINE_LENGTH} characters will be truncated
- Results are returned using cat -n format, with line numbers starting at 1
- This tool allows Claude Code to read images (eg PNG, JPG, etc). When reading an image file the contents are presented visually as Claude Code is a multimodal LLM.
- This tool can read PDF files (.pdf). PDFs are processed page by page, extracting both text and visual content for analysis.
- This tool can read Jupyter notebooks (.ipynb files) and returns all cells with their outputs, combining code, text, and visualizations.
- This tool can only read files, not directories. To read a directory, use an ls command via the ${BASH_TOOL_NAME} tool.
- You can call multiple tools in a single response. It is always better to speculatively read multiple potentially useful files in parallel.
- You will regularly be asked to read screenshots. If the user provides a path to a screenshot, ALWAYS use this tool to view the file at the path. This tool will work with all temporary file paths.
- If you read a file that exists but has empty contents you will receive a system reminder warning in place of file contents.`;

/** The tool as hosts list it. */
export const TOOL = { name: TOOL_NAME, title: 'Read', description: DESCRIPTION } as const;

/** Claude Code's parameter descriptions; `pages` is 2.1's, which the 2.0.14 seed lacks. */
export const PARAMETERS = {
  file_path: 'The absolute path to the file to read',
  offset: 'The line number to start reading from. Only provide if the file is too large to read at once',
  limit: 'The number of lines to read. Only provide if the file is too large to read at once.',
  pages: 'Page range for PDF files (e.g., "1-5", "3", "10-20"). Only applicable to PDF files. Maximum 20 pages per request.',
} as const;

export const EMPTY_FILE = '<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>';
export const pastEnd = (offset: number, totalLines: number) =>
  `<system-reminder>Warning: the file exists but is shorter than the provided offset (${offset}). The file has ${totalLines} lines.</system-reminder>`;

/** PEERS.md B1: prepended to a page that the token cap cut short. */
export const partialView = (first: number, last: number, total: number, tokens: number) =>
  `<system-reminder>[Truncated: PARTIAL view — showing lines ${first}-${last} of ${total} total (${tokens} tokens, cap ${MAX_OUTPUT_TOKENS}). ` +
  `Call ${TOOL_NAME} with offset=${last + 1} limit=${last - first + 1} for the next page, or Grep to find a specific section. ` +
  'Do NOT answer from this page alone if the answer may be further in the file.]</system-reminder>';

/** PEERS.md D: the answer to a repeated read of an unchanged file. */
export const UNCHANGED = 'Wasted call — file unchanged since your last Read. Refer to that earlier tool_result instead.';

export const notFound = (cwd: string, suggestion: string | null) =>
  `File does not exist. Note: your current working directory is ${cwd}.${suggestion === null ? '' : ` Did you mean ${suggestion}?`}`;
export const DIRECTORY = 'EISDIR: illegal operation on a directory, read';
export const DENIED = 'File is in a directory that is denied by your permission settings.';
/** `extension` with its dot; a file named without one (found binary by its bytes) is "a binary file". */
export const binaryFile = (extension: string) =>
  `This tool cannot read binary files. The file appears to be a binary ${extension === '' ? '' : `${extension} `}file. Please use appropriate tools for binary file analysis.`;
export const deviceFile = (filePath: string) => `Cannot read '${filePath}': this device file would block or produce infinite output.`;
export const tooLarge = (size: number, limit: number) =>
  `File content (${formatFileSize(size)}) exceeds maximum allowed size (${formatFileSize(limit)}). ` +
  'Use offset and limit parameters to read specific portions of the file, or search for specific content instead of reading the whole file.';

// PDFs: Claude Code 2.1's texts, as seed 004 (which copies that tool) quotes them.
export const pdfRead = (filePath: string, size: number) => `PDF file read: ${filePath} (${formatFileSize(size)})`;
export const pdfPages = (filePath: string, first: number, last: number, pageCount: number) =>
  `PDF pages extracted: ${last - first + 1} page(s) from ${filePath} (pages ${first}-${last} of ${pageCount}).`;
export const pdfTooManyPages = (pageCount: number) =>
  `This PDF has ${pageCount} pages, which is too many to read at once. Use the pages parameter to read specific page ranges (e.g., pages: "1-5"). Maximum 20 pages per request.`;
export const pdfRangeTooLong = 'pages exceeds the maximum of 20 pages per request.';
export const pdfBadRange = (pages: string) => `Invalid PDF page range: ${pages}.`;
export const pdfRangePastEnd = (pages: string, pageCount: number) => `PDF page range ${pages} exceeds the detected page count (${pageCount}).`;

/** How Claude Code words a schema failure (its `formatZodError`). */
export const inputValidation = (issues: readonly string[]) =>
  `InputValidationError: ${TOOL_NAME} failed due to the following issue${issues.length === 1 ? '' : 's'}:\n${issues.join('\n')}`;
export const missingParameter = (name: string) => `The required parameter \`${name}\` is missing`;
export const unexpectedParameter = (name: string) => `An unexpected parameter \`${name}\` was provided`;
export const wrongType = (name: string, expected: string, received: string) =>
  `The parameter \`${name}\` type is expected as \`${expected}\` but provided as \`${received}\``;

/** Claude Code's file sizes: bytes under 1 KB, then KB, MB, GB with one decimal (".0" dropped). */
export function formatFileSize(bytes: number): string {
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  if (value < 1) return `${bytes} bytes`;
  for (const unit of units) {
    if (value < 1024 || unit === 'GB') return `${value.toFixed(1).replace(/\.0$/, '')}${unit}`;
    value /= 1024;
  }
  return `${bytes} bytes`;
}
