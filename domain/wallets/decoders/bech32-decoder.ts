// bech32 / bech32m formats with a whitelist of human-readable prefixes: BTC and LTC segwit
// (BIP-173/350: v0 must use bech32, v1+ must use bech32m), Cosmos, Osmosis, BNB Beacon,
// Avalanche X/P, Zilliqa, Aleo (bech32m), Cardano Shelley (CIP-19), Zcash Sapling and Unified addresses,
// Ycash Sapling (ys), IOTA / Shimmer Stardust (iota, smr), and every Cosmos-SDK chain of the
// pinned chain registry (cosmos-chains.ts; their `…valoper` validator prefixes are no wallets).
import { bech32, bech32m } from '@scure/base';
import { COSMOS_CHAINS_BY_PREFIX, RESERVED_BECH32_PREFIXES } from '../cosmos-chains';
import type { AddressMatch, DecodeResult, NetworkId } from '../wallet-types';
import { addressMatch, emptyResult, failure, otherMatch } from './address-match';

type Variant = 'bech32' | 'bech32m';

interface HrpRule {
  networks: NetworkId[];
  kind: 'segwit' | 'account' | 'account-m' | 'cardano' | 'cardano-stake' | 'zcash-sapling' | 'zcash-unified' | 'iota' | 'registry';
  lengths?: number[];
}

const HRPS: Record<string, HrpRule> = {
  bc: { networks: ['bitcoin'], kind: 'segwit' },
  ltc: { networks: ['litecoin'], kind: 'segwit' },
  cosmos: { networks: ['cosmos'], kind: 'account', lengths: [20, 32] },
  osmo: { networks: ['osmosis'], kind: 'account', lengths: [20, 32] },
  bnb: { networks: ['bnb-beacon'], kind: 'account', lengths: [20] },
  avax: { networks: ['avalanche-x'], kind: 'account', lengths: [20] },
  zil: { networks: ['zilliqa'], kind: 'account', lengths: [20] },
  aleo: { networks: ['aleo'], kind: 'account-m', lengths: [32] },
  addr: { networks: ['cardano'], kind: 'cardano' },
  stake: { networks: ['cardano'], kind: 'cardano-stake' },
  zs: { networks: ['zcash'], kind: 'zcash-sapling', lengths: [43] },
  u: { networks: ['zcash'], kind: 'zcash-unified' },
  ys: { networks: ['ycash'], kind: 'zcash-sapling', lengths: [43] },
  iota: { networks: ['iota'], kind: 'iota' },
  smr: { networks: ['shimmer'], kind: 'iota' },
};

/** Prefixes that are valid bech32 but never a wallet of ours: reported as such in --all. */
const OTHER_HRPS: Record<string, string> = {
  tb: 'Bitcoin testnet address', bcrt: 'Bitcoin regtest address', tltc: 'Litecoin testnet address',
  addr_test: 'Cardano testnet address', stake_test: 'Cardano testnet stake address',
  npub: 'Nostr public key', nsec: 'Nostr secret key (leaked)', nprofile: 'Nostr profile', note: 'Nostr note id',
  lnbc: 'Lightning invoice', lnurl: 'LNURL', age: 'age encryption key', bva: 'BNB Beacon validator',
  cosmosvaloper: 'Cosmos validator operator', utest: 'Zcash testnet unified address', ztestsapling: 'Zcash testnet address',
  ytestsapling: 'Ycash testnet address', atoi: 'IOTA testnet address', rms: 'Shimmer testnet address',
};

