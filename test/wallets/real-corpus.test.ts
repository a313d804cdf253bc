// The wallet engine on real public documents (test/support/real-wallet-corpus.ts: donation pages,
// a deployed-contract table, program-id lists), scored as the accuracy bench scores them.
import assert from 'node:assert/strict';
import { scoreRealCorpus } from '../../bench/wallet-accuracy';
import { extractWallets } from '../../domain/wallets/extract-wallets';
import { REAL_CORPUS } from '../support/real-wallet-corpus';

describe('wallet engine on real public documents', () => {
  it('finds every wallet with its network and a token its label names, and reports no contract or program id', () => {
    const a = scoreRealCorpus(extractWallets, REAL_CORPUS);
    assert.deepEqual(a.misses, []);
    assert.deepEqual(a.falsePositives, []);
    assert.deepEqual(a.wrong, []);
    assert.ok(a.wallets >= 16, `${a.wallets} wallets`);
    assert.ok(REAL_CORPUS.some((d) => d.class === 'contract-list') && REAL_CORPUS.some((d) => d.class === 'program-ids'));
  });

  it('rejects every listed contract of the contract and program-id documents', () => {
    for (const d of REAL_CORPUS.filter((x) => x.contracts.length)) {
      const r = extractWallets(d.html !== undefined ? { html: d.html } : { text: d.text ?? '' });
      const reported = new Set(r.findings.map((f) => f.address.toLowerCase()));
      assert.deepEqual(d.contracts.filter((c) => reported.has(c.toLowerCase())), [], d.id);
    }
  });
});
