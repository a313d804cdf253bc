// Generates domain/wallets/data/reference-data.json, the pinned data set of known contracts,
// program ids and specification test vectors that the wallet engine never reports as wallets, from
// the pinned sources in scripts/wallet-data/sources/ (listed with their origin and SHA-256 in
// scripts/wallet-data/sources.json; the script refuses a source whose digest changed):
//  - the Uniswap default token list (npm @uniswap/default-token-list): token contracts on the EVM
//    chains we name (and their bridged addresses), SPL mints on Solana;
//  - the SPL Token constants (npm @solana/spl-token): token programs and native mints;
//  - the BOLT #11 examples with a fallback address: the invoices are decoded here (bech32, tagged
//    field `f`) and each fallback address is re-encoded (P2PKH, P2SH, segwit v0, taproot);
//  - the Cosmos chain registry (npm chain-registry, extracted by
//    scripts/wallet-data/extract-cosmos-chain-registry.ts): the bech32 prefix, name, native symbol
//    and account explorer of every live Cosmos-SDK mainnet, written to domain/wallets/data/cosmos-chains.json.
// Nothing in the output is typed by hand. `--check` exits 1 when the committed file differs.
//   npx tsx scripts/generate-wallet-reference-data.ts [--check]
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sha256 } from '@noble/hashes/sha2.js';
import { base58check as makeBase58check, bech32, bech32m } from '@scure/base';

const ROOT = path.resolve(__dirname, '..');
const SOURCES_DIR = path.join(ROOT, 'scripts/wallet-data/sources');
const OUT = path.join(ROOT, 'domain/wallets/data/reference-data.json');
const COSMOS_OUT = path.join(ROOT, 'domain/wallets/data/cosmos-chains.json');

interface SourceEntry {
  file: string;
  origin: string;
  sha256: string;
}

interface Contract {
  chain: string;
  address: string;
  kind: 'token' | 'mint' | 'program';
  label: string;
  token?: string;
  /** The file of sources.json it comes from. */
  source: string;
}

interface Vector {
  network: string;
  address: string;
  label: string;
  source: string;
}

/** EIP-155 chain ids of the EVM networks the engine names (domain/wallets/structure-context.ts CHAIN_IDS), and the token list's id of Solana. */
const CHAINS = new Map<number, string>([[1, 'ethereum'], [56, 'bsc'], [137, 'polygon'], [42161, 'arbitrum'], [10, 'optimism'], [8453, 'base'], [43114, 'avalanche-c'], [501000101, 'solana']]);

function readSource(entry: SourceEntry): string {
  const text = fs.readFileSync(path.join(SOURCES_DIR, entry.file), 'utf8');
  const digest = createHash('sha256').update(text).digest('hex');
  if (digest !== entry.sha256) throw new Error(`${entry.file}: SHA-256 ${digest} is not the pinned ${entry.sha256} (${entry.origin})`);
  return text;
}

interface TokenListToken {
  chainId: number;
  address: string;
  name: string;
  symbol: string;
  extensions?: { bridgeInfo?: Record<string, { tokenAddress?: string }> };
}

function fromTokenList(text: string, origin: string): Contract[] {
  const list = JSON.parse(text) as { tokens: TokenListToken[] };
  const out: Contract[] = [];
  for (const t of list.tokens) {
    const home = CHAINS.get(t.chainId);
    const label = `${t.name} (${t.symbol})`;
    if (home) out.push({ chain: home, address: t.address, kind: home === 'solana' ? 'mint' : 'token', label, token: t.symbol, source: origin });
    for (const [id, info] of Object.entries(t.extensions?.bridgeInfo ?? {})) {
      const chain = CHAINS.get(Number(id));
      if (chain && info.tokenAddress) out.push({ chain, address: info.tokenAddress, kind: chain === 'solana' ? 'mint' : 'token', label: `${label}, bridged`, token: t.symbol, source: origin });
    }
  }
  return out;
}

function fromSplConstants(text: string, origin: string): Contract[] {
  const out: Contract[] = [];
  const re = /\/\*\*\s*([^*]+?)\s*\*\/\s*export const (\w+) = new PublicKey\('([1-9A-HJ-NP-Za-km-z]{32,44})'\)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    out.push({ chain: 'solana', address: m[3], kind: /MINT/.test(m[2]) ? 'mint' : 'program', label: m[1].replace(/^Address of the /, ''), ...(/MINT/.test(m[2]) ? { token: 'SOL' } : {}), source: origin });
  }
  return out;
}

const b58check = makeBase58check(sha256);

/** The fallback addresses (tagged field `f`) of a mainnet BOLT #11 invoice. */
export function bolt11Fallbacks(invoice: string): string[] {
  const { prefix, words } = bech32.decode(invoice.toLowerCase() as `${string}1${string}`, false);
  if (!prefix.startsWith('lnbc')) return [];
  const out: string[] = [];
  const end = words.length - 104; // 520-bit signature
  for (let i = 7; i + 3 <= end;) {
    const type = words[i];
    const len = words[i + 1] * 32 + words[i + 2];
    const data = words.slice(i + 3, i + 3 + len);
    i += 3 + len;
    if (type !== 9 || !data.length) continue;
    const version = data[0];
    const program = Uint8Array.from(bech32.fromWordsUnsafe(data.slice(1)) ?? []);
    if (version === 17 || version === 18) out.push(b58check.encode(Uint8Array.from([version === 17 ? 0x00 : 0x05, ...program])));
    else if (version === 0) out.push(bech32.encode('bc', [0, ...bech32.toWords(program)]));
    else if (version <= 16) out.push(bech32m.encode('bc', [version, ...bech32m.toWords(program)]));
  }
  return out;
}

