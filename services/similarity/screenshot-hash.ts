// The perceptual hash of a screenshot: dHash (the brightness gradient of a 9x8 grey thumbnail, one
// bit per neighbouring pair), which survives rescaling, recompression and small colour changes.
// Blank and near-blank screenshots (an error page, a white page still loading, a few lines of text
// on white) all look alike, so they get no hash. Two guards: the 32x32 grey thumbnail's spread of
// brightness, and how many of the 9x8 thumbnail's 64 neighbouring pairs differ at all (a sparse
// page's hash is mostly "equal" bits, which match any other sparse page's).
import sharp from 'sharp';

/** A screenshot whose 32x32 grey thumbnail has a brightness standard deviation below this is blank. */
export const BLANK_STDDEV = 8;
/** Fewer of the 64 neighbouring pairs than this differing by GRADIENT_LEVELS or more: near-blank. */
export const MIN_GRADIENTS = 20;
const GRADIENT_LEVELS = 3;

export interface ScreenshotHash {
  /** 16 hex digits, or null for a blank or near-blank screenshot. */
  dhash: string | null;
  blank: boolean;
}

export async function screenshotHash(png: Buffer): Promise<ScreenshotHash> {
  const grey = await sharp(png, { limitInputPixels: 64_000_000 }).greyscale().resize(32, 32, { fit: 'fill' }).raw().toBuffer();
  let sum = 0;
  for (const v of grey) sum += v;
  const mean = sum / grey.length;
  let variance = 0;
  for (const v of grey) variance += (v - mean) ** 2;
  if (Math.sqrt(variance / grey.length) < BLANK_STDDEV) return { dhash: null, blank: true };
  const px = await sharp(png, { limitInputPixels: 64_000_000 }).greyscale().resize(9, 8, { fit: 'fill' }).raw().toBuffer();
  let hi = 0;
  let lo = 0;
  let gradients = 0;
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      if (Math.abs(px[y * 9 + x]! - px[y * 9 + x + 1]!) >= GRADIENT_LEVELS) gradients++;
      const bit = px[y * 9 + x]! > px[y * 9 + x + 1]! ? 1 : 0;
      const i = y * 8 + x;
      if (i < 32) hi |= bit << i;
      else lo |= bit << (i - 32);
    }
  }
  if (gradients < MIN_GRADIENTS) return { dhash: null, blank: true };
  return { dhash: (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0'), blank: false };
}
