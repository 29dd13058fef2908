/**
 * What a model reads from the `pilotdeck` dialect: PilotDeck's `read_file` as seed 004 gives it.
 * The name, aliases, description, parameter descriptions and every message are the seed's,
 * verbatim; the few texts the seed leaves to files it does not show (path errors) are marked.
 * Data and small templates only; `pilotdeck.ts` decides which applies.
 */

export const TOOL_NAME = 'read_file';
export const ALIASES = ['Read'] as const;

export const MAX_TEXT_TOKENS = 25_000;
export const MAX_PDF_PAGES_PER_REQUEST = 20;
export const PDF_AT_MENTION_INLINE_THRESHOLD = 10;
export const PDF_EXTRACT_SIZE_THRESHOLD = 3 * 1024 * 1024;

export const DESCRIPTION =
  "Reads a file from the current workspace. You can access workspace files directly by using this tool.\n"
  + "If the User provides a path to a file, assume that path is valid as long as it resolves inside the current workspace. "
  + "It is okay to read a file that does not exist; an error will be returned.\n\nUsage:\n"
  + "- The file_path parameter may be a workspace-relative path or an absolute path, but it must resolve inside the current workspace\n"
  + "- By default, offset is 1 and the tool reads from the beginning of the file\n"
  + "- You can optionally specify offset and limit (especially handy for long files), but it's recommended to read the whole file by not providing these parameters\n"
  + "- Results are returned using cat -n format, with line numbers starting at 1\n"
  + "- This tool allows PilotDeck to read images (eg PNG, JPG, etc). When reading an image file the contents are presented visually when the current model supports image input\n"
  + "- This tool can read PDF files (.pdf). For large PDFs, provide the pages parameter to validate specific page ranges (e.g., pages: \"1-5\"). Maximum 20 pages per request\n"
  + "- This tool can read Jupyter notebooks (.ipynb files) and returns a text rendering of notebook cells and outputs\n"
  + "- This tool can only read files, not directories\n"
  + "- If you read a file that exists but has empty contents you will receive a system reminder warning in place of file contents";

/** The tool as hosts list it. */
export const TOOL = { name: TOOL_NAME, title: 'Read file', aliases: ALIASES, description: DESCRIPTION } as const;

export const PARAMETERS = {
  file_path: 'The relative or absolute path to the file to read. The path must resolve inside the current workspace.',
  offset: 'The 1-based line number to start reading from. Only provide if the file is too large to read at once.',
  limit: 'The number of lines to read. Only provide if the file is too large to read at once.',
  pages: 'Page range for PDF files (e.g., "1-5", "3", "10-20"). Only applicable to PDF files. Maximum 20 pages per request.',
} as const;

export const FILE_UNCHANGED_STUB = 'File unchanged since the last read. Refer to the earlier read_file result instead of re-reading it.';
export const EMPTY_FILE = '<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>';
export const pastEnd = (startLine: number, totalLines: number) =>
  `<system-reminder>Warning: the file exists but is shorter than the provided offset (${startLine}). The file has ${totalLines} lines.</system-reminder>`;

// validateInput's issues (code `invalid_schema`).
export const OFFSET_BELOW_ONE = 'offset must be a 1-based line number (>= 1).';
export const NEGATIVE_LIMIT = 'limit must be greater than or equal to 0.';
export const PAGES_FORMAT = 'pages must use formats like "1-5" or "3".';
export const PAGES_TOO_MANY = `pages exceeds the maximum of ${MAX_PDF_PAGES_PER_REQUEST} pages per request.`;
export const DEVICE_FILE = 'device files that block or stream infinitely are not readable.';
export const BINARY_FILE = 'binary files are not supported by read_file.';

// PilotDeckToolRuntimeError messages, with their codes.
export const unsupportedImage = (relativePath: string) => `Unsupported image type: ${relativePath}.`;
export const imageCorrupt = (bytes: number) => `Image file appears truncated or corrupted (${bytes} bytes). Cannot decode.`;
export const imageOverBudget = (mimeType: string) => `Image content exceeds the read_file byte budget after compression attempts (${mimeType}).`;
export const pdfBadRange = (pages: string) => `Invalid PDF page range: ${pages}.`;
export const pdfRangePastEnd = (pages: string, pageCount: number) => `PDF page range ${pages} exceeds the detected page count (${pageCount}).`;
export const pdfTooManyPages = (pageCount: number) =>
  `This PDF has ${pageCount} pages, which is too many to read at once. ` +
  `Use the pages parameter to read specific page ranges (e.g., pages: "1-5"). ` +
  `Maximum ${MAX_PDF_PAGES_PER_REQUEST} pages per request.`;
export const overTokenBudget = (filePath: string) =>
  `File content from ${filePath} exceeds the text token budget. Use offset and limit to read a smaller portion.`;

// Results: model-capability fallbacks and PDF forms.
export const imageUnsupported = (relativePath: string, size: number, mimeType: string) =>
  `[Image file: ${relativePath}, ${size} bytes, ${mimeType}. Current model does not support image input.]`;
const pagesOf = (pageCount: number | undefined) => (pageCount ? `, ${pageCount} pages` : '');
export const pdfPagesNoImages = (relativePath: string, size: number, pageCount: number | undefined) =>
  `[PDF file: ${relativePath}, ${size} bytes${pagesOf(pageCount)}. Current model does not support image input; cannot render requested pages.]`;
export const pdfNoPdfNoImages = (relativePath: string, size: number, pageCount: number | undefined) =>
  `[PDF file: ${relativePath}, ${size} bytes${pagesOf(pageCount)}. Current model does not support PDF input or image input.]`;
export const pdfPagesExtracted = (relativePath: string, first: number, last: number, pageCount: number | undefined) =>
  `PDF pages extracted: ${last - first + 1} page(s) from ${relativePath} (pages ${first}-${last}${pageCount ? ` of ${pageCount}` : ''}).`;
export const pdfPagesRendered = (relativePath: string, first: number, last: number, pageCount: number | undefined, reason: string) =>
  `[PDF pages rendered from ${relativePath}: ${first}-${last}${pageCount ? ` of ${pageCount}` : ''} (${reason}).]`;
export const pdfRead = (relativePath: string, size: number, pageCount: number | undefined) => `PDF file read: ${relativePath} (${size} bytes${pagesOf(pageCount)})`;
export const DEGRADE_NO_PDF = 'model does not support PDF input';
export const DEGRADE_SIZE = `file exceeds ${PDF_EXTRACT_SIZE_THRESHOLD / 1024 / 1024}MB threshold`;

// Path errors: the seed's `resolvePilotDeckWorkspacePath` is not shown; these codes and texts are this dialect's.
export const PATH_CODES = { outside: 'path_outside_workspace', notFound: 'file_not_found', directory: 'not_a_file' } as const;
export const outsideWorkspace = (filePath: string) => `Path ${filePath} resolves outside the current workspace.`;
export const notFound = (relativePath: string, suggestions: readonly string[]) =>
  `File not found: ${relativePath}.${suggestions.length === 0 ? '' : ` Did you mean ${suggestions.join(', ')}?`}`;
export const directory = (relativePath: string) => `Path is a directory, not a file: ${relativePath}.`;
