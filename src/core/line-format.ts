/**
 * How a dialect numbers lines. Plain data, so it can travel to a worker with the job:
 * `N\tline` is `{ numbered: true, prefix: '', width: 0, separator: '\t' }`.
 */
export type LineFormat =
  | { readonly numbered: false }
  | { readonly numbered: true; readonly prefix: string; readonly width: number; readonly separator: string };

/** What a worker needs to render a window of lines; supplied by the dialect. */
export interface RenderSpec {
  readonly format: LineFormat;
  /** Appended to a line cut at `maxLineChars`; `{shown}` and `{bytes}` are filled in. */
  readonly cutMarker: string;
  /**
   * `'lines'` (the default): a line longer than `maxLineChars` is cut with the marker, and the
   * window stops at the last whole line that fits the budget. `'budget'`: lines are never cut for
   * their length; the output is filled to its byte budget, the line that does not fit cut at the
   * last whole character (a byte-capped slice, as seed 002's `maxBytes` is).
   */
  readonly cut?: 'lines' | 'budget';
}

export function renderLine(format: LineFormat, lineNumber: number, text: string): string {
  if (!format.numbered) return text;
  const number = format.width > 0 ? String(lineNumber).padStart(format.width) : String(lineNumber);
  return `${format.prefix}${number}${format.separator}${text}`;
}

/** A numbered format's line head as UTF-8 bytes, for rendering regions of lines as bytes (`RegionRenderer`). */
export interface HeadBytes {
  readonly prefix: Buffer;
  readonly width: number;
  readonly separator: Buffer;
}

export function headBytesOf(format: LineFormat): HeadBytes | null {
  if (!format.numbered) return null;
  // Made once a format: every window asks, and a thread renders in one format nearly always.
  let head = headsByFormat.get(format);
  if (head === undefined) {
    head = { prefix: Buffer.from(format.prefix), width: format.width, separator: Buffer.from(format.separator) };
    headsByFormat.set(format, head);
  }
  return head;
}

const headsByFormat = new WeakMap<LineFormat, HeadBytes>();

export function fillCutMarker(marker: string, shown: number, bytes: number): string {
  return marker.replace('{shown}', String(shown)).replace('{bytes}', String(bytes));
}

/** True when `value` is a well-formed `RenderSpec` (requests carry them from dialects). */
export function isRenderSpec(value: unknown): value is RenderSpec {
  if (typeof value !== 'object' || value === null) return false;
  const spec = value as { format?: unknown; cutMarker?: unknown; cut?: unknown };
  if (typeof spec.cutMarker !== 'string' || spec.cutMarker.length > 256) return false;
  if (spec.cut !== undefined && spec.cut !== 'lines' && spec.cut !== 'budget') return false;
  const format = spec.format as { numbered?: unknown; prefix?: unknown; width?: unknown; separator?: unknown } | null;
  if (typeof format !== 'object' || format === null) return false;
  if (format.numbered === false) return true;
  return (
    format.numbered === true &&
    typeof format.prefix === 'string' &&
    format.prefix.length <= 64 &&
    typeof format.separator === 'string' &&
    format.separator.length <= 64 &&
    Number.isInteger(format.width) &&
    (format.width as number) >= 0 &&
    (format.width as number) <= 16
  );
}