for (const prefix of [...Object.keys(HRPS), ...Object.keys(OTHER_HRPS)]) {
  if (!RESERVED_BECH32_PREFIXES.has(prefix)) throw new Error(`bech32 prefix ${prefix} must be listed in RESERVED_BECH32_PREFIXES (domain/wallets/cosmos-chains.ts)`);
}
/** Registry chains: written in lower case only (an upper-case run that happens to hold a short prefix is something else). */
const REGISTRY_PREFIXES = new Set<string>();
for (const [prefix, chains] of COSMOS_CHAINS_BY_PREFIX) {
  HRPS[prefix] = { networks: chains.map((c) => c.id), kind: 'registry', lengths: [20] };
  OTHER_HRPS[`${prefix}valoper`] = `${chains[0].name} validator operator`;
  REGISTRY_PREFIXES.add(prefix);
  REGISTRY_PREFIXES.add(`${prefix}valoper`);
}
/** IOTA / Shimmer Stardust address types (TIP-31): Ed25519, Alias, NFT; each a 32-byte id. */
const IOTA_TYPES: Record<number, string> = { 0: 'ed25519', 8: 'alias', 16: 'nft' };

/** The known prefixes, for the scanner's quick pre-filter. */
export const KNOWN_BECH32_PREFIXES: ReadonlySet<string> = new Set([...Object.keys(HRPS), ...Object.keys(OTHER_HRPS)]);
/** A longer part before the last `1` is no known prefix (nothing to slice and lower-case). */
const LONGEST_PREFIX = Math.max(...[...KNOWN_BECH32_PREFIXES].map((p) => p.length));

function tryDecode(s: string): { prefix: string; words: number[]; variant: Variant } | undefined {
  const a = bech32.decodeUnsafe(s, false);
  if (a) return { prefix: a.prefix, words: a.words, variant: 'bech32' };
  const b = bech32m.decodeUnsafe(s, false);
  if (b) return { prefix: b.prefix, words: b.words, variant: 'bech32m' };
  return undefined;
}

function hrpOf(s: string): string {
  return s.slice(0, s.lastIndexOf('1')).toLowerCase();
}

export function bech32Prefix(s: string): string | undefined {
  const i = s.lastIndexOf('1');
  if (i < 1 || i > LONGEST_PREFIX) return undefined;
  const hrp = s.slice(0, i).toLowerCase();
  if (!KNOWN_BECH32_PREFIXES.has(hrp)) return undefined;
  if (REGISTRY_PREFIXES.has(hrp) && s.charCodeAt(0) < 97) return undefined;
  return hrp;
}

