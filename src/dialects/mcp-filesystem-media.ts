/**
 * `read_media_file`'s answer as the MCP filesystem server gives it: image and audio files as
 * image/audio content, anything else as an embedded resource named by its file URL, base64 each
 * time, and the same items as `structuredContent` (`data`).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ReadResult } from '../result.js';
import { bodyOf } from './mcp-filesystem-text.js';
import * as prose from './mcp-filesystem-prose.js';
import { imagePart, text, textOutput } from './parts.js';
import type { ToolOutput } from './tool.js';

export function mediaOutput(result: ReadResult, absolute: string): ToolOutput {
  const mimeType = prose.MEDIA_TYPES[path.extname(result.path).toLowerCase()] ?? 'application/octet-stream';
  let data: string;
  switch (result.kind) {
    case 'image': {
      const item = { type: 'image', data: result.data, mimeType: result.mimeType };
      return { content: [imagePart(result)], isError: false, data: { content: [item] } };
    }
    case 'description':
      return { content: [text(result.text)], isError: false, data: { content: [] } };
    case 'pdf':
      if (result.data === null) return textOutput(prose.describeMediaAsText(absolute, 'pdf'), true);
      data = result.data;
      break;
    case 'binary':
      data = result.data;
      break;
    case 'text': {
      const exact = result.encoding === 'utf-8' && result.lineEnding !== 'mixed' && result.truncated === false;
      if (!exact) return textOutput(`Cannot read ${absolute} as media: it is text too large for readpool's output budget, or not plain UTF-8. Use read_text_file.`, true);
      data = Buffer.from(bodyOf(result, 'whole')).toString('base64');
      break;
    }
    case 'notebook': // never: notebooks are read with media: false
    case 'unchanged': // never: every read is fresh
      throw new Error(`read_media_file: unexpected ${result.kind} result`);
  }
  const type = mimeType.startsWith('image/') ? 'image' : mimeType.startsWith('audio/') ? 'audio' : 'resource';
  if (type === 'resource') {
    const uri = pathToFileURL(result.path).href;
    return { content: [{ type, uri, mimeType, data }], isError: false, data: { content: [{ type, resource: { uri, mimeType, blob: data } }] } };
  }
  return { content: [{ type, mimeType, data }], isError: false, data: { content: [{ type, data, mimeType }] } };
}
