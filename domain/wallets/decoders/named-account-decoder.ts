// Named accounts without any checksum: NEAR (`*.near` / `*.tg`) and EOS (12-char Antelope names).
// These only become candidates where the scanner has explicit context (suffix, coin tab, keyword).
import type { DecodeResult } from '../wallet-types';
import { addressMatch, emptyResult, failure } from './address-match';

const NEAR_PART = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;

export function decodeNearNamed(s: string): DecodeResult {
  if (!(s.endsWith('.near') || s.endsWith('.tg'))) return emptyResult();
  if (s.length < 2 || s.length > 64) return failure('near', 'bad length');
  const parts = s.split('.');
  if (!parts.every((p) => NEAR_PART.test(p))) return failure('near', 'bad account id characters');
  if (parts.length < 2 || parts[0].length < 2) return failure('near', 'too short');
  return { matches: [addressMatch(['near'], 'near-named', 'none', 'none', s)], failures: [] };
}

export function decodeEosName(s: string): DecodeResult {
  if (!/^[a-z1-5.]{1,12}$/.test(s)) return emptyResult();
  if (s.endsWith('.') || s.startsWith('.') || s.includes('..')) return failure('eos', 'bad dots');
  return { matches: [addressMatch(['eos'], 'eos-account', 'none', 'none', s)], failures: [] };
}
