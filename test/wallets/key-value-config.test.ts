// Wallet engine v3: key-value configuration (`sol = "…"`, `btc: '…'`) where the key names the
// network: the key states the network, so addresses without a checksum are not rejected for lack of
// context, and an EVM address takes the network its key names.
import assert from 'node:assert/strict';
import { extractWallets } from '../../domain/wallets/extract-wallets';
import type { ExtractionResult, WalletFinding } from '../../domain/wallets/wallet-types';
import { makeAddresses } from '../support/wallet-address-factory';

const a = makeAddresses(3301);

function only(r: ExtractionResult, address: string): WalletFinding {
  const rows = r.findings.filter((f) => f.address === address);
  assert.equal(rows.length, 1, `${address}: ${rows.length} rows`);
  return rows[0];
}

describe('wallet key-value configuration v3', () => {
  it('reads TOML-style keys (sol = "…", matic = "…") in plain text', () => {
    const text = `[settings]\ntheme = "dark"\nsol = "${a.sol}"\nmatic = "${a.evmLower}"\n`;
    const r = extractWallets({ text });
    assert.deepEqual([only(r, a.sol).networkId, only(r, a.sol).confidence], ['solana', 'low']);
    assert.deepEqual([only(r, a.evmLower).networkId, only(r, a.evmLower).networkBasis, only(r, a.evmLower).token], ['polygon', 'structure', 'POL']);
  });

  it("reads YAML-style keys (btc: '…', bsc: '…') and script objects ({ sol: \"…\" })", () => {
    const text = `settings:\n  btc: '${a.btcSegwit}'\n  bsc: '${a.evm}'\n`;
    const r = extractWallets({ text });
    assert.equal(only(r, a.btcSegwit).networkId, 'bitcoin');
    assert.deepEqual([only(r, a.evm).networkId, only(r, a.evm).networkBasis], ['bsc', 'structure']);
    const html = `<script>const cfg = { theme: "dark", sol: "${a.sol}" };</script>`;
    assert.equal(only(extractWallets({ html }), a.sol).networkId, 'solana');
  });

  it('still rejects an address without a checksum under a key that names no network', () => {
    const html = `<script>const cfg = { theme: "dark", seed: "${a.sol}" };</script>`;
    const r = extractWallets({ html }, { includeRejected: true });
    assert.deepEqual(r.findings, []);
    assert.ok(r.rejected.some((j) => j.candidate === a.sol && /no checksum/.test(j.reason)));
  });
});
