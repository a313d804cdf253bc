// Every supported network: display name, native token, tokens recognised on it, the address
// pattern(s) shown by `fip ssi wallet networks`, checksum kind, context keywords and explorer hosts.
import { COSMOS_CHAINS } from './cosmos-chains';
import type { NetworkId } from './wallet-types';

export interface NetworkInfo {
  id: NetworkId;
  name: string;
  native: string;
  /** Tokens recognised on this network (native first). */
  tokens: string[];
  patterns: string[];
  checksum: string;
  /** Case-insensitive keywords that name the network in page text (whole words). */
  keywords: string[];
  /** Case-sensitive keywords (symbols that are ordinary words in lower case). */
  exactKeywords?: string[];
  explorers: string[];
  /** Set on the Cosmos-SDK chains of the chain registry (cosmos-chains.ts): their symbols name no network in text. */
  registry?: true;
}

const B58 = '[1-9A-HJ-NP-Za-km-z]';
const EVM_PATTERN = '0x[0-9a-fA-F]{40}';
const EIP55 = 'EIP-55 (Keccak-256 mixed case; none when all lower/upper case)';

function evm(id: NetworkId, name: string, native: string, tokens: string[], keywords: string[], explorers: string[], exact: string[] = []): NetworkInfo {
  return { id, name, native, tokens: [native, ...tokens], patterns: [EVM_PATTERN], checksum: EIP55, keywords, exactKeywords: exact, explorers };
}

