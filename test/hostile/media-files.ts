/**
 * Hostile media, built byte by byte: a PNG header claiming a pixel bomb, raw PDFs (deeply
 * nested, a content stream that inflates to gigabytes), and notebooks too deep or too large.
 */
import zlib from 'node:zlib';
import { pngChunk as chunk } from '../../fixtures/media.js';

/** A valid PNG signature and header claiming `width` x `height`, with a token data chunk. */
export function pngClaiming(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(16))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A one-page PDF from raw object bodies (1: catalog, 2: pages, 3: page, 4: contents), with a correct xref. */
export function rawPdf(page: string, contents: Buffer): Buffer {
  const objects = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(page),
    contents,
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  const offsets: number[] = [];
  let at = parts[0]?.length ?? 0;
  objects.forEach((body, index) => {
    const framed = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    offsets.push(at);
    parts.push(framed);
    at += framed.length;
  });
  const xref = ['xref', `0 ${objects.length + 1}`, '0000000000 65535 f ', ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `)].join('\n');
  parts.push(Buffer.from(`${xref}\ntrailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`));
  return Buffer.concat(parts);
}

/** A page whose resources nest `depth` arrays deep. */
export function nestedPdf(depth: number): Buffer {
  const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const contents = Buffer.from('BT /F1 12 Tf 72 700 Td (nested) Tj ET');
  const stream = Buffer.concat([Buffer.from(`<< /Length ${contents.length} >>\nstream\n`), contents, Buffer.from('\nendstream')]);
  return rawPdf(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Deep ${nested} >> /Contents 4 0 R >>`, stream);
}

/** A page whose content stream is `gib` GiB of spaces, deflated (about 1 MB a GiB). */
export async function inflatingPdf(gib: number): Promise<Buffer> {
  const deflate = zlib.createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (data: Buffer) => out.push(data));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  const block = Buffer.alloc(16 * 1024 ** 2, 0x20);
  for (let i = 0; i < gib * 64; i++) deflate.write(block);
  deflate.end();
  await ended;
  const data = Buffer.concat(out);
  const stream = Buffer.concat([Buffer.from(`<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`), data, Buffer.from('\nendstream')]);
  return rawPdf('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>', stream);
}

/** A notebook whose first cell's source nests `depth` arrays deep. */
export function deepNotebook(depth: number): string {
  return `{"nbformat":4,"nbformat_minor":5,"metadata":{},"cells":[{"cell_type":"code","metadata":{},"outputs":[],"source":${'['.repeat(depth)}${']'.repeat(depth)}}]}`;
}
