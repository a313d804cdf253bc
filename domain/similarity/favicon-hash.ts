// The favicon hash as Shodan and the threat-intelligence tools that follow it compute it
// (`http.favicon.hash`): MurmurHash3 x86_32, seed 0, of the favicon's bytes in base64 with a newline
// after every 76 characters and at the end (Python's base64.encodebytes), as a signed 32-bit integer.
import murmurhash from 'murmurhash';

export function encodebytes(bytes: Buffer): string {
  const b64 = bytes.toString('base64');
  let out = '';
  for (let i = 0; i < b64.length; i += 76) out += b64.slice(i, i + 76) + '\n';
  return out;
}

export function faviconHash(bytes: Buffer): number {
  // base64 is ASCII, so hashing its characters is hashing its bytes.
  return murmurhash.v3(encodebytes(bytes), 0) | 0;
}
