import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { messageOf, Refusal } from '../io/refusal.js';
import { mimeTypeOf, sniffMedia, type ImageFormat } from './kind.js';

/** Limits every served image is held to. */
export interface ImageBudget {
  /** Largest base64 payload of the served image(s). Default 5 MB. */
  readonly maxBase64Bytes: number;
  /** Longest side served, in pixels. Default 2000. */
  readonly maxSide: number;
  /** Images with more pixels than this are refused before they are decoded (pixel bombs). */
  readonly maxPixels: number;
  /** Seconds libvips may spend on one image. */
  readonly timeoutSeconds: number;
}

export interface ServedImage {
  readonly mimeType: string;
  /** Base64 of the served bytes. */
  readonly data: string;
  readonly bytes: number;
  readonly width: number;
  readonly height: number;
  readonly originalFormat: ImageFormat;
  readonly originalWidth: number;
  readonly originalHeight: number;
  readonly originalBytes: number;
  /** True when the file was cut short and what could be decoded was re-encoded. */
  readonly repaired: boolean;
}

/** Formats a model takes as they are; anything else is re-encoded. */
const SERVABLE: ReadonlySet<ImageFormat> = new Set(['png', 'jpeg', 'gif', 'webp']);
const JPEG_QUALITIES = [80, 65, 50, 35] as const;
/** Below this many stored bytes a pixel, a PNG is drawn art that stays PNG; above, a photo. */
const PHOTO_BYTES_PER_PIXEL = 0.75;

/** Largest binary size whose base64 fits `maxBase64Bytes`. */
export function binaryBudget(maxBase64Bytes: number): number {
  return Math.floor(maxBase64Bytes / 4) * 3;
}

function corrupt(reason: string, error?: unknown): Refusal {
  return new Refusal('corrupt_media', { reason, ...(error === undefined ? {} : { message: messageOf(error) }) });
}

/** True when the bytes end before the format's end marker: a download or copy cut short. */
function looksTruncated(format: ImageFormat, input: Buffer): boolean {
  const tail = input.subarray(Math.max(0, input.length - 64));
  if (format === 'jpeg') return !tail.includes(Buffer.from([0xff, 0xd9]));
  if (format === 'png') return !tail.includes(Buffer.from('IEND', 'latin1'));
  return false;
}

/**
 * Serves one image within the budget: as it is when a model can take it so, otherwise decoded
 * once (EXIF-rotated, first frame, bounded pixels, a timeout), resized to the longest side, and
 * encoded in a cascade until it fits: PNG while a drawing fits, JPEG for photos with the quality
 * stepped down, then the size stepped down. Never reads a path: only the bytes it is given.
 */
export async function serveImage(input: Buffer, budget: ImageBudget, share = 1): Promise<ServedImage> {
  const format = sniffMedia(input);
  if (format === null || format === 'pdf') throw corrupt('not-an-image');
  let meta: Metadata;
  try {
    // Header only: dimensions are known before a single pixel is decoded.
    meta = await sharp(input, { limitInputPixels: false, failOn: 'none', pages: 1 }).metadata();
  } catch (error) {
    throw corrupt('undecodable', error);
  }
  const width = meta.width;
  const height = meta.pageHeight ?? meta.height;
  if (width === undefined || height === undefined || width === 0 || height === 0) throw corrupt('no-dimensions');
  if (width * height > budget.maxPixels) {
    throw new Refusal('file_too_large', { width, height, pixels: width * height, limit: budget.maxPixels, limitName: 'maxImagePixels' });
  }
  const orientation = meta.orientation ?? 1;
  const [originalWidth, originalHeight] = orientation >= 5 ? [height, width] : [width, height];
  const repaired = looksTruncated(format, input);
  const maxBinary = Math.floor(binaryBudget(budget.maxBase64Bytes) * share);
  const served = (bytes: Buffer, mime: string, w: number, h: number): ServedImage => ({
    mimeType: mime,
    data: bytes.toString('base64'),
    bytes: bytes.length,
    width: w,
    height: h,
    originalFormat: format,
    originalWidth,
    originalHeight,
    originalBytes: input.length,
    repaired,
  });
  const pages = meta.pages ?? 1;
  if (!repaired && SERVABLE.has(format) && pages === 1 && orientation === 1 && Math.max(width, height) <= budget.maxSide && input.length <= maxBinary) {
    return served(input, mimeTypeOf(format), width, height);
  }

  const scale = Math.min(1, budget.maxSide / Math.max(originalWidth, originalHeight));
  const targetWidth = Math.max(1, Math.round(originalWidth * scale));
  const targetHeight = Math.max(1, Math.round(originalHeight * scale));
  const decode = () =>
    sharp(input, { limitInputPixels: budget.maxPixels, failOn: 'none', pages: 1, sequentialRead: true })
      .timeout({ seconds: budget.timeoutSeconds })
      .rotate()
      .resize({ width: targetWidth, height: targetHeight, fit: 'fill' });
  const photo = format === 'jpeg' || input.length / (width * height) > PHOTO_BYTES_PER_PIXEL;
  // The likely answer in one pass (decode, resize, encode): a photo as JPEG, a drawing as PNG.
  try {
    const first = photo
      ? await decode().flatten({ background: '#ffffff' }).jpeg({ quality: JPEG_QUALITIES[0] }).toBuffer()
      : await decode().png({ compressionLevel: 6 }).toBuffer();
    if (first.length <= maxBinary) return served(first, photo ? 'image/jpeg' : 'image/png', targetWidth, targetHeight);
  } catch (error) {
    throw corrupt('undecodable', error);
  }
  // Too large: decode once more to raw pixels and step quality, then size, down from there.
  let raw: { data: Buffer; info: OutputInfo };
  try {
    raw = await decode().raw().toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw corrupt('undecodable', error);
  }
  let { data, info } = raw;
  for (;;) {
    const fromRaw = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
    if (!photo) {
      const png = await fromRaw().png({ compressionLevel: 6 }).toBuffer();
      if (png.length <= maxBinary) return served(png, 'image/png', info.width, info.height);
    }
    for (const quality of JPEG_QUALITIES) {
      const jpeg = await fromRaw().flatten({ background: '#ffffff' }).jpeg({ quality, mozjpeg: false }).toBuffer();
      if (jpeg.length <= maxBinary) return served(jpeg, 'image/jpeg', info.width, info.height);
    }
    if (Math.max(info.width, info.height) <= 64) throw corrupt('cannot-fit-budget');
    const smaller = await fromRaw()
      .resize({ width: Math.max(1, Math.round(info.width * 0.75)), height: Math.max(1, Math.round(info.height * 0.75)), fit: 'fill' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    ({ data, info } = smaller);
  }
}
