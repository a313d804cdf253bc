// The curated list of well-known contracts (data/well-known-contracts.json): every entry decodes on
// its chain, names where it comes from, and is never reported as a wallet, even handed over.
import assert from 'node:assert/strict';
import { decodeAddressString } from '../../domain/wallets/decode-candidate';
import { extractWallets } from '../../domain/wallets/extract-wallets';
import { validateAddress } from '../../domain/wallets/validate-address';
import { WELL_KNOWN_CONTRACTS } from '../../domain/wallets/well-known-contracts';

describe('well-known contracts data file', () => {
  it('has entries for the stablecoins, wrapped natives, routers, multicall and permit', () => {
    const kinds = new Set(WELL_KNOWN_CONTRACTS.map((c) => c.kind));
    for (const k of ['token', 'wrapped-native', 'router', 'multicall', 'permit', 'mint', 'program', 'jetton-master']) assert.ok(kinds.has(k as never), `no ${k} entry`);
    const chains = new Set(WELL_KNOWN_CONTRACTS.map((c) => c.chain));
    for (const ch of ['ethereum', 'bsc', 'polygon', 'arbitrum', 'optimism', 'base', 'avalanche-c', 'tron', 'solana', 'ton']) assert.ok(chains.has(ch as never), `no ${ch} entry`);
  });

  for (const c of WELL_KNOWN_CONTRACTS) {
    it(`${c.chain} ${c.label}: decodes on its chain and has a source`, () => {
      const r = decodeAddressString(c.address);
      assert.ok(r.matches.some((m) => m.kind === 'address' && m.networks.includes(c.chain)), `${c.address} does not decode on ${c.chain}: ${JSON.stringify(r.failures)}`);
      assert.match(c.source, /https:\/\//);
    });
  }

  it('never reports any entry as a wallet, even in a copy button next to deposit words', () => {
    const html = WELL_KNOWN_CONTRACTS.map((c) => `<p>Deposit wallet: <button data-clipboard-text="${c.address}">${c.address}</button></p>`).join('\n');
    const r = extractWallets({ html }, { includeRejected: true });
    assert.deepEqual(r.findings.map((f) => f.address), []);
    for (const c of WELL_KNOWN_CONTRACTS) assert.ok(r.rejected.some((x) => x.candidate === c.address && /well-known contract/.test(x.reason)), c.address);
  });

  it('validate names a well-known contract in its notes', () => {
    const r = validateAddress('0xcA11bde05977b3631167028862bE2a173976CA11');
    assert.equal(r.valid, true);
    assert.match(r.notes.join(' '), /well-known contract: Multicall3/);
  });
});
