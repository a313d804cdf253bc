// Attribution an analyst can put in front of a court: contracts are never
// wallets, the token comes from the structure that holds the address, the EVM network from explicit
// evidence (or says `default`), and one row per address and network. Pages are built here with
// freshly generated addresses.
import assert from 'node:assert/strict';
import { extractWallets } from '../../domain/wallets/extract-wallets';
import type { ExtractionResult, WalletFinding } from '../../domain/wallets/wallet-types';
import { makeAddresses } from '../support/wallet-address-factory';

const a = makeAddresses(201);
const b = makeAddresses(202);
const c = makeAddresses(203);
const d = makeAddresses(204);

function only(r: ExtractionResult, address: string): WalletFinding {
  const rows = r.findings.filter((f) => f.address === address);
  assert.equal(rows.length, 1, `${address}: ${rows.length} rows`);
  return rows[0];
}

const USDT_ETH = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
const USDT_BSC = '0x55d398326f99059fF775485246999027B3197955';
const USDC_SOL = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

describe('wallet attribution: contracts are not wallets (class 1)', () => {
  it('rejects addresses labelled contract, CA, token address, mint, router, spender, approve, jetton master', () => {
    const html = `<html><body><h2>$MOON presale</h2>
      <p>Token contract address: <code>${a.evm}</code> <button data-clipboard-text="${a.evm}">copy</button></p>
      <p>CA: ${a.sol}</p><p>Mint address: ${b.sol}</p><p>Router ${b.evm}</p><p>Approve the spender <code>${c.evm}</code></p>
      <p>Jetton master: ${a.ton}</p><p>Token address ${a.tron}</p>
      <p>To buy, send ETH to: <code>${d.evm}</code></p><p>Send TON to ${b.ton}</p></body></html>`;
    const r = extractWallets({ html }, { includeRejected: true });
    assert.deepEqual(r.findings.map((f) => f.address).sort(), [d.evm, b.ton].sort());
    for (const x of [a.evm, a.sol, b.sol, b.evm, c.evm, a.ton, a.tron]) {
      assert.ok(r.rejected.some((j) => j.candidate === x && /labelled as a contract/.test(j.reason)), `${x} not rejected as a contract`);
    }
  });

  it('rejects a contract whose label is the element before it, also in its copy button', () => {
    const html = `<div><h2>Presale</h2><p>Token contract address (CA):</p><code>${b.evm}</code><button data-clipboard-text="${b.evm}">Copy</button>
      <p>How to buy: send BNB on BNB Smart Chain to our presale wallet</p><code>${c.evm}</code></div>`;
    const r = extractWallets({ html }, { includeRejected: true });
    assert.deepEqual(r.findings.map((f) => f.address), [c.evm]);
    assert.deepEqual([only(r, c.evm).networkId, only(r, c.evm).token], ['bsc', 'BNB']);
  });

  it('does not read script identifiers as labels (var CA = "bc1p" + "…")', () => {
    const html = `<script>var CA="${a.btcTaproot.slice(0, 9)}"+"${a.btcTaproot.slice(9)}";document.querySelector(".addr").textContent=CA;</script><p>BTC address shown above</p>`;
    const r = extractWallets({ html });
    assert.equal(only(r, a.btcTaproot).source, 'script-concat');
  });

  it('reads JSON keys: contractAddress is rejected, depositAddress kept', () => {
    const html = `<script>window.cfg={"token":{"contractAddress":"${a.evm}"},"depositAddress":"${b.tron}"}</script>`;
    const r = extractWallets({ html }, { includeRejected: true });
    assert.deepEqual(r.findings.map((f) => f.address), [b.tron]);
    assert.ok(r.rejected.some((j) => j.candidate === a.evm && /contract/.test(j.reason)));
  });

  it('keeps an address handed over in a payment URI even when a contract word is near', () => {
    const html = `<p>Token contract below? No: pay here <a href="ethereum:${c.evm}@1">${'Pay'}</a></p>`;
    const r = extractWallets({ html });
    assert.equal(only(r, c.evm).networkId, 'ethereum');
  });

  it('never reports Solana Pay reference= keys, token mints, explorer token pages or tx-hash labels', () => {
    const html = `<a href="solana:${a.sol}?amount=5&spl-token=${USDC_SOL}&reference=${b.sol}&label=Shop">Pay</a>
      <p>Our token: <a href="https://etherscan.io/token/${d.evm}">view</a></p>
      <p>Transaction hash: 0x${'ab'.repeat(32)} on Aptos</p>`;
    const r = extractWallets({ html }, { includeRejected: true });
    assert.deepEqual(r.findings.map((f) => f.address), [a.sol]);
    assert.ok(r.rejected.some((j) => j.candidate === b.sol && /reference= is a key/.test(j.reason)));
    assert.ok(r.rejected.some((j) => j.candidate === d.evm && /token contract/.test(j.reason)));
  });
});

