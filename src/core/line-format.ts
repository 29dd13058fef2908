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
}

export function renderLine(format: LineFormat, lineNumber: number, text: string): string {
  if (!format.numbered) return text;
  const number = format.width > 0 ? String(lineNumber).padStart(format.width) : String(lineNumber);
  return `${format.prefix}${number}${format.separator}${text}`;
}

export function fillCutMarker(marker: string, shown: number, bytes: number): string {
  return marker.replace('{shown}', String(shown)).replace('{bytes}', String(bytes));
}
