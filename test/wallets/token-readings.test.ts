// Wallet engine v3: the token from the right label (not the next line's, not the next heading's),
// multi-chain EVM enumerations not tagged by their last chain, and an allowlist that filters
// readings, not addresses.
import assert from 'node:assert/strict';
import { applyAllowlist } from '../../domain/wallets/allowlist-filter';
import { extractWallets } from '../../domain/wallets/extract-wallets';
import type { AllowlistPair, ExtractionResult, WalletFinding } from '../../domain/wallets/wallet-types';
import { makeAddresses } from '../support/wallet-address-factory';

const a = makeAddresses(3201);
const b = makeAddresses(3202);

function only(r: ExtractionResult, address: string): WalletFinding {
  const rows = r.findings.filter((f) => f.address === address);
  assert.equal(rows.length, 1, `${address}: ${rows.length} rows`);
  return rows[0];
}

const PAIRS: AllowlistPair[] = [
  { token: 'TRX', network: 'tron' }, { token: 'USDT', network: 'tron' }, { token: 'ETH', network: 'ethereum' }, { token: 'USDT', network: 'ethereum' },
];

describe('wallet tokens v3: the token comes from the address\'s own label', () => {
  it('does not tag a Toncoin and a Solana address with the USDT of the entry between them (plain text)', () => {
    const text = `Donations:\nToncoin: ${a.ton}\nUSDT (ERC20): ${a.evm}\nSolana: ${a.sol}\n`;
    const r = extractWallets({ text });
    assert.deepEqual([only(r, a.ton).token, only(r, a.evm).token, only(r, a.sol).token], ['TON', 'USDT', 'SOL']);
    assert.equal(only(r, a.evm).networkId, 'ethereum');
  });

  it('does not tag an address under "## Ethereum" with the USDC of the next heading', () => {
    const text = `## Ethereum\n\n${a.evm}\n\n## USD Coin\n\nSee the Ethereum address above.\n`;
    const r = extractWallets({ text });
    assert.deepEqual([only(r, a.evm).networkId, only(r, a.evm).token], ['ethereum', 'ETH']);
  });

  it('tags an address under an enumeration of EVM chains with the first chain named, not the last', () => {
    const html = `<p>EVM (Ethereum, BSC, Polygon, Arbitrum, Base): <code>${a.evm}</code></p><p>BNB Smart Chain only: <code>${b.evm}</code></p>`;
    const r = extractWallets({ html });
    assert.deepEqual([only(r, a.evm).networkId, only(r, a.evm).token], ['ethereum', 'ETH']);
    assert.equal(only(r, b.evm).networkId, 'bsc');
  });

  it('reads "ETH · Optimism" as ETH on Optimism, not as an enumeration of Ethereum and Optimism', () => {
    const html = `<section><h3>ETH · Optimism</h3><p>Deposit address</p><div class="addr">${a.evm}</div></section>`;
    const r = extractWallets({ html });
    assert.deepEqual([only(r, a.evm).networkId, only(r, a.evm).token], ['optimism', 'ETH']);
  });
});

describe('wallet tokens v3: the allowlist filters readings, not addresses', () => {
  it('keeps a TRON address under "Tron (TRX), USDT (TRC20), USDC (TRC20)" with an allowed token', () => {
    const html = `<p>We accept Tron (TRX), USDT (TRC20), USDC (TRC20): <code>${a.tron}</code></p>`;
    const all = extractWallets({ html });
    assert.equal(only(all, a.tron).token, 'USDC');
    const r = extractWallets({ html }, { allowlist: PAIRS, includeRejected: true });
    assert.equal(only(r, a.tron).token, 'USDT');
    assert.ok(r.rejected.some((j) => j.candidate === a.tron && j.stage === 'allowlist' && /kept as USDT\/tron/.test(j.reason)));
  });

  it('still drops an address none of whose readings is allowed', () => {
    const html = `<p>USDC (TRC20) only: <code>${b.tron}</code></p>`;
    const r = extractWallets({ html }, { allowlist: PAIRS, includeRejected: true });
    assert.deepEqual(r.findings, []);
    assert.ok(r.rejected.some((j) => j.candidate === b.tron && /USDC\/tron is not in the allowlist/.test(j.reason)));
  });

  it('uses the readings of other occurrences of the same address', () => {
    const html = `<p>USDC (TRC20): <code>${b.tron}</code></p><p>TRX deposits: <code>${b.tron}</code></p>`;
    const base = extractWallets({ html });
    const row = only(base, b.tron);
    assert.equal(row.token, 'USDC');
    assert.deepEqual(row.tokenAlternatives, ['TRX']);
    const r = applyAllowlist(base, PAIRS, false);
    assert.equal(only(r, b.tron).token, 'TRX');
  });
});
