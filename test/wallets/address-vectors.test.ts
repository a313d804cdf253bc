// Published test vectors (BIP-173/350, EIP-55, EIP-1191, each chain's own docs and reference
// implementations) and invalid vectors (bad checksums, wrong version bytes, v0/v1 constant mix-ups).
import assert from 'node:assert/strict';
import { validateAddress } from '../../domain/wallets/validate-address';
import { hip15Checksum } from '../../domain/wallets/decoders/hedera-decoder';
import { makeAddresses } from '../support/wallet-address-factory';
import type { NetworkId } from '../../domain/wallets/wallet-types';

const VALID: Array<[string, NetworkId, string, string]> = [
  // [address, expected network, expected format, source]
  ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'bitcoin', 'p2pkh', 'Bitcoin wiki'],
  ['3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', 'bitcoin', 'p2sh', 'Bitcoin wiki'],
  ['BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'bitcoin', 'p2wpkh', 'BIP-173'],
  ['bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3', 'bitcoin', 'p2wsh', 'BIP-173'],
  ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', 'bitcoin', 'p2tr', 'BIP-350'],
  ['bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y', 'bitcoin', 'segwit-v1', 'BIP-350'],
  ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'ethereum', 'evm', 'EIP-55'],
  ['0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', 'bsc', 'evm', 'EIP-55'],
  ['0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB', 'polygon', 'evm', 'EIP-55'],
  ['0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb', 'arbitrum', 'evm', 'EIP-55'],
  ['0x5aaEB6053f3e94c9b9a09f33669435E7ef1bEAeD', 'rootstock', 'rootstock', 'EIP-1191 (chain 30)'],
  ['0x27b1FdB04752BBc536007A920D24ACB045561c26', 'rootstock', 'rootstock', 'EIP-1191 (chain 30)'],
  ['TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC', 'tron', 'tron', 'TRON developer docs'],
  ['9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', 'solana', 'ed25519-pubkey', 'Solana docs'],
  ['rG1QQv2nh2gr7RCZ1P8YYcBUKCCN633jCn', 'xrp', 'classic', 'XRPL docs'],
  ['X7AcgcsBL6XDcUb289X4mJ8djcdyKaB5hJDWMArnXr61cqZ', 'xrp', 'x-address', 'XLS-5d / ripple-address-codec'],
  ['addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x', 'cardano', 'shelley', 'CIP-19'],
  ['Ae2tdPwUPEZFRbyhz3cpfC2CumGzNkFBN2L42rcUc2yjQpEkxDbkPodpMAi', 'cardano', 'byron', 'CIP-19 Byron (Icarus)'],
  ['DdzFFzCqrhsrcTVhLygT24QwTnNqQqQ8mZrq5jykUzMveU26sxaH529kMpo7VhPrt5pwW3dXeB2k3EEvKcNBRmzCfcQ7dTkyGzTs658C', 'cardano', 'byron', 'CIP-19 Byron (Daedalus)'],
  ['DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L', 'dogecoin', 'p2pkh', 'Dogecoin docs'],
  ['LaMT348PWRnrqeeWArpwQPbuanpXDZGEUz', 'litecoin', 'p2pkh', 'Litecoin wiki'],
  ['ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9', 'litecoin', 'p2wpkh', 'BIP-173 program under hrp ltc'],
  ['bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a', 'bitcoin-cash', 'cashaddr-p2pkh', 'cashaddr spec'],
  ['qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a', 'bitcoin-cash', 'cashaddr-p2pkh', 'cashaddr spec (prefix omitted)'],
  ['44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A', 'monero', 'standard', 'Monero general fund'],
  ['1FRMM8PEiWXYax7rpS6X4XZX1aAAxSWx1CrKTyrVYhV24fg', 'polkadot', 'ss58', 'Polkadot wiki'],
  ['CpjsLDC1JFyrhm3ftC9Gs4QoyrkHKhZKtK7YqGTRFtTafgp', 'kusama', 'ss58', 'Kusama docs'],
  ['5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY', 'polkadot', 'ss58 (generic substrate)', 'Substrate dev account Alice'],
  ['cosmos1hsk6jryyqjfhp5dhc55tc9jtckygx0eph6dd02', 'cosmos', 'bech32-account', 'trustwallet/wallet-core'],
  ['GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ', 'stellar', 'account (G)', 'SEP-23'],
  ['MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVAAAAAAAAAAAAAJLK', 'stellar', 'muxed account (M)', 'stellar-base tests'],
  ['VCMJKWOY5P5P7SKMZFFOCEROPJCZOTIJMNIYNUCKH7LRO45JMJP6UYBIJA', 'algorand', 'algorand', 'js-algorand-sdk tests'],
  ['EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N', 'ton', 'bounceable', 'TON docs (address formats)'],
  ['UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI', 'ton', 'non-bounceable', 'TON docs (address formats)'],
  ['0:83dfd552e63729b472fcbccc45ebcc6691702558b68ec7527e1ba403a0f31a8b', 'ton', 'ton-raw', 'TON docs (raw form of the same account)'],
  ['alice.near', 'near', 'near-named', 'NEAR account-id rules'],
  ['t1RygJmrLdNGgi98gUgEJDTVaELTAYWoMBy', 'zcash', 't1 (p2pkh)', 'trustwallet/wallet-core'],
  ['zs1m8d7506t4rpcgaag392xae698gx8j5at63qpg54ssprg6eqej0grmkfu76tq6p495z3w6s8qlll', 'zcash', 'sapling', 'zcash ledger app tests'],
  ['f1abjxfbp274xpdqcpuaykwkfb43omjotacm2p3za', 'filecoin', 'f1', 'filecoin-project/go-address'],
  ['f410fkkld55ioe7qg24wvt7fu6pbknb56ht7pt4zamxa', 'filecoin', 'f410 (delegated EVM)', 'Filecoin docs'],
  ['0.0.123-vfmkw', 'hedera', 'account-id (checksummed)', 'HIP-15'],
  ['binancecold1', 'eos', 'eos-account', 'EOS account name rules'],
  ['tz1d1qQL3mYVuiH4JPFvuikEpFwaDm85oabM', 'tezos', 'tz1', 'trustwallet/wallet-core'],
  ['KT1XnTn74bUtxHfDtBmm2bGZAQfhPbvKWR8o', 'tezos', 'KT1 (contract)', 'trustwallet/wallet-core'],
  ['bnb1grpf0955h0ykzq3ar5nmum7y6gdfl6lxfn46h2', 'bnb-beacon', 'bech32-account', 'trustwallet/wallet-core'],
  ['kaspa:qqkqkzjvr7zwxxmjxjkmxxdwju9kjs6e9u82uh59z07vgaks6gg62v8707g73', 'kaspa', 'kaspa', 'Kaspa docs'],
  ['X-avax1qr6yzjykcjmeflztsgv6y88dl0xnlel3chs3r4', 'avalanche-x', 'bech32-account', 'avalanche.js donation address'],
  ['ryjl3-tyaaa-aaaaa-aaaba-cai', 'internet-computer', 'principal (canister)', 'ICP ledger canister id'],
  ['nano_3t6k35gi95xu6tergt6p69ck76ogmitsa8mnijtpxm9fkcm736xtoncuohr3', 'nano', 'nano', 'Nano genesis account'],
];