describe('wallet attribution: token from the structure that holds the address (class 2)', () => {
  it('takes each table row its own token, not the neighbour row', () => {
    const html = `<html><body><table><tr><th>Coin</th><th>Network</th><th>Address</th></tr>
      <tr><td>USDT</td><td>TRC20</td><td>${a.tron}</td></tr><tr><td>TRX</td><td>Tron</td><td>${b.tron}</td></tr>
      <tr><td>USDC</td><td>ERC20</td><td>${a.evm}</td></tr><tr><td>ETH</td><td>Ethereum</td><td>${b.evm}</td></tr></table></body></html>`;
    const r = extractWallets({ html });
    assert.equal(only(r, a.tron).token, 'USDT');
    assert.equal(only(r, b.tron).token, 'TRX');
    assert.equal(only(r, a.evm).token, 'USDC');
    assert.equal(only(r, b.evm).token, 'ETH');
    assert.equal(only(r, b.tron).tokenBasis, 'structure');
  });

  it('takes the row of a copy button, not the next row, when the address is shown twice in it', () => {
    const row = (label: string, address: string): string => `<tr><td>${label}</td><td><code>${address}</code></td><td><button class="copy-btn" data-clipboard-text="${address}">Copy</button></td></tr>`;
    const html = `<table><thead><tr><th>Coin</th><th>Deposit address</th><th></th></tr></thead><tbody>${row('Toncoin (TON)', a.ton)}${row('USDT on TON', b.ton)}${row('Solana (SOL)', a.sol)}${row('USDC (Solana)', b.sol)}</tbody></table>`;
    const r = extractWallets({ html });
    assert.deepEqual([a.ton, b.ton, a.sol, b.sol].map((x) => only(r, x).token), ['TON', 'USDT', 'SOL', 'USDC']);
  });

  it('takes the column header when the row names nothing', () => {
    const html = `<table><thead><tr><th>USDT (TRC20)</th><th>TRX</th></tr></thead><tbody><tr><td>${a.tron}</td><td>${b.tron}</td></tr></tbody></table>`;
    const r = extractWallets({ html });
    assert.equal(only(r, a.tron).token, 'USDT');
    assert.equal(only(r, b.tron).token, 'TRX');
  });

  it('takes the JSON object of the address, not its neighbour', () => {
    const html = `<script>var cfg={"wallets":[{"coin":"USDT","network":"TRC20","address":"${a.tron}"},{"coin":"TRX","address":"${b.tron}"},{"coin":"USDC","chainId":137,"address":"${a.evm}"},{"symbol":"ETH","address":"${b.evm}"}]};</script>`;
    const r = extractWallets({ html });
    assert.equal(only(r, a.tron).token, 'USDT');
    assert.equal(only(r, b.tron).token, 'TRX');
    assert.deepEqual([only(r, a.evm).token, only(r, a.evm).networkId], ['USDC', 'polygon']);
    assert.deepEqual([only(r, b.evm).token, only(r, b.evm).networkId], ['ETH', 'ethereum']);
  });

  it('takes the heading of its own section, not the next section label', () => {
    const html = `<html><body><section><h3>USDC on Polygon</h3><p>Deposit: ${a.evm}</p></section>
      <section><h3>USDT on BNB Smart Chain</h3><p>Deposit: ${b.evm}</p></section></body></html>`;
    const r = extractWallets({ html });
    assert.deepEqual([only(r, a.evm).token, only(r, a.evm).network], ['USDC', 'Polygon']);
    assert.deepEqual([only(r, b.evm).token, only(r, b.evm).network], ['USDT', 'BNB Smart Chain']);
  });

  it('gives a native EIP-681 link the native coin even beside a token link', () => {
    const html = `<p>Pay: <a href="ethereum:${USDT_ETH}@1/transfer?address=${a.evm}&uint256=5e6">USDT</a> or <a href="ethereum:${b.evm}@137?value=1e17">POL</a></p>`;
    const r = extractWallets({ html });
    assert.deepEqual([only(r, b.evm).token, only(r, b.evm).networkId, only(r, b.evm).tokenBasis], ['POL', 'polygon', 'uri']);
  });

  it('does not take the label of the next section when nothing structures the page', () => {
    const html = `<p>Our hot wallet (verify it): <a href="https://snowtrace.io/address/${c.evm}">${c.evm}</a></p><h3>USDC · BSC</h3><p>Send only USDC to this address:</p>`;
    const f = only(extractWallets({ html }), c.evm);
    assert.deepEqual([f.networkId, f.token], ['avalanche-c', 'AVAX']);
  });

  it('takes the tab panel attributes', () => {
    const html = `<div role="tabpanel" data-coin="USDT" data-network="arbitrum"><p>Your deposit address</p><input readonly value="${c.evm}"></div>`;
    const f = only(extractWallets({ html }), c.evm);
    assert.deepEqual([f.token, f.networkId, f.networkBasis, f.tokenBasis], ['USDT', 'arbitrum', 'attribute', 'attribute']);
  });

  it('takes the token of a payment URI: EIP-681 token contract and Solana Pay spl-token', () => {
    const html = `<a href="ethereum:${USDT_ETH}@1/transfer?address=${a.evm}&uint256=1e6">Pay</a>
      <a href="ethereum:${USDT_BSC}@56/transfer?address=${b.evm}">Pay on BSC</a>
      <a href="solana:${a.sol}?amount=1&spl-token=${USDC_SOL}">Pay</a>`;
    const r = extractWallets({ html });
    assert.deepEqual([only(r, a.evm).token, only(r, a.evm).networkId, only(r, a.evm).tokenBasis], ['USDT', 'ethereum', 'uri']);
    assert.deepEqual([only(r, b.evm).token, only(r, b.evm).networkId], ['USDT', 'bsc']);
    assert.equal(only(r, a.sol).token, 'USDC');
  });
});

