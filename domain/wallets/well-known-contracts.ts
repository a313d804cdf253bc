// Well-known contracts per chain (token contracts, wrapped natives, mints, routers, multicall,
// permit, programs, jetton masters), kept as a data file with the source of each entry
// (data/well-known-contracts.json). An address in it is never a wallet; a token entry also names the
// token of a transfer that points at it (EIP-681 `ethereum:<contract>/transfer`, Solana Pay
// `spl-token=<mint>`, Tron `token=<contract>`).
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

export const WELL_KNOWN_CONTRACTS: readonly WellKnownContract[] = data.contracts as WellKnownContract[];

/** Hex (EVM) addresses compare case-insensitively; base58/base64 ones exactly. */
const key = (address: string): string => (address.startsWith('0x') || address.startsWith('0X') ? address.toLowerCase() : address);

const BY_ADDRESS = new Map<string, WellKnownContract>(WELL_KNOWN_CONTRACTS.map((c) => [key(c.address), c]));

export function wellKnownContract(address: string): WellKnownContract | undefined {
  return BY_ADDRESS.get(key(address));
}
