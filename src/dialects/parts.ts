/**
 * Content parts, shared by every dialect: text, and media passed through as the engine serves it
 * (images within the budget, PDFs whole or as page images, notebook images).
 */
import type { ImagePart, NotebookResult, PdfResult } from '../result.js';
import type { ContentPart, ToolOutput } from './tool.js';

export function text(value: string): ContentPart {
  return { type: 'text', text: value };
}

/** A plain text answer. */
export function textOutput(value: string, isError: boolean, data?: unknown): ToolOutput {
  return data === undefined ? { content: [text(value)], isError } : { content: [text(value)], isError, data };
}

export function imagePart(image: Pick<ImagePart, 'mimeType' | 'data'>): ContentPart {
  return { type: 'image', mimeType: image.mimeType, data: image.data };
}

/** A PDF as the engine served it: one document part, one image part a page, or the page text. */
export function pdfParts(result: PdfResult): ContentPart[] {
  switch (result.form) {
    case 'document':
      return result.data === null ? [] : [{ type: 'document', mimeType: 'application/pdf', data: result.data }];
    case 'images':
      return result.images.map(imagePart);
    case 'text':
      return result.text === null ? [] : [text(result.text)];
  }
}

/** A notebook's rendered lines (with a notice, if any) and then its image outputs. */
export function notebookParts(result: NotebookResult, body: string): ContentPart[] {
  return [text(body), ...result.images.map(imagePart)];
}
