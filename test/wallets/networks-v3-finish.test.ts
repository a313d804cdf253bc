// Networks that finish wallet engine v3, each with its checksum or format check and test vectors:
// the Cosmos-SDK chains of the pinned chain registry (bech32, named by chain), Starknet (a felt
// below 2^251, only when Starknet is named), IOTA and Shimmer (Stardust bech32, TIP-31 vectors),
// Ycash (s1 / s3 base58check, ys1 Sapling bech32).
import assert from 'node:assert/strict';
import { base58check as makeBase58check, bech32, bech32m } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { COSMOS_CHAINS, RESERVED_BECH32_PREFIXES } from '../../domain/wallets/cosmos-chains';
import { decodeAddressString } from '../../domain/wallets/decode-candidate';
import { extractWallets } from '../../domain/wallets/extract-wallets';
import { isNetworkId, networkInfo } from '../../domain/wallets/network-catalog';
import { seededBytes } from '../support/wallet-address-factory';

const bytes = seededBytes(3131);
const b58check = makeBase58check(sha256);

function addressNetworks(address: string): string[] {
  return decodeAddressString(address).matches.filter((m) => m.kind === 'address').flatMap((m) => m.networks);
}

function mutateLast(s: string, alphabet: string): string {
  const last = s[s.length - 1];
  return s.slice(0, -1) + alphabet[(alphabet.indexOf(last) + 1) % alphabet.length];
}
const BECH32_ALPHABET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

describe('wallet networks v3: Cosmos-SDK chains of the chain registry', () => {
  it('has the registry chains as networks named by chain, none on a prefix the engine already owns', () => {
    assert.ok(COSMOS_CHAINS.length > 150, `${COSMOS_CHAINS.length} chains`);
    const byName = new Map(COSMOS_CHAINS.map((c) => [c.id, c]));
    assert.deepEqual([byName.get('cosmos-kava')?.prefix, byName.get('cosmos-kava')?.name, byName.get('cosmos-kava')?.native], ['kava', 'Kava', 'KAVA']);
    assert.equal(byName.get('cosmos-juno')?.prefix, 'juno');
    assert.equal(byName.get('cosmos-akash')?.native, 'AKT');
    for (const c of COSMOS_CHAINS) {
      assert.ok(!RESERVED_BECH32_PREFIXES.has(c.prefix), c.id);
      assert.ok(isNetworkId(c.id), c.id);
      assert.equal(networkInfo(c.id).name, c.name);
    }
    assert.ok(!byName.has('cosmos-cosmoshub') && !byName.has('cosmos-osmosis'), 'Cosmos Hub and Osmosis stay the engine\'s own networks');
  });

  it('accepts 20-byte accounts with a valid bech32 checksum on the chain of their prefix, reads 32 bytes as a CosmWasm contract; rejects a bad checksum, bech32m and other lengths', () => {
    const kava = bech32.encode('kava', bech32.toWords(bytes(20)));
    assert.deepEqual(addressNetworks(kava), ['cosmos-kava']);
    const contract = decodeAddressString(bech32.encode('juno', bech32.toWords(bytes(32))));
    assert.deepEqual(contract.matches.map((m) => [m.kind, m.networks, m.format]), [['non-payment', ['cosmos-juno'], 'cosmwasm-contract']]);
    assert.deepEqual(addressNetworks(mutateLast(kava, BECH32_ALPHABET)), []);
    assert.match(decodeAddressString(mutateLast(kava, BECH32_ALPHABET)).failures.map((f) => f.reason).join(' '), /checksum/);
    assert.deepEqual(addressNetworks(bech32m.encode('kava', bech32m.toWords(bytes(20)))), []);
    assert.deepEqual(addressNetworks(bech32.encode('kava', bech32.toWords(bytes(25)))), []);
    const terra = addressNetworks(bech32.encode('terra', bech32.toWords(bytes(20))));
    assert.deepEqual([...terra].sort(), ['cosmos-terra', 'cosmos-terra2'], 'Terra and Terra Classic share the prefix');
  });

  it('reports a validator operator address as no wallet', () => {
    const valoper = bech32.encode('kavavaloper', bech32.toWords(bytes(20)));
    assert.deepEqual(decodeAddressString(valoper).matches.map((m) => m.kind), ['non-payment']);
  });

  it('finds a chain address on a page with its chain as network and its native coin as token', () => {
    const akash = bech32.encode('akash', bech32.toWords(bytes(20)));
    const kava = bech32.encode('kava', bech32.toWords(bytes(20)));
    const r = extractWallets({ html: `<h2>Donate</h2><p>Akash: ${akash}</p><p>Kava wallet: ${kava}</p>` });
    assert.deepEqual(r.findings.map((f) => [f.address, f.network, f.networkId, f.token]).sort(), [
      [akash, 'Akash', 'cosmos-akash', 'AKT'], [kava, 'Kava', 'cosmos-kava', 'KAVA'],
    ].sort());
  });
});

/** Starknet's STRK and ETH token contracts (felts below 2^251), as published by StarkWare. */
const STRK_TOKEN = '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';

