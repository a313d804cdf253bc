// Validation of one pasted address (the `fip ssi wallet validate` command): every network the string
// is valid on, with its format and checksum kind. Known constants are valid but flagged.
import { decodeAddressString } from './decode-candidate';
import { knownConstant } from './known-constants';
import { networkInfo } from './network-catalog';
import type { ChecksumStrength, NetworkId } from './wallet-types';
import { wellKnownContract } from './well-known-contracts';

export interface ValidationMatch {
  networkId: NetworkId;
  network: string;
  tokens: string[];
  format: string;
  checksum: string;
  strength: ChecksumStrength;
}

export interface ValidationResult {
  input: string;
  valid: boolean;
  normalized?: string;
  matches: ValidationMatch[];
  /** Non-address kinds (testnet, leaked key, stake address, known constant) and decoder failures. */
  notes: string[];
}

/** Validates `input`; with `networks`, only those networks count as valid. */
export function validateAddress(input: string, networks?: NetworkId[]): ValidationResult {
  const r = decodeAddressString(input);
  const matches: ValidationMatch[] = [];
  const notes: string[] = [];
  let normalized: string | undefined;
  for (const m of r.matches) {
    if (m.kind !== 'address') {
      notes.push(m.note ?? m.kind);
      continue;
    }
    for (const id of m.networks) {
      if (networks && !networks.includes(id)) continue;
      const info = networkInfo(id);
      matches.push({ networkId: id, network: info.name, tokens: info.tokens, format: m.format, checksum: m.checksum, strength: m.strength });
      normalized = m.normalized;
    }
  }
  if (networks && !matches.length && r.matches.some((m) => m.kind === 'address')) {
    notes.push(`valid on ${[...new Set(r.matches.flatMap((m) => m.networks))].join(', ')}, not on the requested network`);
  }
  for (const f of r.failures) notes.push(`${f.format}: ${f.reason}`);
  const constant = knownConstant(input.trim(), normalized);
  if (constant && matches.length) notes.push(`known non-wallet constant: ${constant}`);
  const contract = matches.length ? wellKnownContract(input.trim()) ?? (normalized ? wellKnownContract(normalized) : undefined) : undefined;
  if (contract) notes.push(`well-known contract: ${contract.label} (${contract.chain}, ${contract.kind}; ${contract.source.split(' ; ')[0]})`);
  if (!r.matches.length && !r.failures.length) notes.push('no supported address format matches');
  return { input, valid: matches.length > 0, normalized, matches, notes };
}