export function decodeBech32Address(s: string): DecodeResult {
  const hrp = hrpOf(s);
  const rule = HRPS[hrp];
  const other = OTHER_HRPS[hrp];
  if (!rule && !other) return emptyResult();
  if (s !== s.toLowerCase() && s !== s.toUpperCase()) return failure('bech32', 'mixed case');
  const d = tryDecode(s);
  if (!d) return failure('bech32', 'bad bech32/bech32m checksum');
  const lower = s.toLowerCase();
  if (other) return { matches: [otherMatch(hrp.endsWith('test') || hrp === 'tb' || hrp === 'bcrt' || hrp === 'tltc' ? 'testnet' : 'non-payment', [], 'bech32', d.variant, lower, other)], failures: [] };
  const checksum = `${d.variant} (hrp ${hrp})`;
  const m = (format: string): AddressMatch => addressMatch(rule.networks, format, checksum, 'strong', lower);
  switch (rule.kind) {
    case 'segwit': {
      if (s.length > 90) return failure('segwit', 'longer than 90 characters');
      const version = d.words[0];
      if (version === undefined || version > 16) return failure('segwit', 'bad witness version');
      const program = bech32.fromWordsUnsafe(d.words.slice(1));
      if (!program || program.length < 2 || program.length > 40) return failure('segwit', 'bad witness program length');
      if (version === 0 && program.length !== 20 && program.length !== 32) return failure('segwit', 'v0 program must be 20 or 32 bytes');
      if (version === 0 && d.variant !== 'bech32') return failure('segwit', 'witness v0 with a bech32m checksum');
      if (version > 0 && d.variant !== 'bech32m') return failure('segwit', `witness v${version} with a bech32 checksum (BIP-350)`);
      return { matches: [m(version === 0 ? (program.length === 20 ? 'p2wpkh' : 'p2wsh') : version === 1 && program.length === 32 ? 'p2tr' : `segwit-v${version}`)], failures: [] };
    }
    case 'account': {
      if (d.variant !== 'bech32') return failure('bech32', 'bech32m checksum where bech32 is required');
      const bytes = bech32.fromWordsUnsafe(d.words);
      if (!bytes || !rule.lengths?.includes(bytes.length)) return failure('bech32', 'unexpected payload length');
      return { matches: [m('bech32-account')], failures: [] };
    }
    case 'registry': {
      // Accounts of the registry's chains are 20 bytes; 32 bytes are CosmWasm contracts (and module or
      // interchain accounts), which nobody is asked to pay to on a page.
      if (d.variant !== 'bech32') return failure('bech32', 'bech32m checksum where bech32 is required');
      const bytes = bech32.fromWordsUnsafe(d.words);
      if (bytes?.length === 32) return { matches: [otherMatch('non-payment', rule.networks, 'cosmwasm-contract', checksum, lower, 'CosmWasm contract or module account (32 bytes), not a wallet')], failures: [] };
      if (!bytes || bytes.length !== 20) return failure('bech32', 'unexpected payload length');
      return { matches: [m('bech32-account')], failures: [] };
    }
    case 'account-m': {
      if (d.variant !== 'bech32m') return failure('bech32', 'bech32 checksum where bech32m is required');
      const bytes = bech32m.fromWordsUnsafe(d.words);
      if (!bytes || !rule.lengths?.includes(bytes.length)) return failure('bech32', 'unexpected payload length');
      return { matches: [m('bech32m-account')], failures: [] };
    }
    case 'cardano':
    case 'cardano-stake': {
      if (d.variant !== 'bech32') return failure('cardano', 'bech32m checksum where bech32 is required');
      const bytes = bech32.fromWordsUnsafe(d.words);
      if (!bytes || bytes.length < 29) return failure('cardano', 'payload too short');
      const type = bytes[0] >> 4;
      const net = bytes[0] & 0x0f;
      if (net !== 1) return failure('cardano', 'not a mainnet address');
      if (rule.kind === 'cardano-stake' || type >= 14) {
        return { matches: [otherMatch('non-payment', ['cardano'], 'shelley-stake', checksum, lower, 'Cardano stake (reward) address, not a payment destination')], failures: [] };
      }
      if (type > 7) return failure('cardano', 'unexpected header type');
      const expected = type <= 3 ? 57 : type <= 5 ? [29, 30, 31, 32, 33, 34, 35, 36] : 29;
      const okLen = Array.isArray(expected) ? bytes.length >= 29 && bytes.length <= 40 : bytes.length === expected;
      if (!okLen) return failure('cardano', 'unexpected payload length');
      return { matches: [m('shelley')], failures: [] };
    }
    case 'zcash-sapling': {
      const bytes = bech32.fromWordsUnsafe(d.words);
      if (d.variant !== 'bech32' || !bytes || bytes.length !== 43) return failure('zcash', 'bad Sapling address');
      return { matches: [m('sapling')], failures: [] };
    }
    case 'iota': {
      if (d.variant !== 'bech32') return failure('iota', 'bech32m checksum where bech32 is required');
      const bytes = bech32.fromWordsUnsafe(d.words);
      const type = bytes ? IOTA_TYPES[bytes[0]] : undefined;
      if (!bytes || bytes.length !== 33 || !type) return failure('iota', 'not a Stardust address (type byte 0, 8 or 16 and a 32-byte id)');
      return { matches: [m(`stardust-${type}`)], failures: [] };
    }
    case 'zcash-unified': {
      if (d.variant !== 'bech32m') return failure('zcash', 'unified address needs bech32m');
      const bytes = bech32m.fromWordsUnsafe(d.words);
      if (!bytes || bytes.length < 48) return failure('zcash', 'unified address too short');
      return { matches: [m('unified')], failures: [] };
    }
  }
}
