// 0x + 40 hex: Ethereum and every EVM chain (EIP-55 mixed-case checksum, none when single-case),
// plus Rootstock's EIP-1191 chain-aware checksum (chain id 30), which fails plain EIP-55.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { EVM_NETWORKS } from '../network-catalog';
import type { DecodeResult } from '../wallet-types';
import { addressMatch, emptyResult, failure } from './address-match';

const ASCII = new TextEncoder();

function checksumCase(hexLower: string, hashInput: string): string {
  const hash = keccak_256(ASCII.encode(hashInput));
  let out = '';
  for (let i = 0; i < 40; i++) {
    const c = hexLower[i];
    const nibble = (hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    out += c >= 'a' && nibble >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

/** EIP-55 checksummed form of a 20-byte hex address (with 0x). */
export function toEip55(address: string): string {
  const lower = address.slice(2).toLowerCase();
  return `0x${checksumCase(lower, lower)}`;
}

/** EIP-1191 checksummed form for a chain id (Rootstock mainnet is 30). */
export function toEip1191(address: string, chainId: number): string {
  const lower = address.slice(2).toLowerCase();
  return `0x${checksumCase(lower, `${chainId}0x${lower}`)}`;
}

const HEX40 = /^0x[0-9a-fA-F]{40}$/;

export function decodeEvm(s: string): DecodeResult {
  if (!HEX40.test(s)) return emptyResult();
  const body = s.slice(2);
  const lower = body.toLowerCase();
  const normalized = `0x${lower}`;
  if (body === lower || body === body.toUpperCase()) {
    return { matches: [addressMatch([...EVM_NETWORKS], 'evm (single case)', 'none (no EIP-55 casing)', 'none', normalized)], failures: [] };
  }
  if (toEip55(s) === s) return { matches: [addressMatch([...EVM_NETWORKS], 'evm', 'EIP-55', 'weak', normalized)], failures: [] };
  if (toEip1191(s, 30) === s) return { matches: [addressMatch(['rootstock'], 'rootstock', 'EIP-1191 (chain 30)', 'weak', normalized)], failures: [] };
  return failure('evm', 'bad EIP-55 checksum');
}
