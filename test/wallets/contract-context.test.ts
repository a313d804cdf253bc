// Contracts are not wallets, read from the structure around an address (wallet engine v3):
// contract labels in the funnel agent's languages, only on networks with contracts and only for the
// address they label; contract lists (tables, Markdown tables, sections); program and token entries
// in code; Solidity file names; explorer links to a contract's code; testnet explorers.
import assert from 'node:assert/strict';
import { extractWallets } from '../../domain/wallets/extract-wallets';
import type { ExtractionResult } from '../../domain/wallets/wallet-types';
import { makeAddresses } from '../support/wallet-address-factory';

const a = makeAddresses(3101);
const b = makeAddresses(3102);
const c = makeAddresses(3103);

const found = (r: ExtractionResult): string[] => r.findings.map((f) => f.address).sort();
function rejectedAs(r: ExtractionResult, address: string, re: RegExp): void {
  const rows = r.rejected.filter((j) => j.candidate === address);
  assert.ok(rows.some((j) => re.test(j.reason)), `${address} not rejected as ${re}: ${JSON.stringify(rows.map((j) => j.reason))}`);
}

describe('wallet contracts v3: a contract label labels only the address it belongs to', () => {
  it('keeps a Bitcoin address followed by a sentence that starts with "Contract" (the iframe report)', () => {
    const html = `<iframe srcdoc="x"></iframe><div class="pay"><p>Send BTC to ${a.btcSegwit}. Contract activates after 1 confirmation.</p></div>`;
    const r = extractWallets({ html }, { includeRejected: true });
    assert.deepEqual(found(r), [a.btcSegwit]);
  });

  it('never applies a contract label to a network without contracts, but does to an EVM address', () => {
    const html = `<p>Contract: ${a.btcTaproot}</p><p>Contract: ${a.ltc}</p><p>Contract: ${a.evm}</p>`;
    const r = extractWallets({ html }, { includeRejected: true });
    assert.deepEqual(found(r), [a.btcTaproot, a.ltc].sort());
    rejectedAs(r, a.evm, /labelled as a contract/);
  });

  it('does not read the next sentence as the label of an EVM address, but reads its own', () => {
    const html = `<p>Send ETH (ERC20) to ${b.evm}. Contract deployment fees are covered by us.</p><p>Presale ${c.evm} (token contract)</p>`;
    const r = extractWallets({ html }, { includeRejected: true });
    assert.deepEqual(found(r), [b.evm]);
    rejectedAs(r, c.evm, /labelled as a contract/);
  });

  it('reads contract labels in Chinese, Russian, Spanish, Portuguese, Vietnamese, Indonesian, Turkish, Arabic and Thai', () => {
    const labels = ['合约地址：', '合約地址:', 'Адрес контракта:', 'Dirección del contrato:', 'Endereço do contrato:', 'Địa chỉ hợp đồng:', 'Alamat kontrak:', 'Sözleşme adresi:', 'عنوان العقد:', 'ที่อยู่สัญญา:'];
    const pool = [a, b, c, makeAddresses(3104), makeAddresses(3105), makeAddresses(3106), makeAddresses(3107), makeAddresses(3108), makeAddresses(3109), makeAddresses(3110)];
    const html = labels.map((l, i) => `<p>${l} ${i % 2 ? pool[i].tron : pool[i].evm}</p>`).join('\n');
    const r = extractWallets({ html }, { includeRejected: true });
    assert.deepEqual(found(r), []);
    labels.forEach((l, i) => rejectedAs(r, i % 2 ? pool[i].tron : pool[i].evm, /labelled as a contract/));
  });

  it('keeps wallets labelled in those languages (кошелёк, สัญญาณ is "signal", not "contract")', () => {
    const html = `<p>Адрес кошелька для оплаты USDT TRC20: ${a.tron}</p><p>สัญญาณ USDT TRC20: ${b.tron}</p>`;
    const r = extractWallets({ html }, { includeRejected: true });
    assert.deepEqual(found(r), [a.tron, b.tron].sort());
  });
});

describe('wallet contracts v3: contract lists', () => {
  it('rejects the rows of an HTML table whose column is headed Contract, keeps a donation table', () => {
    const html = `<table><tr><th>Token</th><th>Contract</th></tr><tr><td>USDT</td><td>${a.evm}</td></tr><tr><td>WBTC</td><td>${b.evm}</td></tr></table>
      <h2>Donate</h2><table><tr><th>Coin</th><th>Network</th><th>Address</th></tr><tr><td>USDT</td><td>TRC20</td><td>${c.tron}</td></tr></table>`;
    const r = extractWallets({ html }, { includeRejected: true });
    assert.deepEqual(found(r), [c.tron]);
    rejectedAs(r, a.evm, /contract list \(column "Contract"\)/);
    rejectedAs(r, b.evm, /contract list/);
  });

  it('rejects a Markdown token table ("Ethereum Address" beside Symbol) and keeps a Markdown donation table', () => {
    const text = `# Tokens\n\n| Symbol | Name | Ethereum Address |\n|---|---|---|\n| AAA | Alpha | ${a.evm} |\n| BBB | Beta | ${b.evm} |\n\n` +
      `# Support us\n\n| Coin | Address |\n|:--|:--|\n| ETH | ${c.evm} |\n| BTC | ${c.btcSegwit} |\n`;
    const r = extractWallets({ text }, { includeRejected: true });
    assert.deepEqual(found(r), [c.evm, c.btcSegwit].sort());
    rejectedAs(r, a.evm, /column "Ethereum Address"/);
    rejectedAs(r, b.evm, /contract list/);
  });

  it('rejects the entries of a section headed "Deployed contracts", not those of a donation section', () => {
    const text = `## Deployed contracts\n\n- Staking: ${a.evm}\n- Vault: ${b.evm}\n\n## Donations\n\n- ETH: ${c.evm}\n`;
    const r = extractWallets({ text }, { includeRejected: true });
    assert.deepEqual(found(r), [c.evm]);
    rejectedAs(r, a.evm, /section "Deployed contracts"/);
  });

  it('rejects addresses beside a Solidity file name', () => {
    const text = `| Vault.sol | ${a.evm} |\nToken.sol deployed at ${b.evm}\nDonate ETH: ${c.evm}\n`;
    const r = extractWallets({ text }, { includeRejected: true });
    assert.deepEqual(found(r), [c.evm]);
    rejectedAs(r, a.evm, /Vault\.sol/);
    rejectedAs(r, b.evm, /Token\.sol/);
  });
});

