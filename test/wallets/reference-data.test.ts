// The generated reference data set (domain/wallets/data/reference-data.json): up to date with its
// pinned sources (scripts/generate-wallet-reference-data.ts --check), BOLT #11 fallback addresses
// decoded from the specification's invoices, every contract decodes on its chain, and nothing in it
// is ever reported as a wallet.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeAddressString } from '../../domain/wallets/decode-candidate';
import { extractWallets } from '../../domain/wallets/extract-wallets';
import { REFERENCE_CONTRACTS, REFERENCE_VECTORS } from '../../domain/wallets/well-known-contracts';
import { bolt11Fallbacks, generate } from '../../scripts/generate-wallet-reference-data';

const ROOT = path.resolve(__dirname, '../..');

describe('wallet reference data set (generated)', () => {
  it('is what the generator makes of the pinned sources (regenerate with scripts/generate-wallet-reference-data.ts)', () => {
    assert.equal(fs.readFileSync(path.join(ROOT, 'domain/wallets/data/reference-data.json'), 'utf8'), generate());
  });

  it('decodes each BOLT #11 example invoice to the fallback address its heading names', () => {
    const lines = fs.readFileSync(path.join(ROOT, 'scripts/wallet-data/sources/bolt11-fallback-examples.txt'), 'utf8').split('\n');
    let pairs = 0;
    for (let i = 0; i < lines.length; i++) {
      const named = /fallback (?:\(\w+\) )?address (\w+)/.exec(lines[i])?.[1];
      if (!named) continue;
      const invoice = /lnbc\w+/.exec(lines[i + 1])?.[0] ?? '';
      assert.deepEqual(bolt11Fallbacks(invoice), [named], lines[i]);
      pairs++;
    }
    assert.equal(pairs, 5);
    assert.deepEqual(REFERENCE_VECTORS.map((v) => v.address).sort(), ['1RustyRX2oai4EYYDpQGWvEL62BBGqN9T', '3EktnHQD7RiAE6uzMj2ZifT9YgRrkSgzQX', 'bc1pptdvg0d2nj99568qn6ssdy4cygnwuxgw2ukmnwgwz7jpqjz2kszse2s3lm', 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4']);
  });

  it('has token contracts on the EVM chains, SPL mints and programs, each decoding on its chain with its pinned origin', () => {
    const chains = new Set(REFERENCE_CONTRACTS.map((c) => `${c.chain}/${c.kind}`));
    for (const k of ['ethereum/token', 'bsc/token', 'polygon/token', 'arbitrum/token', 'optimism/token', 'base/token', 'avalanche-c/token', 'solana/mint', 'solana/program']) assert.ok(chains.has(k), `no ${k}`);
    const bad = REFERENCE_CONTRACTS.filter((c) => !decodeAddressString(c.address).matches.some((m) => m.kind === 'address' && m.networks.includes(c.chain)));
    assert.deepEqual(bad.map((c) => `${c.chain} ${c.address}`), []);
    for (const c of REFERENCE_CONTRACTS) assert.match(c.source, /^npm:@/);
  });

  it('never reports a reference contract or vector as a wallet, even handed over next to deposit words', () => {
    const sample = [...REFERENCE_CONTRACTS.filter((_, i) => i % 25 === 0), ...REFERENCE_VECTORS];
    const html = sample.map((c) => `<p>Deposit wallet: <button data-clipboard-text="${c.address}">${c.address}</button></p>`).join('\n');
    const r = extractWallets({ html }, { includeRejected: true });
    assert.deepEqual(r.findings.map((f) => f.address), []);
    for (const v of REFERENCE_VECTORS) assert.ok(r.rejected.some((x) => x.candidate === v.address && /known non-wallet constant: (?:BOLT #11 fallback|BIP-173)/.test(x.reason)), v.address);
  });
});
