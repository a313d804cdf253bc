// Small constructors for decoder results, so every decoder reports the same shape.
import type { AddressMatch, ChecksumStrength, DecodeResult, NetworkId } from '../wallet-types';

export function addressMatch(
  networks: NetworkId[], format: string, checksum: string, strength: ChecksumStrength, normalized: string,
): AddressMatch {
  return { networks, format, checksum, strength, normalized, kind: 'address' };
}

export function otherMatch(
  kind: AddressMatch['kind'], networks: NetworkId[], format: string, checksum: string, normalized: string, note: string,
): AddressMatch {
  return { networks, format, checksum, strength: 'strong', normalized, kind, note };
}

export function emptyResult(): DecodeResult {
  return { matches: [], failures: [] };
}

export function failure(format: string, reason: string): DecodeResult {
  return { matches: [], failures: [{ format, reason }] };
}

export function single(m: AddressMatch): DecodeResult {
  return { matches: [m], failures: [] };
}
