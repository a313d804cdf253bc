// Image types the QR-code reader accepts, recognised by their first bytes (not by file name).

export type QrImageType = 'png' | 'jpeg' | 'webp';

/** PNG, JPEG or WebP from the first 12 bytes, or undefined. */
export function sniffImageType(head: Uint8Array): QrImageType | undefined {
  if (head.length >= 8 && head[0] === 0x89 && head[1] === 0x50 && head[2] === 0x4e && head[3] === 0x47) return 'png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  const ascii = (from: number, to: number): string => String.fromCharCode(...head.subarray(from, to));
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return undefined;
}
