// CashAddr (Bitcoin Cash, prefix `bitcoincash:` optional in display) and Kaspa (`kaspa:` required):
// bech32 charset, 40-bit BCH checksum over prefix + payload.
import { cashaddrWords, verifyCashaddrChecksum, wordsToBytes } from '../codecs/cashaddr-polymod';
import type { DecodeResult } from '../wallet-types';
import { addressMatch, emptyResult, failure, otherMatch } from './address-match';

/** `prefix` is the scheme found before the payload (lower case), or undefined when absent. */
export function decodeCashaddr(payloadRaw: string, prefix: string | undefined): DecodeResult {
  if (payloadRaw !== payloadRaw.toLowerCase() && payloadRaw !== payloadRaw.toUpperCase()) return failure('cashaddr', 'mixed case');
  const payload = payloadRaw.toLowerCase();
  const words = cashaddrWords(payload);
  if (!words || words.length < 9) return emptyResult();
  const p = prefix ?? 'bitcoincash';
  if (p === 'bitcoincash' || p === 'bchtest' || p === 'bchreg') {
    if (!verifyCashaddrChecksum(p, words)) return failure('cashaddr', 'bad cashaddr checksum');
    const bytes = wordsToBytes(words.slice(0, -8));
    if (!bytes || bytes.length !== 21 || (bytes[0] & 0x07) !== 0 || (bytes[0] >> 3) > 1) return failure('cashaddr', 'bad version byte or hash size');
    if (p !== 'bitcoincash') return { matches: [otherMatch('testnet', [], 'cashaddr', 'cashaddr', `${p}:${payload}`, 'Bitcoin Cash testnet address')], failures: [] };
    return { matches: [addressMatch(['bitcoin-cash'], bytes[0] >> 3 ? 'cashaddr-p2sh' : 'cashaddr-p2pkh', 'cashaddr (40-bit BCH code)', 'strong', `bitcoincash:${payload}`)], failures: [] };
  }
  if (p === 'kaspa' || p === 'kaspatest' || p === 'kaspadev' || p === 'kaspasim') {
    if (!verifyCashaddrChecksum(p, words)) return failure('kaspa', 'bad kaspa checksum');
    const bytes = wordsToBytes(words.slice(0, -8));
    const okLen = bytes && ((bytes[0] === 0 && bytes.length === 33) || (bytes[0] === 1 && bytes.length === 34) || (bytes[0] === 8 && bytes.length === 33));
    if (!okLen) return failure('kaspa', 'bad version byte or payload length');
    if (p !== 'kaspa') return { matches: [otherMatch('testnet', [], 'kaspa', 'cashaddr', `${p}:${payload}`, 'Kaspa test network address')], failures: [] };
    return { matches: [addressMatch(['kaspa'], 'kaspa', 'cashaddr-style 40-bit BCH code', 'strong', `kaspa:${payload}`)], failures: [] };
  }
  return emptyResult();
}
