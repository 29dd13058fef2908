/** What a media read is, by the file's name and, decisively, by its first bytes. */
export type MediaKind = 'image' | 'pdf' | 'notebook';

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'bmp' | 'tiff' | 'avif';

const IMAGE_EXTENSIONS: Readonly<Record<string, ImageFormat>> = {
  '.png': 'png',
  '.jpg': 'jpeg',
  '.jpeg': 'jpeg',
  '.gif': 'gif',
  '.webp': 'webp',
  '.bmp': 'bmp',
  '.tif': 'tiff',
  '.tiff': 'tiff',
  '.avif': 'avif',
};

const DOCUMENT_EXTENSIONS: Readonly<Record<string, MediaKind>> = { '.pdf': 'pdf', '.ipynb': 'notebook' };

/** The longest extension that names a media kind, its dot included. */
const LONGEST_EXTENSION = Math.max(...[...Object.keys(IMAGE_EXTENSIONS), ...Object.keys(DOCUMENT_EXTENSIONS)].map((extension) => extension.length));
const DOT = 0x2e;

/**
 * The media kind a path's extension claims, or null for text (SVG is text: it is XML). Runs on
 * the host for every read, so the dot is looked for among the last few characters only: an
 * extension longer than any listed names no media kind.
 */
export function kindByName(path: string): MediaKind | null {
  const stop = Math.max(0, path.length - LONGEST_EXTENSION);
  let dot = path.length - 1;
  while (dot >= stop && path.charCodeAt(dot) !== DOT) dot--;
  // A slash after the dot leaves it in the "extension", which then names nothing.
  if (dot < stop) return null;
  const extension = path.slice(dot).toLowerCase();
  return DOCUMENT_EXTENSIONS[extension] ?? (IMAGE_EXTENSIONS[extension] === undefined ? null : 'image');
}

/** The image format or PDF that a file's first bytes announce, or null. */
export function sniffMedia(head: Uint8Array): ImageFormat | 'pdf' | null {
  const at = (i: number) => head[i] ?? -1;
  const ascii = (from: number, text: string) => [...text].every((c, i) => at(from + i) === c.charCodeAt(0));
  if (at(0) === 0x89 && ascii(1, 'PNG\r\n\x1a\n')) return 'png';
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'jpeg';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'webp';
  if (ascii(0, 'BM') && head.length >= 26) return 'bmp';
  if ((ascii(0, 'II') && at(2) === 42 && at(3) === 0) || (ascii(0, 'MM') && at(2) === 0 && at(3) === 42)) return 'tiff';
  if (ascii(4, 'ftyp') && (ascii(8, 'avif') || ascii(8, 'avis'))) return 'avif';
  // A PDF header may follow a little junk; readers accept it within the first kilobyte.
  const window = Buffer.from(head.subarray(0, 1024)).toString('latin1');
  if (window.includes('%PDF-')) return 'pdf';
  return null;
}

/** What a format's name reads as for a model: the MIME type. */
export function mimeTypeOf(format: ImageFormat): string {
  return `image/${format}`;
}