describe('wallet contracts v3: program and token entries in code', () => {
  it('rejects {address, name, type: "Defi"} program ids and token-list entries, keeps a wallet key', () => {
    const html = `<script>const PROGRAMS = [{ address: "${a.sol}", name: "Jupiter V6", type: "Defi", chain: "solana" }, { address: "${b.sol}", name: "Raydium", type: "AMM", chain: "solana" }];
      const TOKENS = [{"chainId":1,"address":"${a.evm}","name":"Alpha","symbol":"AAA","decimals":18}];
      const cfg = { name: "Donations", type: "Defi", wallet: "${c.tron}" };</script><p>USDT TRC20 accepted</p>`;
    const r = extractWallets({ html }, { includeRejected: true });
    assert.deepEqual(found(r), [c.tron]);
    rejectedAs(r, a.sol, /program or protocol entry \(Defi\)/);
    rejectedAs(r, b.sol, /program or protocol entry \(AMM\)/);
    rejectedAs(r, a.evm, /token-list entry/);
  });
});

describe('wallet contracts v3: explorer links', () => {
  it("rejects addresses linked to their contract's code (#code), in HTML and Markdown", () => {
    const html = `<p>Verified: <a href="https://etherscan.io/address/${a.evm}#code">${a.evm}</a></p>
      <p>Donate ETH: <a href="https://etherscan.io/address/${c.evm}">${c.evm}</a></p>`;
    const r = extractWallets({ html }, { includeRejected: true });
    assert.deepEqual(found(r), [c.evm]);
    rejectedAs(r, a.evm, /contract's code/);
    const text = `Staking: [${b.evm}](https://bscscan.com/address/${b.evm}#code)\nDonate: ${c.evm} (ETH)\n`;
    const t = extractWallets({ text }, { includeRejected: true });
    assert.deepEqual(found(t), [c.evm]);
    rejectedAs(t, b.evm, /contract's code/);
  });

  it('rejects addresses linked to testnet explorers (Sepolia, Solana devnet)', () => {
    const html = `<p>Test wallet: <a href="https://sepolia.etherscan.io/address/${a.evm}">${a.evm}</a></p>
      <p>Faucet: <a href="https://explorer.solana.com/address/${a.sol}?cluster=devnet">${a.sol}</a></p>
      <p>Mainnet wallet: <a href="https://etherscan.io/address/${b.evm}">${b.evm}</a></p>`;
    const r = extractWallets({ html }, { includeRejected: true });
    assert.deepEqual(found(r), [b.evm]);
    rejectedAs(r, a.evm, /testnet explorer/);
    rejectedAs(r, a.sol, /testnet explorer/);
  });
});

describe('wallet contracts v3: token maps, Solana key constants and payment URIs from the real-document corpus', () => {
  it('drops token entries that carry decimals or a name and symbol, but keeps a deposit entry that names its network', () => {
    const text = `const tokens = {
  USDT: { name: 'Tether', symbol: 'USDT', address: '${a.evm}' },
  X0: { address: "${b.evm}", decimals: 18 },
};
const deposit = [{ name: 'Tether', symbol: 'USDT', network: 'TRC20', address: '${c.tron}' }];`;
    const r = extractWallets({ text }, { includeRejected: true });
    rejectedAs(r, a.evm, /token-list entry \(symbol and name\)/);
    rejectedAs(r, b.evm, /token-list entry \(decimals\)/);
    assert.deepEqual(found(r), [c.tron]);
  });

  it('reads the name of a `new PublicKey(…)` constant as its label: program and swap ids are dropped, a receiver is kept', () => {
    const text = `export const programId = new PublicKey('${a.sol}');
export const RAYDIUM_V5_SWAP_ID = new PublicKey(
  '${b.sol}'
)
export const RECEIVER_WALLET = new PublicKey('${c.sol}');`;
    const r = extractWallets({ text }, { includeRejected: true });
    assert.ok(!found(r).includes(a.sol) && !found(r).includes(b.sol), JSON.stringify(found(r)));
    assert.deepEqual(found(r), [c.sol]);
  });

  it('reads a legacy address in a bitcoincash: payment URI as Bitcoin Cash', () => {
    const r = extractWallets({ html: `<a href="bitcoincash:${a.btcP2pkh}">bitcoincash:${a.btcP2pkh}</a>` });
    assert.deepEqual(r.findings.map((f) => [f.address, f.networkId, f.token]), [[a.btcP2pkh, 'bitcoin-cash', 'BCH']]);
  });
});
