/**
 * Seed 002's `read_file`: a structured read. Input `path` (workspace-relative), `startLine` and
 * `endLine` (1-based, inclusive), `maxBytes` (256 KiB by default), `allowBinary`. Output: the
 * seed's envelope, `{ ok: true, data }` or `{ ok: false, error: { kind, message, ...extra } }`,
 * as `data` and, stringified, as the one text part. Every file is read as a plain file (never
 * as an image, PDF or notebook), and its sha256 is always taken over the full on-disk bytes.
 */
import path from 'node:path';
import { z } from 'zod';
import { cutUtf8 } from '../core/column-window.js';
import type { RenderSpec } from '../core/line-format.js';
import type { Engine } from '../engine.js';
import { MIN_MAX_BYTES } from '../options.js';
import type { ReadRequest } from '../request.js';
import type { ReadResult } from '../result.js';
import { describeFailure, describeInvalid, TOOL, type ReadFileError, type ReadFileErrorKind } from './comma-prose.js';
import { textOutput } from './parts.js';
import { defineTool, issueLines, readFor, type InputIssue, type ToolDefinition, type ToolOptions, type ToolOutput } from './tool.js';

const schema = z
  .strictObject({
    path: z.string().min(1).describe('Workspace-relative path of the file to read.'),
    startLine: z.number().int().min(1).optional().describe('First line of the window (1-indexed, inclusive). A startLine past the end of the file returns an empty slice.'),
    endLine: z.number().int().min(1).optional().describe("Last line of the window (1-indexed, inclusive). Greater than the file's lineCount clamps to the end."),
    maxBytes: z.number().int().min(1).optional().describe('Caps the UTF-8 byte length of the returned content; beyond it content is byte-truncated and truncated is true. Default 256 KiB.'),
    allowBinary: z.boolean().optional().describe('Receive a binary file as base64 (contentBase64) instead of the binary_file error.'),
  })
  .refine((input) => input.endLine === undefined || input.endLine >= (input.startLine ?? 1), {
    message: 'must not be less than startLine',
    path: ['endLine'],
  });

type Input = z.output<typeof schema>;

/** Unnumbered lines, never cut for their length: the content is filled to the byte budget exactly. */
const RENDER: RenderSpec = { format: { numbered: false }, cutMarker: '', cut: 'budget' };

const DEFAULT_MAX_BYTES = 256 * 1024;

/** `data` of a successful read: text, or a binary file's bytes after the opt-in. */
export type ReadFileData =
  | {
      readonly path: string;
      readonly encoding: 'utf-8';
      readonly content: string;
      readonly startLine: number;
      /** `startLine - 1` when the slice is empty. */
      readonly endLine: number;
      readonly lineCount: number;
      readonly truncated: boolean;
      /** UTF-8 bytes of `content`. */
      readonly bytes: number;
      /** Bytes of the file on disk. */
      readonly size: number;
      readonly sha256: string;
    }
  | { readonly path: string; readonly encoding: 'base64'; readonly contentBase64: string; readonly size: number; readonly sha256: string };

function requestOf(input: Input): ReadRequest {
  const startLine = input.startLine ?? 1;
  return {
    path: input.path,
    offset: startLine,
    limit: input.endLine === undefined ? Number.MAX_SAFE_INTEGER : input.endLine - startLine + 1,
    // The engine's floor on a budget; a smaller cap is applied to the content here.
    maxBytes: Math.max(MIN_MAX_BYTES, input.maxBytes ?? DEFAULT_MAX_BYTES),
    allowBinary: input.allowBinary ?? false,
    hash: 'sha256',
    media: false,
    fresh: true,
    render: RENDER,
  };
}

function envelope(payload: { ok: true; data: ReadFileData } | { ok: false; error: ReadFileError }): ToolOutput {
  return textOutput(JSON.stringify(payload), !payload.ok, payload);
}

function failure(kind: ReadFileErrorKind, message: string): ToolOutput {
  return envelope({ ok: false, error: { kind, message } });
}

function dataOf(result: ReadResult, input: Input): ToolOutput {
  if (result.kind === 'binary') {
    return envelope({ ok: true, data: { path: result.relativePath, encoding: 'base64', contentBase64: result.data, size: result.size, sha256: result.sha256 } });
  }
  if (result.kind !== 'text' || result.sha256 === null) {
    // Unreachable with `media: false`, `fresh: true` and `hash: 'sha256'`; answered, not thrown.
    return failure('read_failed', `${input.path} could not be read as a plain file.`);
  }
  const cap = input.maxBytes ?? DEFAULT_MAX_BYTES;
  const content = cap < MIN_MAX_BYTES ? cutUtf8(result.content, cap) : result.content;
  const budgetStop = result.truncated !== false && result.truncated.reason !== 'lines';
  return envelope({
    ok: true,
    data: {
      path: result.relativePath,
      encoding: 'utf-8',
      content,
      startLine: result.startLine,
      endLine: result.endLine,
      lineCount: result.totalLines ?? 0,
      truncated: budgetStop || result.cutLines > 0 || content.length < result.content.length,
      bytes: Buffer.byteLength(content),
      size: result.size,
      sha256: result.sha256,
    },
  });
}

function invalidOf(issues: readonly InputIssue[]): ToolOutput {
  return envelope({ ok: false, error: describeInvalid(issueLines(issues)) });
}

export function createCommaTools(engine: Engine, _options: ToolOptions = {}): ToolDefinition[] {
  return [
    defineTool({
      ...TOOL,
      schema,
      invalid: invalidOf,
      run: async (input, context) => {
        // The seed's sandbox refuses absolute paths unless configured to allow them; this one never does.
        if (path.isAbsolute(input.path)) return failure('outside_workspace', `${input.path} is absolute; pass a workspace-relative path.`);
        return dataOf(await readFor(engine, requestOf(input), context), input);
      },
      fail: (error, input) => envelope({ ok: false, error: describeFailure(error, input.path) }),
    }),
  ];
}