export const NETWORKS: readonly NetworkInfo[] = [
  { id: 'bitcoin', name: 'Bitcoin', native: 'BTC', tokens: ['BTC'], patterns: [`[13]${B58}{25,34}`, 'bc1q[02-9ac-hj-np-z]{38}|bc1q[02-9ac-hj-np-z]{58}', 'bc1p[02-9ac-hj-np-z]{58}'],
    checksum: 'base58check (double SHA-256) / bech32 (v0) / bech32m (v1+)', keywords: ['bitcoin', 'btc', 'segwit', 'taproot'], explorers: ['mempool.space', 'blockstream.info', 'blockchain.com/btc', 'blockchair.com/bitcoin/'] },
  evm('ethereum', 'Ethereum', 'ETH', ['USDT', 'USDC', 'DAI'], ['ethereum', 'erc20', 'erc-20', 'erc 20', 'eth'], ['etherscan.io']),
  evm('bsc', 'BNB Smart Chain', 'BNB', ['USDT', 'USDC'], ['bep20', 'bep-20', 'bep 20', 'bsc', 'bnb smart chain', 'binance smart chain', 'bnb chain', 'bnb'], ['bscscan.com']),
  evm('polygon', 'Polygon', 'POL', ['USDT', 'USDC'], ['polygon', 'matic'], ['polygonscan.com']),
  evm('arbitrum', 'Arbitrum', 'ETH', ['USDT', 'USDC'], ['arbitrum', 'arbitrum one'], ['arbiscan.io']),
  evm('optimism', 'Optimism', 'ETH', ['USDT', 'USDC'], ['optimism', 'op mainnet'], ['optimistic.etherscan.io']),
  evm('base', 'Base', 'ETH', ['USDC'], ['base network', 'base chain', 'base mainnet'], ['basescan.org'], ['Base']),
  evm('avalanche-c', 'Avalanche C-Chain', 'AVAX', ['USDT', 'USDC'], ['avalanche', 'avax', 'c-chain', 'avax c-chain'], ['snowtrace.io', 'snowscan.xyz']),
  evm('ethereum-classic', 'Ethereum Classic', 'ETC', [], ['ethereum classic'], ['etc.blockscout.com', 'blockscout.com/etc'], ['ETC']),
  { id: 'rootstock', name: 'Rootstock', native: 'RBTC', tokens: ['RBTC'], patterns: [EVM_PATTERN], checksum: 'EIP-1191 (chain id 30)', keywords: ['rootstock', 'rsk', 'rbtc'], explorers: ['explorer.rsk.co', 'rootstock.blockscout.com'] },
  { id: 'tron', name: 'Tron', native: 'TRX', tokens: ['TRX', 'USDT', 'USDC'], patterns: [`T${B58}{33}`], checksum: 'base58check (version 0x41)',
    keywords: ['tron', 'trx', 'trc20', 'trc-20', 'trc 20'], explorers: ['tronscan.org', 'tronscan.io'] },
  { id: 'solana', name: 'Solana', native: 'SOL', tokens: ['SOL', 'USDT', 'USDC'], patterns: [`${B58}{32,44}`], checksum: 'none (32-byte Ed25519 key)',
    keywords: ['solana', 'spl'], exactKeywords: ['SOL'], explorers: ['solscan.io', 'explorer.solana.com', 'solana.fm'] },
  { id: 'xrp', name: 'XRP Ledger', native: 'XRP', tokens: ['XRP'], patterns: ['r[1-9A-HJ-NP-Za-km-z]{24,34}', 'X[1-9A-HJ-NP-Za-km-z]{46}'], checksum: 'base58check over the Ripple alphabet (classic and X-address)',
    keywords: ['xrp', 'ripple', 'xrpl', 'destination tag'], explorers: ['xrpscan.com', 'livenet.xrpl.org', 'bithomp.com'] },
  { id: 'cardano', name: 'Cardano', native: 'ADA', tokens: ['ADA'], patterns: ['addr1[02-9ac-hj-np-z]{53,98}', `Ae2${B58}{50,60}`, `DdzFF${B58}{90,125}`], checksum: 'bech32 (Shelley) / CRC32 in CBOR (Byron)',
    keywords: ['cardano'], exactKeywords: ['ADA'], explorers: ['cardanoscan.io', 'cexplorer.io'] },
  { id: 'dogecoin', name: 'Dogecoin', native: 'DOGE', tokens: ['DOGE'], patterns: [`[DA9]${B58}{33}`], checksum: 'base58check (0x1e / 0x16)', keywords: ['dogecoin', 'doge'], explorers: ['dogechain.info', 'blockchair.com/dogecoin/'] },
  { id: 'litecoin', name: 'Litecoin', native: 'LTC', tokens: ['LTC'], patterns: [`[LM]${B58}{33}`, 'ltc1[02-9ac-hj-np-z]{39,59}'], checksum: 'base58check (0x30 / 0x32) / bech32',
    keywords: ['litecoin', 'ltc'], explorers: ['litecoinspace.org', 'blockchair.com/litecoin/'] },
  { id: 'bitcoin-cash', name: 'Bitcoin Cash', native: 'BCH', tokens: ['BCH'], patterns: ['(bitcoincash:)?[qp][02-9ac-hj-np-z]{41}', `[13]${B58}{25,34}`], checksum: 'cashaddr 40-bit BCH code / base58check (legacy)',
    keywords: ['bitcoin cash', 'bch', 'bitcoincash'], explorers: ['blockchair.com/bitcoin-cash/', 'bch.loping.net'] },
  { id: 'monero', name: 'Monero', native: 'XMR', tokens: ['XMR'], patterns: [`[48]${B58}{94}`, `4${B58}{105}`], checksum: 'Keccak-256 (first 4 bytes)', keywords: ['monero', 'xmr'], explorers: ['xmrchain.net'] },
  { id: 'polkadot', name: 'Polkadot', native: 'DOT', tokens: ['DOT', 'USDT', 'USDC'], patterns: [`1${B58}{46,47}`, `5${B58}{47}`], checksum: 'SS58 (blake2b-512, 2 bytes, prefix 0)', keywords: ['polkadot', 'asset hub'], exactKeywords: ['DOT'], explorers: ['polkadot.subscan.io'] },
  { id: 'kusama', name: 'Kusama', native: 'KSM', tokens: ['KSM'], patterns: [`[C-HJ]${B58}{46}`], checksum: 'SS58 (blake2b-512, 2 bytes, prefix 2)', keywords: ['kusama', 'ksm'], explorers: ['kusama.subscan.io'] },
  { id: 'cosmos', name: 'Cosmos Hub', native: 'ATOM', tokens: ['ATOM'], patterns: ['cosmos1[02-9ac-hj-np-z]{38}', 'cosmos1[02-9ac-hj-np-z]{58}'], checksum: 'bech32 (hrp cosmos)', keywords: ['cosmos', 'cosmos hub'], exactKeywords: ['ATOM'], explorers: ['mintscan.io/cosmos'] },
  { id: 'osmosis', name: 'Osmosis', native: 'OSMO', tokens: ['OSMO'], patterns: ['osmo1[02-9ac-hj-np-z]{38}'], checksum: 'bech32 (hrp osmo)', keywords: ['osmosis', 'osmo'], explorers: ['mintscan.io/osmosis'] },
  { id: 'stellar', name: 'Stellar', native: 'XLM', tokens: ['XLM', 'USDC'], patterns: ['G[A-Z2-7]{55}', 'M[A-Z2-7]{68}'], checksum: 'StrKey CRC16-XModem', keywords: ['stellar', 'xlm', 'lumens'], explorers: ['stellar.expert', 'stellarchain.io'] },
  { id: 'algorand', name: 'Algorand', native: 'ALGO', tokens: ['ALGO', 'USDC', 'USDT'], patterns: ['[A-Z2-7]{58}'], checksum: 'SHA-512/256 (last 4 bytes)', keywords: ['algorand', 'algo'], explorers: ['allo.info', 'algoexplorer.io', 'explorer.perawallet.app'] },
  { id: 'ton', name: 'TON', native: 'TON', tokens: ['TON', 'USDT'], patterns: ['[EUk0][Qf][A-Za-z0-9_-]{46}', '(0|-1):[0-9a-fA-F]{64}'], checksum: 'CRC16-XModem (user-friendly); none (raw)',
    keywords: ['toncoin', 'the open network', 'jetton', 'usdt-ton', 'usdt ton'], exactKeywords: ['TON'], explorers: ['tonscan.org', 'tonviewer.com', 'tonwhales.com'] },
  { id: 'near', name: 'NEAR', native: 'NEAR', tokens: ['NEAR', 'USDT', 'USDC'], patterns: ['[0-9a-f]{64}', '[a-z0-9_-]+(\\.[a-z0-9_-]+)*\\.near'], checksum: 'none', keywords: ['near protocol'], exactKeywords: ['NEAR', 'Near'], explorers: ['nearblocks.io', 'explorer.near.org'] },
  { id: 'dash', name: 'Dash', native: 'DASH', tokens: ['DASH'], patterns: [`[X7]${B58}{33}`], checksum: 'base58check (0x4c / 0x10)', keywords: ['dash coin'], exactKeywords: ['DASH', 'Dash'], explorers: ['insight.dash.org', 'blockchair.com/dash/'] },
  { id: 'zcash', name: 'Zcash', native: 'ZEC', tokens: ['ZEC'], patterns: [`t[13]${B58}{33}`, 'zs1[02-9ac-hj-np-z]{75}', 'u1[02-9ac-hj-np-z]{100,}'], checksum: 'base58check (2-byte version) / bech32 (Sapling) / bech32m (Unified)',
    keywords: ['zcash', 'zec'], explorers: ['zcashblockexplorer.com', 'blockchair.com/zcash/'] },
  { id: 'filecoin', name: 'Filecoin', native: 'FIL', tokens: ['FIL'], patterns: ['f[12][a-z2-7]{39}', 'f3[a-z2-7]{84}', 'f410f[a-z2-7]{39}'], checksum: 'blake2b 4-byte digest', keywords: ['filecoin'], exactKeywords: ['FIL'], explorers: ['filfox.info', 'filscan.io'] },
  { id: 'hedera', name: 'Hedera', native: 'HBAR', tokens: ['HBAR', 'USDC'], patterns: ['0\\.0\\.[0-9]+(-[a-z]{5})?'], checksum: 'HIP-15 (optional 5-letter checksum)', keywords: ['hedera', 'hbar', 'hashgraph'], explorers: ['hashscan.io'] },
  { id: 'eos', name: 'EOS', native: 'EOS', tokens: ['EOS'], patterns: ['[a-z1-5][a-z1-5.]{10}[a-z1-5]'], checksum: 'none (account name)', keywords: ['eosio', 'antelope'], exactKeywords: ['EOS'], explorers: ['bloks.io', 'eosflare.io'] },
  { id: 'tezos', name: 'Tezos', native: 'XTZ', tokens: ['XTZ'], patterns: [`(tz[1-4]|KT1)${B58}{33}`], checksum: 'base58check (3-byte prefix)', keywords: ['tezos', 'xtz'], explorers: ['tzkt.io', 'tzstats.com'] },
  { id: 'aptos', name: 'Aptos', native: 'APT', tokens: ['APT', 'USDT', 'USDC'], patterns: ['0x[0-9a-fA-F]{64}'], checksum: 'none', keywords: ['aptos'], exactKeywords: ['APT'], explorers: ['explorer.aptoslabs.com', 'aptoscan.com'] },
  { id: 'sui', name: 'Sui', native: 'SUI', tokens: ['SUI', 'USDC'], patterns: ['0x[0-9a-fA-F]{64}'], checksum: 'none', keywords: ['sui'], explorers: ['suiscan.xyz', 'suivision.xyz'] },
  { id: 'bnb-beacon', name: 'BNB Beacon Chain', native: 'BNB', tokens: ['BNB'], patterns: ['bnb1[02-9ac-hj-np-z]{38}'], checksum: 'bech32 (hrp bnb)', keywords: ['bep2', 'bep-2', 'bnb beacon', 'binance chain'], explorers: ['explorer.bnbchain.org'] },
  { id: 'kaspa', name: 'Kaspa', native: 'KAS', tokens: ['KAS'], patterns: ['kaspa:[qp][02-9ac-hj-np-z]{60,62}'], checksum: 'cashaddr-style 40-bit BCH code', keywords: ['kaspa'], exactKeywords: ['KAS'], explorers: ['explorer.kaspa.org', 'kas.fyi'] },
  { id: 'avalanche-x', name: 'Avalanche X-Chain', native: 'AVAX', tokens: ['AVAX'], patterns: ['[XP]-avax1[02-9ac-hj-np-z]{38}'], checksum: 'bech32 (hrp avax)', keywords: ['x-chain', 'p-chain'], explorers: ['subnets.avax.network'] },
  { id: 'internet-computer', name: 'Internet Computer', native: 'ICP', tokens: ['ICP'], patterns: ['[0-9a-f]{64}', '([a-z2-7]{5}-){10}[a-z2-7]{3}'], checksum: 'CRC32', keywords: ['internet computer', 'icp', 'dfinity'], explorers: ['dashboard.internetcomputer.org', 'icscan.io'] },
  { id: 'nano', name: 'Nano', native: 'XNO', tokens: ['XNO'], patterns: ['(nano|xrb)_[13][13-9a-km-uw-z]{59}'], checksum: 'blake2b 5-byte digest', keywords: ['xno', 'nano_'], exactKeywords: ['Nano', 'NANO'], explorers: ['nanolooker.com', 'blocklattice.io'] },
  { id: 'stacks', name: 'Stacks', native: 'STX', tokens: ['STX'], patterns: ['S[PM][0-9A-HJKMNP-TV-Z]{38,39}'], checksum: 'c32check (double SHA-256, 4 bytes)',
    keywords: ['stacks', 'stx'], explorers: ['explorer.hiro.so', 'explorer.stacks.co'] },
  { id: 'zilliqa', name: 'Zilliqa', native: 'ZIL', tokens: ['ZIL'], patterns: ['zil1[02-9ac-hj-np-z]{38}'], checksum: 'bech32 (hrp zil)', keywords: ['zilliqa', 'zil'], explorers: ['viewblock.io/zilliqa', 'zilliqa.blockscout.com'] },
  { id: 'aleo', name: 'Aleo', native: 'ALEO', tokens: ['ALEO'], patterns: ['aleo1[02-9ac-hj-np-z]{58}'], checksum: 'bech32m (hrp aleo)', keywords: ['aleo'], explorers: ['explorer.aleo.org', 'aleoscan.io'] },
  { id: 'starknet', name: 'Starknet', native: 'STRK', tokens: ['STRK', 'ETH', 'USDC', 'USDT'], patterns: ['0x0[0-7][0-9a-fA-F]{62}'], checksum: 'none (felt below 2^251; only with Starknet named)',
    keywords: ['starknet', 'starkware'], exactKeywords: ['STRK'], explorers: ['voyager.online', 'starkscan.co'] },
  { id: 'iota', name: 'IOTA', native: 'IOTA', tokens: ['IOTA'], patterns: ['iota1[02-9ac-hj-np-z]{59}'], checksum: 'bech32 (hrp iota; Stardust Ed25519, alias or NFT address)',
    keywords: ['iota'], explorers: ['explorer.iota.org'] },
  { id: 'shimmer', name: 'Shimmer', native: 'SMR', tokens: ['SMR'], patterns: ['smr1[02-9ac-hj-np-z]{59}'], checksum: 'bech32 (hrp smr; Stardust Ed25519, alias or NFT address)',
    keywords: ['shimmer', 'smr'], explorers: ['explorer.shimmer.network'] },
  { id: 'ycash', name: 'Ycash', native: 'YEC', tokens: ['YEC'], patterns: [`s[123]${B58}{33}`, 'ys1[02-9ac-hj-np-z]{75}'], checksum: 'base58check (2-byte version 0x1c28 / 0x1c2c) / bech32 (Sapling, hrp ys)',
    keywords: ['ycash', 'yec'], explorers: ['yecblockexplorer.com'] },
  ...COSMOS_CHAINS.map((c): NetworkInfo => ({
    id: c.id, name: c.name, native: c.native, tokens: [c.native], patterns: [`${c.prefix}1[02-9ac-hj-np-z]{38}`, `${c.prefix}1[02-9ac-hj-np-z]{58}`],
    checksum: `bech32 (hrp ${c.prefix}; Cosmos chain registry${c.chainId ? `, chain id ${c.chainId}` : ''})`,
    // No keywords or explorer hosts: the registry's explorers (mintscan.io, ping.pub, ...) serve many chains and name none of them.
    keywords: [], explorers: [], registry: true,
  })),
];

