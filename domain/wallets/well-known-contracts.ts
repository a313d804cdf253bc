// Well-known contracts per chain (token contracts, wrapped natives, mints, routers, multicall,
// permit, programs, jetton masters), kept as a data file with the source of each entry
// (data/well-known-contracts.json). An address in it is never a wallet; a token entry also names the
// token of a transfer that points at it (EIP-681 `ethereum:<contract>/transfer`, Solana Pay
// `spl-token=<mint>`, Tron `token=<contract>`).
import reference from './data/reference-data.json';
import data from './data/well-known-contracts.json';
import type { NetworkId } from './wallet-types';

export type ContractKind = 'token' | 'wrapped-native' | 'mint' | 'router' | 'permit' | 'multicall' | 'program' | 'jetton-master';

export interface WellKnownContract {
  chain: NetworkId;
  address: string;
  kind: ContractKind;
  label: string;
  /** Token symbol for token contracts and mints. */
  token?: string;
  source: string;
}

/** The curated list (data/well-known-contracts.json, each entry with a source an analyst can open). */
export const WELL_KNOWN_CONTRACTS: readonly WellKnownContract[] = data.contracts as WellKnownContract[];

const ORIGIN = new Map(reference.sources.map((s) => [s.file, s.origin]));

/**
 * The generated list (data/reference-data.json, scripts/generate-wallet-reference-data.ts): token
 * contracts and SPL mints of a pinned token list, SPL programs; `source` is the pinned origin.
 */
export const REFERENCE_CONTRACTS: readonly WellKnownContract[] = reference.contracts.map((c) => ({ ...c, source: ORIGIN.get(c.source) ?? c.source }) as WellKnownContract);

/** Specification test vectors of the generated data set (BOLT #11 fallback addresses). */
export const REFERENCE_VECTORS: ReadonlyArray<{ network: NetworkId; address: string; label: string; source: string }> = reference.vectors.map((v) => ({ ...v, network: v.network as NetworkId, source: ORIGIN.get(v.source) ?? v.source }));

/** Hex (EVM) addresses compare case-insensitively; base58/base64 ones exactly. */
const key = (address: string): string => (address.startsWith('0x') || address.startsWith('0X') ? address.toLowerCase() : address);

// The curated entry wins over a generated one for the same address (its label and token were checked by hand).
const BY_ADDRESS = new Map<string, WellKnownContract>([...REFERENCE_CONTRACTS, ...WELL_KNOWN_CONTRACTS].map((c) => [key(c.address), c]));

export function wellKnownContract(address: string): WellKnownContract | undefined {
  return BY_ADDRESS.get(key(address));
}
