// Public block explorers, per network id of the wallet engine (domain/wallets/network-catalog.ts;
// wallets carry the network's display name, e.g. 'Bitcoin Cash', mapped back to its id here).
// `{address}` is replaced by the URL-encoded address. A network not listed here shows no link.
// README ("Console") documents this map; add a row here to link a new network. The Cosmos-SDK
// chains of the chain registry link to the account page the registry names for them
// (domain/wallets/data/cosmos-chains.json, generated from the pinned registry extract).
import { COSMOS_CHAINS } from '../../domain/wallets/cosmos-chains';
import { NETWORKS } from '../../domain/wallets/network-catalog';

export const EXPLORERS: Record<string, string> = {
  ...Object.fromEntries(COSMOS_CHAINS.filter((c) => c.explorer?.startsWith('https://')).map((c) => [c.id, c.explorer as string])),
  aleo: 'https://explorer.aleo.org/address/{address}',
  algorand: 'https://allo.info/account/{address}',
  aptos: 'https://explorer.aptoslabs.com/account/{address}?network=mainnet',
  arbitrum: 'https://arbiscan.io/address/{address}',
  'avalanche-c': 'https://snowtrace.io/address/{address}',
  base: 'https://basescan.org/address/{address}',
  bitcoin: 'https://mempool.space/address/{address}',
  'bitcoin-cash': 'https://blockchair.com/bitcoin-cash/address/{address}',
  bsc: 'https://bscscan.com/address/{address}',
  cardano: 'https://cardanoscan.io/address/{address}',
  cosmos: 'https://www.mintscan.io/cosmos/address/{address}',
  dash: 'https://blockchair.com/dash/address/{address}',
  dogecoin: 'https://blockchair.com/dogecoin/address/{address}',
  ethereum: 'https://etherscan.io/address/{address}',
  'ethereum-classic': 'https://etc.blockscout.com/address/{address}',
  filecoin: 'https://filfox.info/en/address/{address}',
  hedera: 'https://hashscan.io/mainnet/account/{address}',
  iota: 'https://explorer.iota.org/mainnet/addr/{address}',
  kaspa: 'https://explorer.kaspa.org/addresses/{address}',
  kusama: 'https://kusama.subscan.io/account/{address}',
  litecoin: 'https://blockchair.com/litecoin/address/{address}',
  near: 'https://nearblocks.io/address/{address}',
  optimism: 'https://optimistic.etherscan.io/address/{address}',
  osmosis: 'https://www.mintscan.io/osmosis/address/{address}',
  polkadot: 'https://polkadot.subscan.io/account/{address}',
  polygon: 'https://polygonscan.com/address/{address}',
  rootstock: 'https://explorer.rootstock.io/address/{address}',
  shimmer: 'https://explorer.shimmer.network/shimmer/addr/{address}',
  solana: 'https://solscan.io/account/{address}',
  stacks: 'https://explorer.hiro.so/address/{address}?chain=mainnet',
  starknet: 'https://voyager.online/contract/{address}',
  stellar: 'https://stellar.expert/explorer/public/account/{address}',
  sui: 'https://suiscan.xyz/mainnet/account/{address}',
  tezos: 'https://tzkt.io/{address}',
  ton: 'https://tonviewer.com/{address}',
  tron: 'https://tronscan.org/#/address/{address}',
  xrp: 'https://xrpscan.com/account/{address}',
  ycash: 'https://yecblockexplorer.com/address/{address}',
  zcash: 'https://blockchair.com/zcash/address/{address}',
  zilliqa: 'https://viewblock.io/zilliqa/address/{address}',
};

const NETWORK_IDS = new Map<string, string>(NETWORKS.flatMap((n) => [[n.id, n.id], [n.name.toLowerCase(), n.id]]));

/** The explorer URL of an address on a network (its id or display name, any case); null when none is known. */
export function explorerUrl(network: string, address: string): string | null {
  const id = NETWORK_IDS.get(network.trim().toLowerCase());
  const template = id ? EXPLORERS[id] : undefined;
  return template ? template.replace('{address}', encodeURIComponent(address)) : null;
}