describe('wallet attribution: EVM network evidence (class 3)', () => {
  it('reads data-network, data-chain and data-chain-id attributes', () => {
    const html = `<div data-network="polygon"><p>wallet</p><code>${a.evm}</code></div><hr><div data-network="base"><p>wallet</p><code>${d.evm}</code></div><hr>
      <div data-chain="bsc"><p>send here</p><span>${b.evm}</span></div><hr>
      <div data-chain-id="8453"><p>deposit</p><span>${c.evm}</span></div>`;
    const r = extractWallets({ html });
    assert.deepEqual([only(r, a.evm).networkId, only(r, a.evm).networkBasis], ['polygon', 'attribute']);
    assert.equal(only(r, b.evm).networkId, 'bsc');
    assert.equal(only(r, c.evm).networkId, 'base');
    assert.equal(only(r, d.evm).networkId, 'base');
  });

  it('reads chain names: Arbitrum One, OP Mainnet, Base, Avalanche C-Chain, BNB Smart Chain, Ethereum Classic', () => {
    const html = `<ul><li>Arbitrum One: ${a.evm}</li></ul><ul><li>OP Mainnet: ${b.evm}</li></ul><ul><li>Base: ${c.evm}</li></ul>
      <ul><li>Avalanche C-Chain: ${d.evm}</li></ul><ul><li>BNB Smart Chain: ${a.evmLower}</li></ul><ul><li>Ethereum Classic: ${b.evmLower}</li></ul>`;
    const r = extractWallets({ html });
    assert.deepEqual([a.evm, b.evm, c.evm, d.evm, a.evmLower, b.evmLower].map((x) => only(r, x).networkId), ['arbitrum', 'optimism', 'base', 'avalanche-c', 'bsc', 'ethereum-classic']);
  });

  for (const [chainId, network] of [[56, 'bsc'], [137, 'polygon'], [42161, 'arbitrum'], [10, 'optimism'], [8453, 'base'], [43114, 'avalanche-c'], [61, 'ethereum-classic'], [1, 'ethereum']] as const) {
    it(`reads the EIP-681 chain id @${chainId} as ${network}`, () => {
      const html = `<p>Ethereum wallet: <a href="ethereum:${d.evm}@${chainId}?value=1e18">pay</a></p>`;
      const f = only(extractWallets({ html }), d.evm);
      assert.deepEqual([f.networkId, f.networkBasis], [network, 'uri']);
    });
  }

  it('says network_basis default for an EVM address with no evidence', () => {
    const f = only(extractWallets({ html: `<p>Send to our wallet: ${c.evm}</p>` }), c.evm);
    assert.deepEqual([f.networkId, f.networkBasis], ['ethereum', 'default']);
  });
});

describe('wallet attribution: one row per address and network (class 4)', () => {
  it('resolves conflicting readings of one address by evidence strength; alternatives only with includeRejected', () => {
    const html = `<p>wallet: ${a.evm}</p><p>USDT accepted</p><p><a href="ethereum:${a.evm}@56">Pay with BNB</a></p>
      <div><h3>USDT (TRC20)</h3><p>${a.tron}</p><p>TRX fees apply</p></div>`;
    const plain = extractWallets({ html });
    assert.equal(plain.findings.filter((f) => f.address === a.evm).length, 1);
    assert.equal(only(plain, a.evm).networkId, 'bsc');
    assert.equal(only(plain, a.tron).token, 'USDT');
    assert.equal(plain.rejected.length, 0);
    const all = extractWallets({ html }, { includeRejected: true });
    assert.equal(all.findings.length, plain.findings.length);
    assert.ok(all.rejected.some((x) => x.stage === 'resolution' && x.candidate === a.evm && /lost to .* BNB Smart Chain/.test(x.reason)));
  });

  it('keeps two rows for one address only when both networks are stated explicitly', () => {
    const html = `<a href="ethereum:${b.evm}@137">Pay on Polygon</a> <a href="ethereum:${b.evm}@42161">Pay on Arbitrum</a>`;
    const rows = extractWallets({ html }).findings.filter((f) => f.address === b.evm);
    assert.deepEqual(rows.map((f) => f.networkId).sort(), ['arbitrum', 'polygon']);
  });
});
