import type { StopReason } from './core/line-slicer.js';
import type { PageImage } from './media/pdf.js';
import type { MediaFacts } from './media/wire.js';
import type { BinaryPayload, TextPayload } from './wire.js';

/**
 * Why a text result stops before the end of the file, and where the next page starts. A column
 * read of a long line stops with `line-length`: the same line goes on at `nextColumn`.
 */
export type Truncation =
  | {
      readonly reason: StopReason;
      /** Pass as `offset` to read the next page. */
      readonly nextOffset: number;
    }
  | {
      readonly reason: 'line-length';
      /** The same line: pass as `offset`, with `nextColumn` as `column`. */
      readonly nextOffset: number;
      readonly nextColumn: number;
    };

/** A window of numbered lines from a text file. */
export interface TextResult extends Omit<TextPayload, 'stop' | 'index'> {
  /** `false` when the window reaches the end of the file. */
  readonly truncated: false | Truncation;
  /** Guidance for a model (pagination, empty file, offset past the end, cut lines), or null. */
  readonly notice: string | null;
}

/** A file with NUL bytes, served as base64 because the request set `allowBinary`. */
export type BinaryResult = BinaryPayload;

/** Fields every media result carries; media is never hashed whole, so `xxh64` is null. */
export interface MediaResultFacts extends MediaFacts {
  readonly xxh64: null;
  readonly sha256: null;
}

/** One image as served to a model: within the byte budget and the longest side. */
export interface ImagePart {
  readonly mimeType: string;
  /** Base64 of the served bytes. */
  readonly data: string;
  readonly bytes: number;
  readonly width: number;
  readonly height: number;
}

/** An image file, served within the budget (re-encoded and resized when it had to be). */
export interface ImageResult extends MediaResultFacts, ImagePart {
  readonly kind: 'image';
  readonly originalWidth: number;
  readonly originalHeight: number;
  readonly originalBytes: number;
  /** The file was cut short; what could be decoded was re-encoded. */
  readonly repaired: boolean;
  /** For a model: the original and served sizes and the scale to map coordinates back. */
  readonly note: string;
}

/** An image described in words, for a model that takes no images (`accept.images: false`). */
export interface DescriptionResult extends MediaResultFacts {
  readonly kind: 'description';
  readonly text: string;
}

/** A PDF: the document whole, rendered pages, or page text. */
export interface PdfResult extends MediaResultFacts {
  readonly kind: 'pdf';
  readonly pageCount: number;
  readonly form: 'document' | 'images' | 'text';
  /** Pages served (1-based, inclusive); null for the whole document. */
  readonly pages: { readonly first: number; readonly last: number } | null;
  /** `form: 'document'`: the file as base64 (`application/pdf`). */
  readonly data: string | null;
  /** `form: 'images'`: one JPEG a page. */
  readonly images: readonly PageImage[];
  /** `form: 'text'`: the pages' text, each under a `--- page N ---` line. */
  readonly text: string | null;
  readonly note: string;
}

/** A Jupyter notebook rendered as numbered lines (cells, sources, outputs), with its images. */
export interface NotebookResult extends MediaResultFacts {
  readonly kind: 'notebook';
  readonly content: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly totalLines: number;
  readonly truncated: false | Truncation;
  readonly notice: string | null;
  readonly cutLines: number;
  readonly firstCutLine: number | null;
  readonly cells: number;
  readonly images: readonly ImagePart[];
}

/**
 * The session already holds this exact content: it read the same range of the same version, or
 * of a version with the same bytes (a touch, a checkout that rewrote them). Only reads that
 * showed every line asked for, uncut, earn a stub; `fresh: true` and `forgetSession` defeat it.
 */
export interface UnchangedResult {
  readonly kind: 'unchanged';
  /** `same_version`: not written since. `same_content`: written, but byte-identical. */
  readonly reason: 'same_version' | 'same_content';
  readonly path: string;
  readonly relativePath: string;
  /** What to tell the model, including the call that gets the content again. */
  readonly stub: string;
  /** The lines of the earlier read. */
  readonly startLine: number;
  readonly endLine: number;
  readonly totalLines: number | null;
  readonly version: string;
  readonly xxh64: string | null;
  /** When the session read it, in milliseconds since the epoch. */
  readonly readAt: number;
}

/** Every successful answer of `engine.read`, discriminated on `kind`. */
export type ReadResult = TextResult | BinaryResult | UnchangedResult | ImageResult | DescriptionResult | PdfResult | NotebookResult;