const BY_ID = new Map<NetworkId, NetworkInfo>(NETWORKS.map((n) => [n.id, n]));

export function networkInfo(id: NetworkId): NetworkInfo {
  const info = BY_ID.get(id);
  if (!info) throw new Error(`unknown network id: ${id}`);
  return info;
}

export function isNetworkId(s: string): s is NetworkId {
  return BY_ID.has(s as NetworkId);
}

/** Resolves a user-supplied network name: id, display name or native symbol (case-insensitive). */
export function resolveNetworkName(name: string): NetworkId[] {
  const q = name.trim().toLowerCase();
  const exact = NETWORKS.filter((n) => n.id === q || n.name.toLowerCase() === q);
  if (exact.length) return exact.map((n) => n.id);
  return NETWORKS.filter((n) => n.native.toLowerCase() === q || n.keywords.includes(q)).map((n) => n.id);
}

/** The EVM networks that share the 0x + 40 hex format, in default order. */
export const EVM_NETWORKS: readonly NetworkId[] = ['ethereum', 'bsc', 'polygon', 'arbitrum', 'optimism', 'base', 'avalanche-c', 'ethereum-classic'];

/**
 * Networks without contracts (no smart contracts, programs or token contracts at an address of
 * this format): a contract label next to such an address labels something else, never it.
 */
const NO_CONTRACTS: ReadonlySet<NetworkId> = new Set<NetworkId>([
  'bitcoin', 'litecoin', 'dogecoin', 'bitcoin-cash', 'monero', 'dash', 'zcash', 'ycash', 'kaspa', 'nano', 'bnb-beacon', 'avalanche-x', 'xrp', 'kusama',
]);

/** Whether an address on this network can be a contract (a program, a token, a deployed contract). */
export function hasContracts(id: NetworkId): boolean {
  return !NO_CONTRACTS.has(id);
}