describe('wallet networks v3: Starknet (0x + 64 hex, a felt below 2^251)', () => {
  const felt = `0x0${'5'}${Buffer.from(bytes(31)).toString('hex')}`;
  const aboveDomain = `0x08${Buffer.from(bytes(31)).toString('hex')}`;

  it('allows Starknet only for a value below 2^251, after Aptos and Sui (the default needs a label)', () => {
    assert.deepEqual(addressNetworks(felt), ['aptos', 'sui', 'starknet']);
    assert.deepEqual(addressNetworks(STRK_TOKEN), ['aptos', 'sui', 'starknet']);
    assert.deepEqual(addressNetworks(aboveDomain), ['aptos', 'sui']);
  });

  it('reads an address labelled Starknet as a Starknet wallet, and the same value without a Starknet label not as Starknet', () => {
    const labelled = extractWallets({ html: `<p>Send STRK on Starknet to my wallet: <span data-clipboard-text="${felt}">${felt}</span></p>` });
    assert.deepEqual(labelled.findings.map((f) => [f.networkId, f.token]), [['starknet', 'STRK']]);
    const above = extractWallets({ html: `<p>Starknet wallet: <span data-clipboard-text="${aboveDomain}">${aboveDomain}</span></p>` });
    assert.ok(above.findings.every((f) => f.networkId !== 'starknet'));
    const unlabelled = extractWallets({ html: `<p>Wallet: <span data-clipboard-text="${felt}">${felt}</span></p>` });
    assert.ok(unlabelled.findings.every((f) => f.networkId !== 'starknet'));
  });
});

/** TIP-31 (IOTA bech32 addresses) examples: the same Ed25519 address on IOTA and Shimmer, and an alias address. */
const TIP31_IOTA_ED25519 = 'iota1qrhacyfwlcnzkvzteumekfkrrwks98mpdm37cj4xx3drvmjvnep6xqgyzyx';
const TIP31_SMR_ED25519 = 'smr1qrhacyfwlcnzkvzteumekfkrrwks98mpdm37cj4xx3drvmjvnep6xhcazjh';
const TIP31_IOTA_ALIAS = 'iota1prlgpsht03ekmghhex8v7y67a835uns8dtlxu807hj0v279c74kj76j6rev';

describe('wallet networks v3: IOTA and Shimmer (Stardust bech32)', () => {
  it('decodes the TIP-31 vectors with their address type, rejects a bad checksum, an unknown type byte and a wrong length', () => {
    assert.deepEqual(decodeAddressString(TIP31_IOTA_ED25519).matches.map((m) => [m.networks, m.format]), [[['iota'], 'stardust-ed25519']]);
    assert.deepEqual(decodeAddressString(TIP31_SMR_ED25519).matches.map((m) => [m.networks, m.format]), [[['shimmer'], 'stardust-ed25519']]);
    assert.deepEqual(decodeAddressString(TIP31_IOTA_ALIAS).matches.map((m) => [m.networks, m.format]), [[['iota'], 'stardust-alias']]);
    assert.deepEqual(addressNetworks(mutateLast(TIP31_IOTA_ED25519, BECH32_ALPHABET)), []);
    assert.deepEqual(addressNetworks(bech32.encode('iota', bech32.toWords(Uint8Array.from([3, ...bytes(32)])))), []);
    assert.deepEqual(addressNetworks(bech32.encode('iota', bech32.toWords(Uint8Array.from([0, ...bytes(20)])))), []);
  });

  it('finds an IOTA donation address on a page', () => {
    const r = extractWallets({ html: `<p>Donate IOTA: ${TIP31_IOTA_ED25519}</p>` });
    assert.deepEqual(r.findings.map((f) => [f.address, f.network, f.token]), [[TIP31_IOTA_ED25519, 'IOTA', 'IOTA']]);
  });
});

describe('wallet networks v3: Ycash (s1 / s3 transparent, ys1 Sapling)', () => {
  const s1 = b58check.encode(Uint8Array.from([0x1c, 0x28, ...bytes(20)]));
  const s3 = b58check.encode(Uint8Array.from([0x1c, 0x2c, ...bytes(20)]));
  const ys1 = bech32.encode('ys', bech32.toWords(bytes(43)), 200);

  it('decodes transparent addresses by their 2-byte version and Sapling addresses by hrp ys (43 bytes); rejects bad checksums', () => {
    assert.match(s1, /^s1/);
    assert.deepEqual(decodeAddressString(s1).matches.map((m) => [m.networks, m.format]), [[['ycash'], 's1 (p2pkh)']]);
    assert.deepEqual(decodeAddressString(s3).matches.map((m) => [m.networks, m.format]), [[['ycash'], 's3 (p2sh)']]);
    assert.deepEqual(decodeAddressString(ys1).matches.map((m) => [m.networks, m.format]), [[['ycash'], 'sapling']]);
    assert.deepEqual(addressNetworks(mutateLast(s1, '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz')), []);
    assert.deepEqual(addressNetworks(mutateLast(ys1, BECH32_ALPHABET)), []);
    assert.deepEqual(addressNetworks(bech32.encode('ys', bech32.toWords(bytes(32)), 200)), []);
  });

  it('finds Ycash addresses on a page as YEC, and a contract label does not drop them (Ycash has no contracts)', () => {
    const r = extractWallets({ html: `<p>Ycash (YEC) donations: ${s1}</p><p>Shielded: ${ys1}. Contract terms apply.</p>` });
    assert.deepEqual(r.findings.map((f) => [f.address, f.networkId, f.token]).sort(), [[s1, 'ycash', 'YEC'], [ys1, 'ycash', 'YEC']].sort());
  });
});
