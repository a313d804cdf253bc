// TON user-friendly addresses (TEP-2): 36 bytes = tag ‖ workchain ‖ account(32) ‖ CRC16-XModem (BE),
// 48 chars of base64url or standard base64. Normalised to the raw `wc:hex` form for deduplication.
import { base64nopad, base64urlnopad, hex } from '@scure/base';
import { crc16Xmodem } from '../codecs/crc16-xmodem';
import type { DecodeResult } from '../wallet-types';
import { addressMatch, emptyResult, failure, otherMatch } from './address-match';

export function decodeTonFriendly(s: string): DecodeResult {
  if (s.length !== 48) return emptyResult();
  let b: Uint8Array;
  try {
    b = /[-_]/.test(s) ? base64urlnopad.decode(s) : /[+/]/.test(s) ? base64nopad.decode(s) : base64urlnopad.decode(s);
  } catch {
    return emptyResult();
  }
  if (b.length !== 36) return emptyResult();
  const tag = b[0];
  const base = tag & 0x7f;
  if (base !== 0x11 && base !== 0x51) return failure('ton', 'bad tag byte');
  if (b[1] !== 0x00 && b[1] !== 0xff) return failure('ton', 'bad workchain byte');
  const crc = crc16Xmodem(b, 34);
  if (crc >> 8 !== b[34] || (crc & 0xff) !== b[35]) return failure('ton', 'bad CRC16 checksum');
  const raw = `${b[1] === 0xff ? '-1' : '0'}:${hex.encode(b.subarray(2, 34))}`;
  if (tag & 0x80) return { matches: [otherMatch('testnet', [], 'ton-friendly', 'CRC16-XModem', raw, 'TON testnet-only address')], failures: [] };
  return { matches: [addressMatch(['ton'], base === 0x11 ? 'bounceable' : 'non-bounceable', 'CRC16-XModem', 'weak', raw)], failures: [] };
}
