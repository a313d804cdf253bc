// QR codes in images: deposit pages often show the address only as a QR image.
// sharp decodes PNG, JPEG and WebP to RGBA pixels; zxing-wasm (ZXing-C++ in WebAssembly, its .wasm
// read from node_modules, never fetched) finds every QR code in them; each decoded payload (usually
// a payment URI) goes through the same WalletScanner as pages, with the source `qr`. Used by
// `fip ssi wallet scan <image>` and by investigations on page screenshots and <img> elements.
import fs from 'node:fs';
import sharp, { type Sharp } from 'sharp';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { WalletScanner } from '../../domain/wallets/wallet-scanner';
import type { ExtractionResult } from '../../domain/wallets/wallet-types';

export { sniffImageType, type QrImageType } from '../../domain/wallets/image-type';

let zxingReady: Promise<unknown> | undefined;

/** Loads the reader's WebAssembly from the installed package (no CDN). */
function zxing(): Promise<unknown> {
  zxingReady ??= Promise.resolve(prepareZXingModule({
    overrides: { wasmBinary: new Uint8Array(fs.readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'))).buffer },
    fireImmediately: true,
  }));
  return zxingReady;
}

/** Largest image side we decode in one piece. */
const MAX_SIDE = 4096;
/** A tall image (a full-page screenshot) is read in overlapping bands this high, at most MAX_BANDS. */
const BAND = 2048;
const BAND_OVERLAP = 512;
const MAX_BANDS = 16;

/**
 * Text of every QR code in a PNG, JPEG or WebP image (duplicates removed, in reading order). A tall
 * image is read in overlapping full-width bands rather than scaled down, so a QR code on a long
 * page keeps its resolution; a wide one is scaled to fit.
 */
export async function decodeQrCodes(image: Buffer): Promise<string[]> {
  const meta = await sharp(image, { limitInputPixels: 100_000_000 }).metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  const texts: string[] = [];
  if (width <= MAX_SIDE && height > MAX_SIDE) {
    // Orientation first, then bands of the upright image.
    const upright = await sharp(image, { limitInputPixels: 100_000_000 }).rotate().png().toBuffer({ resolveWithObject: true });
    const h = upright.info.height;
    for (let top = 0, n = 0; top < h && n < MAX_BANDS; top += BAND - BAND_OVERLAP, n++) {
      texts.push(...(await decodePixels(sharp(upright.data).extract({ left: 0, top, width: upright.info.width, height: Math.min(BAND, h - top) }))));
      if (top + BAND >= h) break;
    }
  } else {
    let pipeline = sharp(image, { limitInputPixels: 100_000_000 }).rotate();
    if (width > MAX_SIDE || height > MAX_SIDE) pipeline = pipeline.resize(MAX_SIDE, MAX_SIDE, { fit: 'inside' });
    texts.push(...(await decodePixels(pipeline)));
  }
  return [...new Set(texts)];
}

async function decodePixels(pipeline: Sharp): Promise<string[]> {
  const { data, info } = await pipeline.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  await zxing();
  const pixels = { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, colorSpace: 'srgb' } as ImageData;
  const results = await readBarcodes(pixels, { formats: ['QRCode', 'MicroQRCode', 'RMQRCode'], maxNumberOfSymbols: 64, tryHarder: true });
  return results.filter((r) => r.isValid && r.text).map((r) => r.text);
}

/** Wallets in the QR codes of images: each payload is scanned like text; the source is `qr`. */
export async function extractWalletsFromImages(images: readonly Buffer[], options: { includeRejected?: boolean } = {}): Promise<ExtractionResult & { qrCodes: number }> {
  const scanner = new WalletScanner({ html: false, via: 'qr' }, { includeRejected: options.includeRejected });
  let qrCodes = 0;
  for (const image of images) {
    for (const payload of await decodeQrCodes(image)) {
      qrCodes++;
      scanner.push(`${payload}\n\n`);
    }
  }
  return { ...scanner.end(), qrCodes };
}
