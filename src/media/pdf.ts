import * as mupdf from 'mupdf';
import { messageOf, Refusal } from '../io/refusal.js';
import { binaryBudget, type ImageBudget } from './image.js';

// mupdf reports the repairs it attempts on damaged files on stderr; the answer already says so.
mupdf.setLog(() => undefined);

/** Most pages one request may render or extract. */
export const MAX_PAGES_PER_REQUEST = 20;
/** A PDF with at most this many pages, and under `MAX_DOCUMENT_BYTES`, comes back whole. */
export const MAX_DOCUMENT_PAGES = 10;
export const MAX_DOCUMENT_BYTES = 3 * 1024 * 1024;
/** Pages render at 100 dpi (PDF units are 1/72 inch), bounded by the image budget's longest side. */
const RENDER_DPI = 100;
const JPEG_QUALITIES = [80, 65, 50, 35] as const;

export interface PdfRequest {
  /** "3" or "1-5", 1-based; null for the whole document. */
  readonly pages: string | null;
  /** 'text' extracts page text (for a model that takes neither images nor PDFs). */
  readonly mode: 'auto' | 'text';
  readonly budget: ImageBudget;
  /** Cap on extracted text, in characters. */
  readonly maxTextChars: number;
}

export interface PageImage {
  readonly page: number;
  readonly mimeType: 'image/jpeg';
  readonly data: string;
  readonly bytes: number;
  readonly width: number;
  readonly height: number;
}

export type PdfServed =
  | { readonly form: 'document'; readonly pageCount: number; readonly data: string; readonly bytes: number }
  | { readonly form: 'images'; readonly pageCount: number; readonly first: number; readonly last: number; readonly images: readonly PageImage[] }
  | {
      readonly form: 'text';
      readonly pageCount: number;
      readonly first: number;
      readonly last: number;
      readonly text: readonly { readonly page: number; readonly text: string }[];
      /** Characters left out to keep within `maxTextChars`. */
      readonly omittedChars: number;
    };

export interface PdfOutcome {
  readonly served: PdfServed;
  /** Pixels rendered: a media worker recycles itself after large renders (mupdf's heap never shrinks). */
  readonly renderedPixels: number;
}

/** Parses "3" or "1-5" into a 1-based inclusive range, or explains what is wrong for a model. */
export function parsePages(pages: string, pageCount: number): { first: number; last: number } {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(pages);
  const first = Number(match?.[1]);
  const last = match?.[2] === undefined ? first : Number(match[2]);
  const issue = (text: string) => new Refusal('invalid_request', { issues: [`pages: ${text}`], pageCount });
  if (match === null || !Number.isSafeInteger(first) || first < 1) throw issue(`${JSON.stringify(pages)} is not a page or a range like "3" or "1-5"`);
  if (last < first) throw issue(`the range ${JSON.stringify(pages)} ends before it starts`);
  if (first > pageCount) throw issue(`the document has ${pageCount} page${pageCount === 1 ? '' : 's'}, so page ${first} does not exist`);
  if (last - first + 1 > MAX_PAGES_PER_REQUEST) {
    throw issue(`at most ${MAX_PAGES_PER_REQUEST} pages a request; ask for "${first}-${first + MAX_PAGES_PER_REQUEST - 1}" first`);
  }
  return { first, last: Math.min(last, pageCount) };
}

function openPdf(input: Buffer): mupdf.Document {
  let doc: mupdf.Document;
  try {
    doc = mupdf.Document.openDocument(input, 'application/pdf');
  } catch (error) {
    throw new Refusal('corrupt_media', { reason: 'undecodable', message: messageOf(error) });
  }
  if (doc.needsPassword()) {
    doc.destroy();
    throw new Refusal('encrypted', {});
  }
  return doc;
}

function pageCountOf(doc: mupdf.Document): number {
  let count: number;
  try {
    count = doc.countPages();
  } catch (error) {
    throw new Refusal('corrupt_media', { reason: 'no-pages', message: messageOf(error) });
  }
  if (count <= 0) throw new Refusal('corrupt_media', { reason: 'no-pages' });
  return count;
}

