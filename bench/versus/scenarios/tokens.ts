/**
 * What a payload costs a model, estimated the same way for every system: text at 4 characters
 * a token (UTF-8 bytes / 4), an image at width x height / 750 tokens, a PDF document at 1 600
 * tokens a page; a payload over the 5 MB budget a model API takes is flagged, not counted.
 */
import * as mupdf from 'mupdf';
import sharp from 'sharp';
import { payloadBytes, type Payload } from '../system.js';

export const BUDGET_BYTES = 5 * 1024 * 1024;
const TOKENS_PER_PDF_PAGE = 1600;

export async function tokensOf(payload: Payload): Promise<number> {
  let tokens = payload.textBytes / 4;
  for (const part of payload.media) {
    const bytes = Buffer.from(part.data, 'base64');
    // By content, not by the label a tool put on it (a PDF may come back as an "image").
    if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') {
      const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
      tokens += doc.countPages() * TOKENS_PER_PDF_PAGE;
      doc.destroy();
    } else {
      const size = await sharp(bytes)
        .metadata()
        .catch(() => null);
      // Neither a PDF nor an image a decoder knows: counted as the text it would be sent as.
      tokens += size === null ? part.base64Bytes / 4 : ((size.width ?? 0) * (size.height ?? 0)) / 750;
    }
  }
  return Math.round(tokens);
}

export function fitsBudget(payload: Payload): boolean {
  return payloadBytes(payload) <= BUDGET_BYTES;
}
