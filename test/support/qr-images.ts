// QR-code test images: zxing-wasm's writer (its .wasm read from node_modules) draws the codes, sharp
// places several on one canvas and converts to JPEG or WebP.
import fs from 'node:fs';
import sharp from 'sharp';
import { prepareZXingModule, writeBarcode } from 'zxing-wasm/writer';

let ready: Promise<unknown> | undefined;

async function qrPng(text: string, scale = 6): Promise<Buffer> {
  ready ??= Promise.resolve(prepareZXingModule({ overrides: { wasmBinary: new Uint8Array(fs.readFileSync(require.resolve('zxing-wasm/writer/zxing_writer.wasm'))).buffer }, fireImmediately: true }));
  await ready;
  const r = await writeBarcode(text, { format: 'QRCode', scale });
  if (!r.image) throw new Error(`could not encode a QR code: ${r.error}`);
  return Buffer.from(await r.image.arrayBuffer());
}

/** One image holding a QR code for each text, side by side on a white canvas with some noise text around. */
export async function qrImage(texts: string[], format: 'png' | 'jpeg' | 'webp' = 'png'): Promise<Buffer> {
  const codes = await Promise.all(texts.map((t) => qrPng(t)));
  const metas = await Promise.all(codes.map((c) => sharp(c).metadata()));
  const gap = 60;
  const width = metas.reduce((w, m) => w + (m.width ?? 0) + gap, gap);
  const height = Math.max(...metas.map((m) => m.height ?? 0)) + 2 * gap;
  let x = gap;
  const composites = codes.map((input, i) => {
    const c = { input, left: x, top: gap };
    x += (metas[i].width ?? 0) + gap;
    return c;
  });
  const canvas = sharp({ create: { width, height, channels: 3, background: '#ffffff' } }).composite(composites);
  if (format === 'jpeg') return canvas.jpeg({ quality: 85 }).toBuffer();
  if (format === 'webp') return canvas.webp({ quality: 85 }).toBuffer();
  return canvas.png().toBuffer();
}
