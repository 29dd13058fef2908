/**
 * PilotDeck's PDF rules (see `pilotdeck.ts`): a PDF of more than 10 pages needs `pages`; pages
 * asked for come back as images after the "PDF pages extracted" line; a PDF the model cannot
 * take whole (no PDF input, or over 3 MB) is rendered as its first 20 pages; a model that takes
 * no images is told in the seed's bracketed words what it cannot see.
 */
import type { Engine } from '../engine.js';
import type { PdfResult } from '../result.js';
import { imagePart, text, textOutput } from './parts.js';
import { parsePageRange } from './pdf-pages.js';
import { runtime, stub } from './pilotdeck-output.js';
import * as prose from './pilotdeck-prose.js';
import { readFor, type ToolContext, type ToolOutput } from './tool.js';

/** A context without the session: reads that only learn a PDF's facts leave no mark to stub. */
function sessionless(context: ToolContext): ToolContext {
  const rest = { ...context };
  delete (rest as { session?: string }).session;
  return rest;
}

/** `filePath` and `pages` as the call gave them (`pages` already checked by validateInput). */
export async function pdfOutput(engine: Engine, filePath: string, pages: string | undefined, context: ToolContext): Promise<ToolOutput> {
  const supportsPdf = context.accept?.pdf !== false;
  const supportsImage = context.accept?.images !== false;
  const probe = await readFor(engine, { path: filePath, pages: '1', accept: { images: false, pdf: false } }, sessionless(context));
  if (probe.kind !== 'pdf') throw new Error(`pilotdeck: unexpected ${probe.kind} result for a PDF`);
  const { relativePath, size, pageCount } = probe;
  /** The pages as images, or the whole document when `range` is undefined; null when the file is unchanged. */
  const render = async (range: string | undefined): Promise<PdfResult | null> => {
    const result = await readFor(engine, { path: filePath, ...(range === undefined ? {} : { pages: range }), accept: { images: true, pdf: range === undefined } }, context);
    if (result.kind === 'unchanged') return null;
    if (result.kind !== 'pdf') throw new Error(`pilotdeck: unexpected ${result.kind} result for a PDF`);
    return result;
  };
  const parsed = pages === undefined ? null : parsePageRange(pages);
  if (pages !== undefined && parsed !== null) {
    if (parsed.last > pageCount) return runtime('invalid_tool_input', prose.pdfRangePastEnd(pages, pageCount));
    if (!supportsImage) return textOutput(prose.pdfPagesNoImages(relativePath, size, pageCount), false, { filePath: relativePath, kind: 'pdf', modelSupportsImage: false, pageCount });
    const result = await render(pages);
    if (result === null) return stub(relativePath, 'pdf');
    const { first: firstPage, last: lastPage } = parsed;
    const data = { filePath: relativePath, kind: 'pdf', pdfPagesRendered: true, pageCount, requestedPages: pages, renderedPages: { firstPage, lastPage }, truncated: false };
    return { content: [text(prose.pdfPagesExtracted(relativePath, firstPage, lastPage, pageCount)), ...result.images.map(imagePart)], isError: false, data };
  }
  if (pageCount > prose.PDF_AT_MENTION_INLINE_THRESHOLD) return runtime('invalid_tool_input', prose.pdfTooManyPages(pageCount));
  if (!supportsPdf || size > prose.PDF_EXTRACT_SIZE_THRESHOLD) {
    if (!supportsImage) {
      return textOutput(prose.pdfNoPdfNoImages(relativePath, size, pageCount), false, { filePath: relativePath, kind: 'pdf', modelSupportsPdf: false, modelSupportsImage: false, pageCount });
    }
    const lastPage = Math.min(pageCount, prose.MAX_PDF_PAGES_PER_REQUEST);
    const result = await render(`1-${lastPage}`);
    if (result === null) return stub(relativePath, 'pdf');
    const degradeReason = supportsPdf ? prose.DEGRADE_SIZE : prose.DEGRADE_NO_PDF;
    const data = { filePath: relativePath, kind: 'pdf', modelSupportsPdf: supportsPdf, pdfPagesRendered: true, degradeReason, pageCount, renderedPages: { firstPage: 1, lastPage }, truncated: false };
    return { content: [text(prose.pdfPagesRendered(relativePath, 1, lastPage, pageCount, degradeReason)), ...result.images.map(imagePart)], isError: false, data };
  }
  const result = await render(undefined);
  if (result === null) return stub(relativePath, 'pdf');
  if (result.data === null) throw new Error('pilotdeck: expected the whole PDF as a document');
  const data = { filePath: relativePath, kind: 'pdf', bytes: size, pageCount };
  return { content: [text(prose.pdfRead(relativePath, size, pageCount)), { type: 'document', mimeType: 'application/pdf', data: result.data }], isError: false, data };
}
