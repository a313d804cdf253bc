// Extracts the pinned source scripts/wallet-data/sources/cosmos-chain-registry.json from the npm
// package `chain-registry` (the Cosmos chain registry as published by hyperweb-io; the registry's
// own repository is not reachable from the build machines, the npm registry is). Run it on an
// unpacked tarball, then pin the output's SHA-256 in scripts/wallet-data/sources.json:
//   npm pack chain-registry@2.0.251 && tar xzf chain-registry-2.0.251.tgz
//   npx tsx scripts/wallet-data/extract-cosmos-chain-registry.ts package
// For every live mainnet chain of type `cosmos` it keeps the fields the wallet engine uses, as
// published: chain name, pretty name, chain id, bech32 prefix, the symbol of the staking (else fee)
// token from the chain's asset list, and the account-page template of its explorers.
import fs from 'node:fs';
import path from 'node:path';

interface Chain {
  chainName: string;
  prettyName?: string;
  chainId?: string;
  chainType?: string;
  networkType?: string;
  status?: string;
  bech32Prefix?: string;
  staking?: { stakingTokens?: Array<{ denom: string }> };
  fees?: { feeTokens?: Array<{ denom: string }> };
  explorers?: Array<{ kind?: string; accountPage?: string }>;
}
interface AssetList {
  chainName: string;
  assets: Array<{ base: string; symbol: string }>;
}

const dir = path.resolve(process.argv[2] ?? 'package');
const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name: string; version: string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const chains = (require(path.join(dir, 'mainnet/chains.js')) as { default: Chain[] }).default;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const assets = (require(path.join(dir, 'mainnet/asset-lists.js')) as { default: AssetList[] }).default;

const out = chains
  .filter((c) => c.chainType === 'cosmos' && c.networkType === 'mainnet' && c.status === 'live' && c.bech32Prefix)
  .map((c) => {
    const denom = c.staking?.stakingTokens?.[0]?.denom ?? c.fees?.feeTokens?.[0]?.denom;
    const symbol = assets.find((a) => a.chainName === c.chainName)?.assets.find((a) => a.base === denom)?.symbol;
    const accountPages = (c.explorers ?? []).filter((e) => e.accountPage).map((e) => e.accountPage as string);
    return { chainName: c.chainName, prettyName: c.prettyName ?? c.chainName, chainId: c.chainId ?? null, bech32Prefix: c.bech32Prefix, symbol: symbol ?? null, accountPages };
  })
  .sort((a, b) => a.chainName.localeCompare(b.chainName));

const target = path.resolve(__dirname, 'sources/cosmos-chain-registry.json');
fs.writeFileSync(target, `${JSON.stringify({ origin: `npm:${pkg.name}@${pkg.version} mainnet/chains.js, mainnet/asset-lists.js`, chains: out }, null, 1)}\n`);
process.stdout.write(`wrote ${path.relative(process.cwd(), target)}: ${out.length} chains\n`);