/** Renders one page to a JPEG within `maxBytes`: quality stepped down, then the scale. */
function renderPage(doc: mupdf.Document, index: number, budget: ImageBudget, maxBytes: number): { image: PageImage; pixels: number } {
  const page = doc.loadPage(index);
  try {
    const [x0, y0, x1, y1] = page.getBounds();
    const longest = Math.max(x1 - x0, y1 - y0, 1);
    let scale = Math.min(RENDER_DPI / 72, budget.maxSide / longest);
    let pixels = 0;
    for (;;) {
      const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true);
      try {
        pixels += pixmap.getWidth() * pixmap.getHeight();
        for (const quality of JPEG_QUALITIES) {
          const jpeg = pixmap.asJPEG(quality, false);
          if (jpeg.length <= maxBytes) {
            const data = Buffer.from(jpeg.buffer, jpeg.byteOffset, jpeg.length).toString('base64');
            return { image: { page: index + 1, mimeType: 'image/jpeg', data, bytes: jpeg.length, width: pixmap.getWidth(), height: pixmap.getHeight() }, pixels };
          }
        }
      } finally {
        pixmap.destroy();
      }
      if (longest * scale < 64) throw new Refusal('corrupt_media', { reason: 'cannot-fit-budget', page: index + 1 });
      scale *= 0.75;
    }
  } finally {
    page.destroy();
  }
}

/**
 * Serves a PDF: the whole document when it is small, rendered pages when `pages` is given,
 * page text in text mode. Encrypted documents answer `encrypted`; undecodable ones and ones
 * with no pages `corrupt_media`; a large document without `pages` an `invalid_request` that
 * tells the model which pages to ask for.
 */
export function servePdf(input: Buffer, request: PdfRequest): PdfOutcome {
  const doc = openPdf(input);
  try {
    const pageCount = pageCountOf(doc);
    if (request.mode === 'text') {
      const { first, last } = request.pages === null ? { first: 1, last: Math.min(pageCount, MAX_PAGES_PER_REQUEST) } : parsePages(request.pages, pageCount);
      const text: { page: number; text: string }[] = [];
      let room = request.maxTextChars;
      let omittedChars = 0;
      for (let index = first - 1; index < last; index++) {
        const page = doc.loadPage(index);
        try {
          const structured = page.toStructuredText('preserve-whitespace');
          const whole = structured.asText();
          structured.destroy();
          const kept = whole.slice(0, Math.max(0, room));
          omittedChars += whole.length - kept.length;
          room -= kept.length;
          text.push({ page: index + 1, text: kept });
        } finally {
          page.destroy();
        }
      }
      return { served: { form: 'text', pageCount, first, last, text, omittedChars }, renderedPixels: 0 };
    }
    if (request.pages === null) {
      if (pageCount > MAX_DOCUMENT_PAGES || input.length > MAX_DOCUMENT_BYTES || input.length > binaryBudget(request.budget.maxBase64Bytes)) {
        throw new Refusal('invalid_request', {
          issues: [
            `pages: required for this PDF (${pageCount} pages, ${input.length} bytes; only documents of at most ${MAX_DOCUMENT_PAGES} pages ` +
              `and ${MAX_DOCUMENT_BYTES} bytes come back whole). Ask for a range such as "1-${Math.min(pageCount, MAX_PAGES_PER_REQUEST)}"`,
          ],
          pageCount,
        });
      }
      return { served: { form: 'document', pageCount, data: input.toString('base64'), bytes: input.length }, renderedPixels: 0 };
    }
    const { first, last } = parsePages(request.pages, pageCount);
    const share = Math.floor(binaryBudget(request.budget.maxBase64Bytes) / (last - first + 1));
    const images: PageImage[] = [];
    let renderedPixels = 0;
    for (let index = first - 1; index < last; index++) {
      const { image, pixels } = renderPage(doc, index, request.budget, share);
      images.push(image);
      renderedPixels += pixels;
    }
    return { served: { form: 'images', pageCount, first, last, images }, renderedPixels };
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw new Refusal('corrupt_media', { reason: 'undecodable', message: messageOf(error) });
  } finally {
    doc.destroy();
  }
}
