/**
 * Seed 000's `read`: absolute `filePath`, 0-based `offset`, `limit` (2000 lines); text wrapped
 * in XML with its metadata, images and PDFs (up to 5 MB on disk) as content parts.
 *
 * The exact text output (`P` the path as given, `N: line` numbered from 1, lines over 2000
 * characters cut and suffixed `[truncated]`, the lines joined with `\n`; `A`-`B` the 1-based
 * lines shown, `T` the file's lines; `B` is also the 0-based offset of the next line):
 *
 *   <path>P</path>\n<type>file</type>\n<content>\nLINES\n\nFOOTER\n</content>
 *
 * FOOTER is one of, in this order of precedence:
 *   (Output capped at 50 KB. Showing lines A-B. Use offset=B to continue.)  output over 51 200 bytes
 *   (Showing lines A-B of T. Use offset=B to continue.)                     `limit` reached first
 *   (End of file - total T lines)                                           the rest
 * An empty file has no LINES: `<content>\n\n\n(End of file - total 0 lines)\n</content>`.
 * Errors are one line of text (`isError: true`): `File not found: P` (with `\n\nDid you mean one
 * of these?\n` and up to three absolute paths when there are similar names), `Cannot read binary
 * file: P`, `Offset O is out of range for this file (T lines)`, and the others below.
 */
import path from 'node:path';
import { z } from 'zod';
import type { RenderSpec } from '../core/line-format.js';
import type { Engine } from '../engine.js';
import { ReadError } from '../errors.js';
import type { ReadRequest } from '../request.js';
import type { ReadResult } from '../result.js';
import { textOutput, imagePart, pdfParts } from './parts.js';
import { describeFailure, describeInvalid, describeOutOfRange, describeRelative, describeTooLarge, TOOL } from './xml-prose.js';
import { defineTool, issueLines, readFor, type InputIssue, type ToolContext, type ToolDefinition, type ToolOptions, type ToolOutput } from './tool.js';

const schema = z.strictObject({
  filePath: z.string().describe('Absolute path to the file to read. Relative paths are not supported.'),
  offset: z.number().int().min(0).optional().describe('0-based line number to start reading from. Only applies to text files. Useful for reading large files in chunks.'),
  limit: z.number().int().min(1).optional().describe('Maximum number of lines to read from text files. Default is 2000 lines.'),
});

type Input = z.output<typeof schema>;

const RENDER: RenderSpec = { format: { numbered: true, prefix: '', width: 0, separator: ': ' }, cutMarker: '[truncated]' };

const DEFAULT_LIMIT = 2000;
const MAX_OUTPUT_BYTES = 50 * 1024;
const MAX_MEDIA_BYTES = 5 * 1024 * 1024;
/** The seed decides by extension alone: these are media, everything else is text or binary. */
const MEDIA_EXTENSIONS = /\.(png|jpe?g|gif|webp|pdf)$/i;

function requestOf(input: Input): ReadRequest {
  return {
    path: input.filePath,
    offset: (input.offset ?? 0) + 1,
    limit: input.limit ?? DEFAULT_LIMIT,
    maxBytes: MAX_OUTPUT_BYTES,
    media: MEDIA_EXTENSIONS.test(input.filePath),
    fresh: true,
    render: RENDER,
  };
}

function error(message: string): ToolOutput {
  return textOutput(message, true);
}

function outputOf(result: ReadResult, input: Input): ToolOutput {
  const subject = input.filePath;
  if (result.kind !== 'text' && result.kind !== 'unchanged' && result.size > MAX_MEDIA_BYTES) {
    return error(describeTooLarge(subject, result.size));
  }
  switch (result.kind) {
    case 'image':
      return { content: [imagePart(result)], isError: false };
    case 'pdf':
      return { content: pdfParts(result), isError: false };
    case 'binary':
      // Only a PDF's raw bytes come back as binary (see `readPdfWhole`).
      return { content: [{ type: 'document', mimeType: 'application/pdf', data: result.data }], isError: false };
    case 'description':
      return textOutput(result.text, false);
    case 'text': {
      const total = result.totalLines ?? 0;
      const offset = input.offset ?? 0;
      if (result.endLine < result.startLine && !(total === 0 && offset === 0)) {
        return error(describeOutOfRange(offset, total));
      }
      const { startLine: first, endLine: last, truncated } = result;
      const footer =
        truncated !== false && truncated.reason !== 'lines'
          ? `(Output capped at 50 KB. Showing lines ${first}-${last}. Use offset=${last} to continue.)`
          : truncated !== false
            ? `(Showing lines ${first}-${last} of ${total}. Use offset=${last} to continue.)`
            : `(End of file - total ${total} lines)`;
      return textOutput(`<path>${subject}</path>\n<type>file</type>\n<content>\n${result.content}\n\n${footer}\n</content>`, false);
    }
    case 'notebook':
    case 'unchanged':
      // Unreachable: notebooks are read as text (`media: false`) and every read is `fresh`.
      return error(`Cannot read file: ${subject}`);
  }
}

/**
 * A PDF the engine will not serve whole (over 10 pages or 3 MB) is sent as the seed sends every
 * PDF: its bytes, as a document, when they are within the 5 MB limit.
 */
async function readPdfWhole(engine: Engine, input: Input, context: ToolContext, refusal: ReadError): Promise<ToolOutput> {
  const raw = await readFor(engine, { path: input.filePath, media: false, allowBinary: true, fresh: true, limit: 1 }, context);
  if (raw.kind !== 'binary') return error(`Cannot read PDF: ${input.filePath}. ${refusal.message}`);
  return outputOf(raw, input);
}

function invalidOf(issues: readonly InputIssue[]): ToolOutput {
  return error(describeInvalid(issueLines(issues)));
}

export function createXmlTools(engine: Engine, _options: ToolOptions = {}): ToolDefinition[] {
  return [
    defineTool({
      ...TOOL,
      schema,
      invalid: invalidOf,
      run: async (input, context) => {
        if (!path.isAbsolute(input.filePath)) return error(describeRelative(input.filePath));
        try {
          return outputOf(await readFor(engine, requestOf(input), context), input);
        } catch (failure) {
          const wholePdf = failure instanceof ReadError && failure.code === 'invalid_request' && typeof failure.details.pageCount === 'number';
          if (wholePdf) return await readPdfWhole(engine, input, context, failure);
          throw failure;
        }
      },
      fail: (failure, input) => error(describeFailure(failure, input.filePath, engine.roots)),
    }),
  ];
}