const INVALID: Array<[string, string]> = [
  ['bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx', 'v1 with a bech32 checksum (valid under BIP-173 only)'],
  ['BC1SW50QA3JX3S', 'v16 with a bech32 checksum'],
  ['bc1zw508d6qejxtdg4y5r3zarvary0c5xw7kg3g4ty', 'v2 with a bech32 checksum'],
  ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', 'BIP-350: bech32 instead of bech32m'],
  ['BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL', 'BIP-350: bech32 instead of bech32m'],
  ['bc1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq7gltcy', 'v0 with a bad checksum'],
  ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', 'BIP-173 vector with the last character changed'],
  ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3', 'bad base58check checksum'],
  ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', 'bad EIP-55 casing'],
  ['TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeD', 'bad Tron checksum'],
  ['bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6b', 'bad cashaddr checksum (MAV accepts it)'],
  ['bnb1grpf0955h0ykzq3ar6nmum7y6gdfl6lxfn46h2', 'bad bech32 checksum (swyftx accepts it)'],
  ['NmH7tmeJUmHcncBDvpr7aJNEBk7rp5zYsB1qt', 'Tezos: invalid prefix, valid checksum'],
  ['tz1eZwq8b5cvE2bPKokatLkVMzkxz24z3AAAA', 'Tezos: valid prefix, invalid checksum'],
  ['0.0.123-abcde', 'bad HIP-15 checksum'],
  ['rechtsanwaltskanzleien2024x', 'prose matched by naive XRP regexes'],
  ['5KN7MzqK5wt2TP1fQCYyHBtDrXdJuXbUzm4A9rKAteGu3Qi5CVR', 'WIF private key, not an address'],
  ['xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8', 'BIP-32 extended public key'],
  ['SBGWKM3CD4IL47QN6X54N6Y33T3JDNVI6AIJ6CD5IM47HG3IG4O36XCU', 'Stellar secret seed'],
  ['npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6', 'Nostr key: valid bech32, not a wallet HRP'],
  ['18ddf28a71089acdbab5038f58044c0a', 'MD5 imphash (ioc-finder#226)'],
  ['3F3F3F3F3F3F3F3F3F3F3F3F3F3F3F3F3F', 'repeated hex (pyWhat#239)'],
];

