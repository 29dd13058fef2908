/**
 * What every system under comparison answers, in the terms a model sees: the text and media it
 * gets back. A driver maps a window to its tool's own parameters, or says why its tool cannot
 * express it (`Unsupported`), so a scenario reports the reason instead of dropping the peer.
 */

/** A text request as a model would ask it. Lines are 1-based. */
export interface Window {
  /** first line (1-based); absent: from the start */
  readonly offset?: number;
  /** most lines; absent: the tool's default */
  readonly limit?: number;
  /** the last N lines, instead of offset */
  readonly tail?: number;
  /**
   * The file's line count, as a model learns it from a first read's notice: tools without a
   * tail parameter read the end at `totalLines - tail + 1`.
   */
  readonly totalLines?: number;
}

/** One image or document part of a payload. */
export interface MediaPart {
  readonly mimeType: string;
  /** length of its base64 */
  readonly base64Bytes: number;
  readonly data: string;
}

/** What came back to the model for one call. */
export interface Payload {
  /** UTF-8 bytes of every text part */
  readonly textBytes: number;
  readonly media: readonly MediaPart[];
  readonly isError: boolean;
  /** the text's start and end (where notices are), to show what the model got */
  readonly preview: string;
}

export interface System {
  readonly name: string;
  /** `path` is absolute, inside the system's root. */
  read(path: string, window: Window, session?: string): Promise<Payload>;
  /** An image, or PDF pages (`"1-3"`) where the tool takes them. */
  media(path: string, pages?: string): Promise<Payload>;
  /** What a measured run adds besides the host process (an MCP server's peak RSS), in MiB. */
  extraRssMiB?(): number;
  close(): Promise<void>;
}

/** The tool cannot express this request; `message` says why. */
export class Unsupported extends Error {}

export function payloadBytes(payload: Payload): number {
  return payload.textBytes + payload.media.reduce((sum, part) => sum + part.base64Bytes, 0);
}

/** A payload from text parts and media parts as the tool returned them. */
export function payloadOf(texts: readonly string[], media: readonly { mimeType: string; data: string }[], isError: boolean): Payload {
  const all = texts.join('\n');
  return {
    textBytes: texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0),
    media: media.map((part) => ({ mimeType: part.mimeType, base64Bytes: part.data.length, data: part.data })),
    isError,
    preview: (all.length <= 240 ? all : `${all.slice(0, 100)} … ${all.slice(-140)}`).replace(/\s+/g, ' '),
  };
}

/** The window as 1-based inclusive lines, for tools that take a start and a count. */
export function lineRange(window: Window, defaultLimit: number, tool: string): { start: number; count: number } {
  const count = window.limit ?? (window.tail ?? defaultLimit);
  if (window.tail !== undefined) {
    if (window.totalLines === undefined) throw new Unsupported(`${tool} has no tail parameter`);
    return { start: Math.max(1, window.totalLines - window.tail + 1), count: window.tail };
  }
  return { start: window.offset ?? 1, count };
}
