import { messageOf, Refusal } from '../io/refusal.js';
import { serveImage, type ImageBudget, type ServedImage } from './image.js';

/** An output longer than this many characters is cut, with a note of how much was left out. */
export const MAX_OUTPUT_CHARS = 4000;
/** Image outputs returned as images; later ones are listed but not sent. */
export const MAX_NOTEBOOK_IMAGES = 8;

export interface RenderedNotebook {
  /** The cells as text lines, ready to be numbered and windowed like a text file. */
  readonly text: string;
  readonly cells: number;
  readonly images: readonly ServedImage[];
}

interface Output {
  readonly output_type?: unknown;
  readonly text?: unknown;
  readonly name?: unknown;
  readonly data?: Readonly<Record<string, unknown>>;
  readonly ename?: unknown;
  readonly evalue?: unknown;
  readonly traceback?: unknown;
}

interface Cell {
  readonly cell_type?: unknown;
  readonly source?: unknown;
  readonly outputs?: unknown;
}

/** Notebook text fields are a string or a list of lines. */
function joined(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((part): part is string => typeof part === 'string').join('');
  return '';
}

// eslint-disable-next-line no-control-regex -- ANSI colour codes are control sequences by definition
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

function capped(text: string): string {
  const clean = text.replace(ANSI, '').replace(/\n$/, '');
  if (clean.length <= MAX_OUTPUT_CHARS) return clean;
  return `${clean.slice(0, MAX_OUTPUT_CHARS)}\n[output elided: ${clean.length - MAX_OUTPUT_CHARS} more characters. Re-run the cell or save its output to a file to see it all.]`;
}

/**
 * Renders a Jupyter notebook (nbformat 4) as text: each cell in order with its type, its
 * source, and its outputs (streams, results, errors without colour codes); long outputs cut
 * with a note; PNG and JPEG outputs served as images through the image budget, shared.
 */
export async function renderNotebook(input: Buffer, budget: ImageBudget, withImages: boolean): Promise<RenderedNotebook> {
  let notebook: unknown;
  try {
    notebook = JSON.parse(input.toString('utf8'));
  } catch (error) {
    throw new Refusal('corrupt_media', { reason: 'not-json', message: messageOf(error) });
  }
  const cells = (notebook as { cells?: unknown }).cells;
  if (typeof notebook !== 'object' || notebook === null || !Array.isArray(cells)) {
    throw new Refusal('corrupt_media', { reason: 'not-a-notebook' });
  }
  const language = joined((notebook as { metadata?: { language_info?: { name?: unknown } } }).metadata?.language_info?.name) || 'code';
  const pending: { readonly bytes: Buffer; readonly mime: string }[] = [];
  const lines: string[] = [];
  (cells as Cell[]).forEach((cell, index) => {
    const type = typeof cell.cell_type === 'string' ? cell.cell_type : 'unknown';
    lines.push(`[cell ${index + 1}: ${type === 'code' ? `code, ${language}` : type}]`);
    const source = joined(cell.source);
    if (source.length > 0) lines.push(source.replace(/\n$/, ''));
    const outputs = Array.isArray(cell.outputs) ? (cell.outputs as Output[]) : [];
    for (const output of outputs) {
      const kind = output.output_type;
      if (kind === 'stream') {
        lines.push(`[output: ${joined(output.name) || 'stream'}]`, capped(joined(output.text)));
      } else if (kind === 'error') {
        const traceback = Array.isArray(output.traceback) ? output.traceback.filter((line): line is string => typeof line === 'string').join('\n') : '';
        lines.push(`[error: ${joined(output.ename)}: ${joined(output.evalue)}]`, capped(traceback));
      } else if (kind === 'execute_result' || kind === 'display_data') {
        const data = output.data ?? {};
        const image = (['image/png', 'image/jpeg'] as const).find((mime) => typeof data[mime] === 'string' || Array.isArray(data[mime]));
        if (image !== undefined && !withImages) {
          lines.push(`[image output: ${image}, not returned: this model takes no images]`);
        } else if (image !== undefined && pending.length < MAX_NOTEBOOK_IMAGES) {
          pending.push({ bytes: Buffer.from(joined(data[image]).replace(/\s/g, ''), 'base64'), mime: image });
          lines.push(`[image output: ${image}, returned as image ${pending.length} of this result]`);
        } else if (image !== undefined) {
          lines.push(`[image output: ${image}, not returned: only the first ${MAX_NOTEBOOK_IMAGES} images of a notebook are]`);
        } else {
          lines.push('[output]', capped(joined(data['text/plain'])));
        }
      }
    }
  });
  const images: ServedImage[] = [];
  for (const { bytes } of pending) {
    images.push(await serveImage(bytes, budget, 1 / pending.length));
  }
  return { text: lines.join('\n'), cells: cells.length, images };
}
