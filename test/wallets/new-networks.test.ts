// Networks added by wallet engine v3, each with its checksum and test vectors: Stacks (c32check),
// Zilliqa (bech32, hrp zil), Aleo (bech32m, hrp aleo); Stellar contract ids (C…) decode but are contracts, not wallets.
import assert from 'node:assert/strict';
import { bech32, bech32m } from '@scure/base';
import { decodeAddressString } from '../../domain/wallets/decode-candidate';
import { stacksAddress } from '../../domain/wallets/decoders/c32check-decoder';
import { extractWallets } from '../../domain/wallets/extract-wallets';
import { seededBytes } from '../support/wallet-address-factory';

/** The c32check README's example: c32address(22, 'a46ff88886c2ef9762d970b4d2c63678835bd39d'). */
const STACKS_VECTOR = 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7';
const STACKS_VECTOR_HASH = 'a46ff88886c2ef9762d970b4d2c63678835bd39d';

const bytes = seededBytes(3401);
const hash160 = bytes(20);
const zil = bech32.encode('zil', bech32.toWords(bytes(20)));

function networksOf(address: string): string[] {
  return decodeAddressString(address).matches.filter((m) => m.kind === 'address').flatMap((m) => m.networks);
}

function mutateLast(s: string, alphabet: string): string {
  const last = s[s.length - 1];
  return s.slice(0, -1) + (alphabet[(alphabet.indexOf(last) + 1) % alphabet.length]);
}

describe('wallet networks v3: Stacks (c32check)', () => {
  it('encodes the c32check reference vector and decodes it as a Stacks single-signature address', () => {
    assert.equal(stacksAddress(22, Uint8Array.from(Buffer.from(STACKS_VECTOR_HASH, 'hex'))), STACKS_VECTOR);
    const r = decodeAddressString(STACKS_VECTOR);
    assert.deepEqual(r.matches.map((m) => [m.networks, m.format, m.strength]), [[['stacks'], 'stacks-p2pkh', 'strong']]);
  });

  it('accepts multi-signature (SM) addresses, reports testnet (ST) ones as testnet, rejects a bad checksum', () => {
    assert.deepEqual(networksOf(stacksAddress(20, hash160)), ['stacks']);
    const testnet = decodeAddressString(stacksAddress(26, hash160));
    assert.deepEqual(testnet.matches.map((m) => m.kind), ['testnet']);
    const bad = decodeAddressString(mutateLast(STACKS_VECTOR, '0123456789ABCDEFGHJKMNPQRSTVWXYZ'));
    assert.deepEqual(bad.matches, []);
    assert.match(bad.failures.map((f) => f.reason).join(' '), /c32check checksum/);
  });
});

describe('wallet networks v3: Zilliqa (zil1, bech32)', () => {
  it('accepts a zil1 address of 20 bytes, rejects a bad checksum and another payload length, and knows the zero address', () => {
    assert.deepEqual(networksOf(zil), ['zilliqa']);
    assert.deepEqual(networksOf(mutateLast(zil, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l')), []);
    assert.deepEqual(networksOf(bech32.encode('zil', bech32.toWords(bytes(32)))), []);
    const r = extractWallets({ html: '<p>Donate ZIL: zil1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq9yf6pz</p>' }, { includeRejected: true });
    assert.deepEqual(r.findings, []);
    assert.ok(r.rejected.some((j) => /Zilliqa zero address/.test(j.reason)));
  });
});

/** The account address of Aleo's developer documentation. */
const ALEO_VECTOR = 'aleo1rhgdu77hgyqd3xjj8ucu3jj9r2krwz6mnzyd80gncr5fxcwlh5rsvzp9px';

describe('wallet networks v3: Aleo (aleo1, bech32m)', () => {
  it('accepts the documentation address (bech32m, 32 bytes), rejects it with a bech32 checksum or a bad checksum', () => {
    assert.deepEqual(decodeAddressString(ALEO_VECTOR).matches.map((m) => [m.networks, m.format]), [[['aleo'], 'bech32m-account']]);
    const words = bech32m.decode(ALEO_VECTOR).words;
    assert.deepEqual(networksOf(bech32.encode('aleo', words, false)), []);
    assert.deepEqual(networksOf(mutateLast(ALEO_VECTOR, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l')), []);
    const r = extractWallets({ html: `<p>Donate ALEO: ${ALEO_VECTOR}</p>` });
    assert.deepEqual(r.findings.map((f) => [f.networkId, f.token]), [['aleo', 'ALEO']]);
  });
});

describe('wallet networks v3: extraction and Stellar contract ids', () => {
  it('finds Stacks and Zilliqa donation addresses with their network and native token', () => {
    const r = extractWallets({ html: `<p>Donate STX: ${STACKS_VECTOR}</p><p>ZIL: ${zil}</p>` });
    assert.deepEqual(r.findings.map((f) => [f.address, f.networkId, f.token]).sort(), [[STACKS_VECTOR, 'stacks', 'STX'], [zil, 'zilliqa', 'ZIL']]);
  });

  it('never reports a Stellar contract id (C…) as a wallet', () => {
    const contract = 'CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE';
    const r = extractWallets({ html: `<p>Send XLM to <button data-clipboard-text="${contract}">${contract}</button></p>` }, { includeRejected: true });
    assert.deepEqual(r.findings, []);
    assert.ok(r.rejected.some((j) => j.candidate === contract && /Stellar contract id/.test(j.reason)));
  });
});