describe('wallet address validation: published vectors', () => {
  for (const [address, network, format, source] of VALID) {
    it(`accepts ${address.slice(0, 24)}… as ${network} ${format} (${source})`, () => {
      const r = validateAddress(address);
      assert.equal(r.valid, true, r.notes.join('; '));
      const m = r.matches.find((x) => x.networkId === network);
      assert.ok(m, `networks: ${r.matches.map((x) => x.networkId).join(',')}`);
      assert.equal(m.format, format);
    });
  }

  for (const [address, why] of INVALID) {
    it(`rejects ${address.slice(0, 24)}… (${why})`, () => {
      assert.equal(validateAddress(address).valid, false);
    });
  }

  it('ties the bech32 constant to the witness version (v1 + bech32 names BIP-350)', () => {
    const r = validateAddress('bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx');
    assert.match(r.notes.join(' '), /bech32 checksum \(BIP-350\)/);
  });

  it('resolves 3… as Bitcoin, never Litecoin, and allows Bitcoin Cash legacy', () => {
    const r = validateAddress('3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy');
    assert.deepEqual(r.matches.map((m) => m.networkId), ['bitcoin', 'bitcoin-cash']);
  });

  it('takes the SS58 network from the prefix (Kusama is not Polkadot)', () => {
    assert.deepEqual(validateAddress('CpjsLDC1JFyrhm3ftC9Gs4QoyrkHKhZKtK7YqGTRFtTafgp').matches.map((m) => m.networkId), ['kusama']);
    assert.equal(validateAddress('CpjsLDC1JFyrhm3ftC9Gs4QoyrkHKhZKtK7YqGTRFtTafgp', ['polkadot']).valid, false);
  });

  it('computes the HIP-15 checksum of the spec example for mainnet', () => {
    assert.equal(hip15Checksum('0.0.123', 0), 'vfmkw');
  });

  it('flags famous constants but still calls them valid', () => {
    const r = validateAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
    assert.equal(r.valid, true);
    assert.match(r.notes.join(' '), /EIP-55 test vector/);
  });

  it('validates generated addresses of networks without a vector here (Dash, Osmosis)', () => {
    const a = makeAddresses(5);
    assert.deepEqual(validateAddress(a.dash).matches.map((m) => m.networkId), ['dash']);
    assert.equal(validateAddress(a.dash.slice(0, -1) + (a.dash.endsWith('z') ? 'y' : 'z')).valid, false);
  });
});
