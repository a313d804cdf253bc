// The console's network -> block explorer map (console/src/explorers.ts) names only networks the
// wallet engine knows, with an https template that takes the address.
import assert from 'node:assert/strict';
import { EXPLORERS, explorerUrl } from '../../console/src/explorers';
import { isNetworkId } from '../../domain/wallets/network-catalog';

describe('console explorer links', () => {
  it('maps only network ids of the wallet engine, each to an https URL template with {address}', () => {
    for (const [network, template] of Object.entries(EXPLORERS)) {
      assert.ok(isNetworkId(network), `${network} is a network id of domain/wallets/network-catalog.ts`);
      assert.match(template, /^https:\/\/[^/]+\/.*\{address\}/, network);
    }
    for (const n of ['bitcoin', 'ethereum', 'tron', 'solana', 'bsc', 'polygon', 'litecoin', 'xrp']) assert.ok(EXPLORERS[n], `${n} has an explorer`);
  });

  it('takes the network by id or display name (any case), fills in the address URL-encoded, and gives no link for an unknown network', () => {
    assert.equal(explorerUrl('Bitcoin Cash', 'qq1'), 'https://blockchair.com/bitcoin-cash/address/qq1');
    assert.equal(explorerUrl('XRP Ledger', 'r1'), 'https://xrpscan.com/account/r1');
    assert.equal(explorerUrl('BNB Smart Chain', '0xab'), 'https://bscscan.com/address/0xab');
    assert.equal(explorerUrl('Tron', 'TJwBzYzTpM24CWFGgfQzGNcXra2avWhagV'), 'https://tronscan.org/#/address/TJwBzYzTpM24CWFGgfQzGNcXra2avWhagV');
    assert.equal(explorerUrl('ethereum', 'a/b?c'), 'https://etherscan.io/address/a%2Fb%3Fc');
    assert.equal(explorerUrl('no-such-chain', 'x'), null);
  });

  it('links the networks of engine v3: Starknet, IOTA, Shimmer, Ycash, Stacks, Zilliqa, Aleo, and Cosmos-SDK chains of the registry by their name', () => {
    assert.equal(explorerUrl('Starknet', '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d'), 'https://voyager.online/contract/0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d');
    assert.equal(explorerUrl('IOTA', 'iota1qr'), 'https://explorer.iota.org/mainnet/addr/iota1qr');
    assert.equal(explorerUrl('Shimmer', 'smr1qr'), 'https://explorer.shimmer.network/shimmer/addr/smr1qr');
    assert.equal(explorerUrl('Ycash', 's1abc'), 'https://yecblockexplorer.com/address/s1abc');
    assert.equal(explorerUrl('Stacks', 'SP2J'), 'https://explorer.hiro.so/address/SP2J?chain=mainnet');
    assert.equal(explorerUrl('Zilliqa', 'zil1q'), 'https://viewblock.io/zilliqa/address/zil1q');
    assert.equal(explorerUrl('Aleo', 'aleo1r'), 'https://explorer.aleo.org/address/aleo1r');
    assert.equal(explorerUrl('Kava', 'kava1abc'), 'https://www.mintscan.io/kava/accounts/kava1abc');
    assert.equal(explorerUrl('cosmos-akash', 'akash1abc'), 'https://www.mintscan.io/akash/accounts/akash1abc');
    assert.equal(explorerUrl('Terra Classic', 'terra1abc')?.startsWith('https://'), true);
  });
});
