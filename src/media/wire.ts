/**
 * What crosses the thread boundary to and from the media pool. Media reads are few and heavy,
 * so a job is one plain object per task (no columnar batching as for small text reads), and
 * payloads carry base64 strings, which clone as one copy.
 */
import type { RenderSpec } from '../core/line-format.js';
import type { SliceLimits, WindowFields } from '../core/line-slicer.js';
import type { ReadErrorCode } from '../errors.js';
import type { ThreadPriority } from '../io/thread-priority.js';
import type { SandboxConfig } from '../wire.js';
import type { ImageBudget, ServedImage } from './image.js';
import type { ImageFormat, MediaKind } from './kind.js';
import type { PdfServed } from './pdf.js';

/** Settings each media worker receives once; `maxFileBytes` is the engine's `maxMediaBytes`. */
export interface MediaConfig extends SandboxConfig, ThreadPriority {
  readonly budget: ImageBudget;
  /** Notebooks are parsed whole: larger ones are refused before parsing. */
  readonly maxNotebookBytes: number;
  readonly render: RenderSpec;
}

export interface MediaJob {
  readonly path: string;
  readonly kind: MediaKind;
  /** PDF page range, "3" or "1-5". */
  readonly pages: string | null;
  /** False when the model takes no images: images are described, PDF pages extracted as text. */
  readonly images: boolean;
  /** False when the model takes no PDF documents: a PDF is served as page text (or page images). */
  readonly pdf: boolean;
  /** Window of a notebook's rendered lines. */
  readonly limits: SliceLimits;
  /** A dialect's line render for a notebook, or null for the pool's own. */
  readonly render: RenderSpec | null;
  readonly deadline: number;
}

export interface MediaFacts {
  readonly path: string;
  readonly relativePath: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly version: string;
}

export type MediaPayload =
  | (MediaFacts & { readonly kind: 'image'; readonly image: ServedImage })
  | (MediaFacts & { readonly kind: 'image-info'; readonly format: ImageFormat; readonly width: number; readonly height: number })
  | (MediaFacts & { readonly kind: 'pdf'; readonly served: PdfServed })
  | (MediaFacts & WindowFields & { readonly kind: 'notebook'; readonly cells: number; readonly images: readonly ServedImage[] });

export type MediaOutcome =
  | { readonly ok: true; readonly value: MediaPayload; readonly recycle: boolean }
  | { readonly ok: false; readonly code: ReadErrorCode; readonly details: Readonly<Record<string, unknown>> };