function fromBolt11(text: string, origin: string): Vector[] {
  const out: Vector[] = [];
  for (const line of text.split('\n')) {
    const invoice = /(lnbc[02-9ac-hj-np-z]*1[02-9ac-hj-np-z]+)/.exec(line)?.[1];
    if (!invoice) continue;
    for (const address of bolt11Fallbacks(invoice)) out.push({ network: 'bitcoin', address, label: 'BOLT #11 fallback address (specification example)', source: origin });
  }
  return out;
}

interface RegistryChain {
  chainName: string;
  prettyName: string;
  chainId: string | null;
  bech32Prefix: string;
  symbol: string | null;
  accountPages: string[];
}

/** Explorer hosts preferred for the account link, in order; else the first https template. */
const PREFERRED_EXPLORERS = ['mintscan.io', 'ping.pub', 'atomscan.com'];

function accountExplorer(pages: string[]): string | null {
  const https = pages.filter((p) => p.startsWith('https://') && p.includes('${accountAddress}'));
  const best = PREFERRED_EXPLORERS.map((h) => https.find((p) => new URL(p.replace('${accountAddress}', 'x')).hostname.endsWith(h))).find(Boolean) ?? https[0];
  return best ? best.replace('${accountAddress}', '{address}') : null;
}

/** The Cosmos-SDK chains of the registry extract: one network each, keyed by chain name. */
export function cosmosChains(text: string, origin: string): { $comment: string; source: string; chains: unknown[] } {
  const data = JSON.parse(text) as { chains: RegistryChain[] };
  const chains = data.chains
    .filter((c) => /^[a-z]{2,20}$/.test(c.bech32Prefix))
    .map((c) => ({
      id: `cosmos-${c.chainName}`, name: c.prettyName, chainId: c.chainId, prefix: c.bech32Prefix,
      native: c.symbol ?? c.bech32Prefix.toUpperCase(), explorer: accountExplorer(c.accountPages),
    }));
  return {
    $comment: 'GENERATED by scripts/generate-wallet-reference-data.ts from the pinned Cosmos chain registry extract (scripts/wallet-data/sources/cosmos-chain-registry.json): do not edit by hand. One network per live Cosmos-SDK mainnet (domain/wallets/cosmos-chains.ts).',
    source: origin,
    chains,
  };
}

export function generateCosmosChains(): string {
  const sources = JSON.parse(fs.readFileSync(path.join(ROOT, 'scripts/wallet-data/sources.json'), 'utf8')) as { sources: SourceEntry[] };
  const e = sources.sources.find((s) => s.file === 'cosmos-chain-registry.json');
  if (!e) throw new Error('scripts/wallet-data/sources.json lists no cosmos-chain-registry.json');
  return `${JSON.stringify(cosmosChains(readSource(e), e.origin), null, 1)}\n`;
}

export function generate(): string {
  const sources = JSON.parse(fs.readFileSync(path.join(ROOT, 'scripts/wallet-data/sources.json'), 'utf8')) as { sources: SourceEntry[] };
  const by = (file: string): SourceEntry => {
    const e = sources.sources.find((s) => s.file === file);
    if (!e) throw new Error(`scripts/wallet-data/sources.json lists no ${file}`);
    return e;
  };
  const tokenList = by('uniswap-default.tokenlist.json');
  const spl = by('spl-token-constants.ts.txt');
  const bolt = by('bolt11-fallback-examples.txt');
  const seen = new Set<string>();
  const contracts = [...fromSplConstants(readSource(spl), spl.file), ...fromTokenList(readSource(tokenList), tokenList.file)].filter((c) => {
    const k = `${c.chain}|${c.address.startsWith('0x') ? c.address.toLowerCase() : c.address}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const vectors = fromBolt11(readSource(bolt), bolt.file);
  const out = {
    $comment: 'GENERATED by scripts/generate-wallet-reference-data.ts from the pinned sources in scripts/wallet-data/ (sources.json): do not edit by hand. Known contracts, program ids and specification test vectors that are never reported as wallets (docs/wallets.md).',
    sources: sources.sources.map((s) => ({ file: s.file, origin: s.origin, sha256: s.sha256 })),
    contracts,
    vectors,
  };
  return `${JSON.stringify(out, null, 1)}\n`;
}

if (require.main === module) {
  const text = generate();
  const cosmos = generateCosmosChains();
  if (process.argv.includes('--check')) {
    for (const [file, want] of [[OUT, text], [COSMOS_OUT, cosmos]] as const) {
      const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      if (current !== want) {
        process.stderr.write(`${path.relative(ROOT, file)} is out of date: run npx tsx scripts/generate-wallet-reference-data.ts\n`);
        process.exit(1);
      }
      process.stdout.write(`${path.relative(ROOT, file)} is up to date\n`);
    }
  } else {
    fs.writeFileSync(OUT, text);
    fs.writeFileSync(COSMOS_OUT, cosmos);
    const parsed = JSON.parse(text) as { contracts: unknown[]; vectors: unknown[] };
    process.stdout.write(`wrote ${path.relative(ROOT, OUT)}: ${parsed.contracts.length} contracts, ${parsed.vectors.length} vectors\n`);
    process.stdout.write(`wrote ${path.relative(ROOT, COSMOS_OUT)}: ${(JSON.parse(cosmos) as { chains: unknown[] }).chains.length} Cosmos-SDK chains\n`);
  }
}
