// A corpus of real public documents for the wallet engine (beside the generated scam pages of
// scam-page-generator.ts): donation pages, a ransom note, scam reports, token lists, contract and
// program-id lists and specification test vectors found in public GitHub repositories. Each entry keeps the structure of its source (headings, tables, code fences, keys,
// links) and its addresses exactly as published; the prose around them is rewritten and shortened,
// not copied. `wallets` is the ground truth (with every token the label names), `contracts` the
// addresses that must never be reported. The accuracy bench (bench/wallet-accuracy.ts) and
// test/wallets/real-corpus.test.ts score the engine on it.
import type { NetworkId } from '../../domain/wallets/wallet-types';

/**
 * donation (donation and tip-jar pages), treasury (accounts an operator publishes), ransom (ransom
 * notes), scam-report (threads and write-ups listing a scam's wallets), token-list (token tables
 * and code objects), contract-list (deployed contracts), program-ids (Solana programs), spec-vectors
 * (specification and library test vectors). Precision on the first four is what investigations of
 * scam pages depend on most.
 */
export type RealDocClass = 'donation' | 'treasury' | 'ransom' | 'scam-report' | 'token-list' | 'contract-list' | 'program-ids' | 'spec-vectors';

export interface RealDoc {
  id: string;
  /** Repository and path the structure and addresses come from. */
  source: string;
  class: RealDocClass;
  html?: string;
  text?: string;
  wallets: Array<{ address: string; network: NetworkId; tokens: string[] }>;
  contracts: string[];
}

export const REAL_CORPUS: readonly RealDoc[] = [
  {
    id: 'sidebery-donate',
    source: 'github.com/mikan-megane/sidebery DONATE.md',
    class: 'donation',
    text: `# Donate

Donations keep the project going and help me look at bug reports sooner. Coins can be bought on any exchange.

## Payeer

\`\`\`
P1128042154
\`\`\`

## Bitcoin (BTC)

\`\`\`
bc1q2drx3x5pfl0c68urwztvjrwgksg9u3l7mn4g4m
\`\`\`

---

## Ethereum (ETH), USDT (ERC20), USDC (ERC20)

\`\`\`
0x11667D20AB328194AEEc68F9385CCcf713607929
\`\`\`

---

## Tron (TRX), USDT (TRC20), USDC (TRC20)

\`\`\`
TJEdp1TnsN7Jfhfi9Db8yXKDK8NEUovCZb
\`\`\`

---

## Litecoin (LTC)

\`\`\`
ltc1qpv4c4kaahdzhcwzj8yyrwlvnfcw2hw5qpxqr62
\`\`\`

---

## Solana (SOL)

\`\`\`
GdWipUmnhdDa7kqkF3SJm5jTYqp3UsTdbcGCC1xLbVJf
\`\`\`
`,
    wallets: [
      { address: 'bc1q2drx3x5pfl0c68urwztvjrwgksg9u3l7mn4g4m', network: 'bitcoin', tokens: ['BTC'] },
      { address: '0x11667D20AB328194AEEc68F9385CCcf713607929', network: 'ethereum', tokens: ['ETH', 'USDT', 'USDC'] },
      { address: 'TJEdp1TnsN7Jfhfi9Db8yXKDK8NEUovCZb', network: 'tron', tokens: ['TRX', 'USDT', 'USDC'] },
      { address: 'ltc1qpv4c4kaahdzhcwzj8yyrwlvnfcw2hw5qpxqr62', network: 'litecoin', tokens: ['LTC'] },
      { address: 'GdWipUmnhdDa7kqkF3SJm5jTYqp3UsTdbcGCC1xLbVJf', network: 'solana', tokens: ['SOL'] },
    ],
    contracts: [],
  },
  {
    id: 'personal-site-donate',
    source: 'github.com/Ferryistaken/website donate.md',
    class: 'donation',
    text: `# Ways to donate

# Cryptocurrencies
## Bitcoin
Wallet Address: **32cta3D1Zy3Umj7ubCrRbawK5nYmmCHQBh**<br>
![btc qr code](/assets/img/btc-qr.png)

## Bitcoin Cash
Wallet Address: **qzm3au6nx5p9m5tta0ck4xxug70jzfhtculaj96r7h**<br>
![bch qr code](/assets/img/bch-qr.png)

## Ethereum
Wallet Address: **0xac162af18bCAa944A98d2e83427448490a9D5fA0**<br>
![eth qr code](/assets/img/eth-qr.png)

## USD Coin
Wallet Address: **0xA511E98eD756BDd5B61D544a810AE619a8D01129**<br>
![usdc qr code](/assets/img/usdc-qr.png)

# Traditional Payments
Not available yet.
`,
    wallets: [
      { address: '32cta3D1Zy3Umj7ubCrRbawK5nYmmCHQBh', network: 'bitcoin', tokens: ['BTC'] },
      { address: 'qzm3au6nx5p9m5tta0ck4xxug70jzfhtculaj96r7h', network: 'bitcoin-cash', tokens: ['BCH'] },
      { address: '0xac162af18bCAa944A98d2e83427448490a9D5fA0', network: 'ethereum', tokens: ['ETH'] },
      { address: '0xA511E98eD756BDd5B61D544a810AE619a8D01129', network: 'ethereum', tokens: ['USDC'] },
    ],
    contracts: [],
  },
  {
    id: 'book-support',
    source: 'github.com/SeyyedKhandon/coach support.md',
    class: 'donation',
    text: `# Support this work

Writing the book took years; donations pay for the time the next parts need.

## Funding support:

- Bitcoin(btc): \`bc1q46yjwqmfr24jcuyhpn4ytw43jg574vrgas0nms\`

>  <img src="assets/btc-donate.jpg" width="150"  alt="Bitcoin donation address"/>

- Tron(trx): \`TXmrBDhHkajqAiPsbYCn9xFdeg5XAfK61x\`

- Dogecoin(DOGE): \`DSDkF73VLBdmjfwunHsJRMPzU2tcXXbsjN\`

- Monero(xmr): \`45fK4VrJgq9RK5vNYhpbzL5HgSDAun2Hp7ixdnEp3dtAEKLjmMn897QZh4ci94BpLuawBLp611aXnSs456LhXDV369kBskD\`

- Cardano(ADA): \`addr1q8sa8m709v47285krx52uk58qf5gezn5d6amxg85gh45cancfwpzzst964gxzml6qjt939xy8n7urjqj39ryurgrzypsfhlcf7\`

- Toncoin(TON): \`UQAKrYoppMs_ooWKKGHoadmBvqg5Bt1lBRAt-k9d0v2dN_Hp\`

- Tether(USDT on TRC20): \`TXmrBDhHkajqAiPsbYCn9xFdeg5XAfK61x\`

- Solana(SOL): \`FSExYexecD77DNqNFbf1mRop9L7Hss7hYPcNwhQyVMVZ\`
`,
    wallets: [
      { address: 'bc1q46yjwqmfr24jcuyhpn4ytw43jg574vrgas0nms', network: 'bitcoin', tokens: ['BTC'] },
      { address: 'TXmrBDhHkajqAiPsbYCn9xFdeg5XAfK61x', network: 'tron', tokens: ['TRX', 'USDT'] },
      { address: 'DSDkF73VLBdmjfwunHsJRMPzU2tcXXbsjN', network: 'dogecoin', tokens: ['DOGE'] },
      { address: '45fK4VrJgq9RK5vNYhpbzL5HgSDAun2Hp7ixdnEp3dtAEKLjmMn897QZh4ci94BpLuawBLp611aXnSs456LhXDV369kBskD', network: 'monero', tokens: ['XMR'] },
      { address: 'addr1q8sa8m709v47285krx52uk58qf5gezn5d6amxg85gh45cancfwpzzst964gxzml6qjt939xy8n7urjqj39ryurgrzypsfhlcf7', network: 'cardano', tokens: ['ADA'] },
      { address: 'UQAKrYoppMs_ooWKKGHoadmBvqg5Bt1lBRAt-k9d0v2dN_Hp', network: 'ton', tokens: ['TON'] },
      { address: 'FSExYexecD77DNqNFbf1mRop9L7Hss7hYPcNwhQyVMVZ', network: 'solana', tokens: ['SOL'] },
    ],
    contracts: [],
  },
  {
    id: 'protocol-contract-table',
    source: 'github.com/opynfinance/Opyn-GitBooks-Docs abis-smart-contract-addresses.md',
    class: 'contract-list',
    html: `<h1>ABIs / Smart Contract Addresses</h1><h3>Mainnet</h3>
<table><thead><tr><th>Contract</th><th>JSON</th><th>Solidity Interface</th><th>Address</th></tr></thead><tbody>
<tr><td><a href="https://etherscan.io/address/0x2157a7894439191e520825fe9399ab8655e0f708#code">Uniswap Exchange</a></td>
<td><a href="http://api.etherscan.io/api?module=contract&amp;action=getabi&amp;address=0x2157a7894439191e520825fe9399ab8655e0f708&amp;format=raw">JSON</a></td>
<td><a href="https://docs.uniswap.io/smart-contract-integration/interface">Interface</a></td>
<td>(<a href="https://etherscan.io/address/0xc0a47dfe034b400b47bdad5fecda2621de6c4d95#readContract">getExchange from uniswap factory</a>)</td></tr>
<tr><td><a href="https://etherscan.io/address/0xc0a47dfe034b400b47bdad5fecda2621de6c4d95#code">Uniswap Factory</a></td>
<td><a href="http://api.etherscan.io/api?module=contract&amp;action=getabi&amp;address=0xc0a47dfe034b400b47bdad5fecda2621de6c4d95&amp;format=raw">JSON</a></td>
<td><a href="https://docs.uniswap.io/smart-contract-integration/interface">Interface</a></td>
<td><a href="https://etherscan.io/address/0xc0a47dfe034b400b47bdad5fecda2621de6c4d95#code">0xc0a47dFe034B400B47bDaD5FecDa2621de6c4d95</a></td></tr>
<tr><td><a href="https://etherscan.io/address/0x39246c4f3f6592c974ebc44f80ba6dc69b817c71">Options Exchange </a>(new)</td><td></td><td></td>
<td><a href="https://etherscan.io/address/0x39246c4f3f6592c974ebc44f80ba6dc69b817c71#code">0x39246c4F3F6592C974EBC44F80bA6dC69b817c71</a></td></tr>
</tbody></table>`,
    wallets: [],
    contracts: ['0x2157a7894439191e520825fe9399ab8655e0f708', '0xc0a47dFe034B400B47bDaD5FecDa2621de6c4d95', '0x39246c4F3F6592C974EBC44F80bA6dC69b817c71'],
  },
  {
    id: 'solana-program-table',
    source: 'github.com/nicolad/solana-programs-kit programs/README.md',
    class: 'program-ids',
    text: `# Solana Programs

Programs grouped by category, with their mainnet program ids.

## Core Solana Programs

| Program              | Program ID                                     | Directory                   | Purpose                        |
| -------------------- | ---------------------------------------------- | --------------------------- | ------------------------------ |
| **System**           | \`11111111111111111111111111111111\`             | \`system/\`                   | accounts, SOL transfers        |
| **Token Program**    | \`TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA\`  | \`token/\`                    | SPL tokens                     |
| **Token-2022**       | \`TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb\`  | \`token-2022/\`               | SPL tokens with extensions     |
| **Associated Token** | \`ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL\` | \`associated-token-account/\` | ATAs                           |
`,
    wallets: [],
    contracts: ['11111111111111111111111111111111', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb', 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL'],
  },
  {
    id: 'solana-dex-program-constants',
    source: 'github.com/wwb413/solanaj src/main/java/org/p2p/solanaj/parse/bean/Consts.java',
    class: 'program-ids',
    text: `package org.p2p.solanaj.parse.bean;

public class Consts {
    public static final String JUPITER_PROGRAM_ID = "JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4";
    public static final String PUMP_FUN_PROGRAM_ID = "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P";
    public static final String RAYDIUM_V4_PROGRAM_ID = "675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8";
    public static final String ORCA_PROGRAM_ID = "whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc";
    public static final String METEORA_PROGRAM_ID = "LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo";
}
`,
    wallets: [],
    contracts: ['JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4', '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P', '675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8', 'whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc', 'LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo'],
  },
  {
    id: 'jupiter-program-ids',
    source: 'github.com/PaulieB14/Jupiter-Dex-Substreams src/constants.rs',
    class: 'program-ids',
    text: `pub const TOKEN_PROGRAM_ID: &str = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";

pub const JUPITER_PROGRAM_IDS: [&str; 4] = [
    "JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4", // Jupiter v6
    "JUP4Fb2cqiRUcaTHdrPC8h2gNsA2ETXiPDD33WcGuJB", // Jupiter v4
    "jupoNjAxXgZ4rjzxzPMP4oxduvQsQtZzyknqvzYNrNu", // Jupiter Limit Orders
    "DCA265Vj8a9CEuX1eb1LWRnDT7uK6q1xMipnNyatn23M", // Jupiter DCA
];
`,
    wallets: [],
    contracts: ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4', 'JUP4Fb2cqiRUcaTHdrPC8h2gNsA2ETXiPDD33WcGuJB', 'jupoNjAxXgZ4rjzxzPMP4oxduvQsQtZzyknqvzYNrNu', 'DCA265Vj8a9CEuX1eb1LWRnDT7uK6q1xMipnNyatn23M'],
  },
  {
    id: 'donation-table-with-cosmos-chains',
    source: 'github.com/ivan-pinatti/ivan-pinatti docs/crypto/addresses.md',
    class: 'donation',
    text: `# Cryptocurrency Donation Addresses

Every address below is mine; contributions are welcome.

| Currency | Address | QR Code |
|----------|---------|---------|
| Bitcoin (BTC) | \`bc1qkhzlmw3htp37tkcxv9cf30ntsu2l3p7snsux9f\` | <img src="qr-codes/btc.png" width="200"> |
| Ethereum (ETH) | \`0x7F49CD4424a96bD8361502a3e9Fc3522193ffc7B\` | <img src="qr-codes/eth.png" width="200"> |
| Monero (XMR) | \`4755Zp3YqArMU23rwZvAjAaiV9UwvcJV3GBofeKhnHGg9pTEcsVHWUFJxtLC67NG82iHAwb6ykUEV67rz8QP2kDZFPsdd8k\` | <img src="qr-codes/xmr.png" width="200"> |
| XRP | \`r38HpJzC3N6MpsnSFqRVRb19zhM2ASPgsM\` | <img src="qr-codes/xrp.png" width="200"> |
| Cardano (ADA) | \`addr1qyx8n5jescfn239492h990utg73njd6j2lundv58v86hty9zxpfqcat5k77293n33ze8xjuunklf8cevxpqv6q0cayyq6jxfdy\` | <img src="qr-codes/ada.png" width="200"> |
| Cosmos (ATOM) | \`cosmos1ds263x8s5g2q7jdmquux89tfhdpr80p69qyg0k\` | <img src="qr-codes/atom.png" width="200"> |
| Bitcoin Cash (BCH) | \`qrsflsau2ntcxlsxahgg6mt27zc3wq5nlcgdatk8ey\` | <img src="qr-codes/bch.png" width="200"> |
| Dogecoin (DOGE) | \`DFdYCpBU7Tg8hjGM1uFmkdmZ858QgUivRm\` | <img src="qr-codes/doge.png" width="200"> |
| Kava (KAVA) | \`kava1efc9kw0lpsetcp7ftezfvmltert82u7lx5y0ad\` | <img src="qr-codes/kava.png" width="200"> |
| Litecoin (LTC) | \`MHERWJo2NNRE1WhYk7hhGXRSd3WZkmoCAa\` | <img src="qr-codes/ltc.png" width="200"> |
| Zcash (ZEC) | \`u1hgnc8xgqesnsfwr93ftk4983elagh654yf684m84gk2krjxnhtxgwk63m3eef2d0zn3ytc727c87xkkyg7kt60073c4vgp8873ddazqzm2fepluw5nj6khd7yet769fq8yg6wh3lwp7\` | <img src="qr-codes/zec.png" width="200"> |
`,
    wallets: [
      { address: 'bc1qkhzlmw3htp37tkcxv9cf30ntsu2l3p7snsux9f', network: 'bitcoin', tokens: ['BTC'] },
      { address: '0x7F49CD4424a96bD8361502a3e9Fc3522193ffc7B', network: 'ethereum', tokens: ['ETH'] },
      { address: '4755Zp3YqArMU23rwZvAjAaiV9UwvcJV3GBofeKhnHGg9pTEcsVHWUFJxtLC67NG82iHAwb6ykUEV67rz8QP2kDZFPsdd8k', network: 'monero', tokens: ['XMR'] },
      { address: 'r38HpJzC3N6MpsnSFqRVRb19zhM2ASPgsM', network: 'xrp', tokens: ['XRP'] },
      { address: 'addr1qyx8n5jescfn239492h990utg73njd6j2lundv58v86hty9zxpfqcat5k77293n33ze8xjuunklf8cevxpqv6q0cayyq6jxfdy', network: 'cardano', tokens: ['ADA'] },
      { address: 'cosmos1ds263x8s5g2q7jdmquux89tfhdpr80p69qyg0k', network: 'cosmos', tokens: ['ATOM'] },
      { address: 'qrsflsau2ntcxlsxahgg6mt27zc3wq5nlcgdatk8ey', network: 'bitcoin-cash', tokens: ['BCH'] },
      { address: 'DFdYCpBU7Tg8hjGM1uFmkdmZ858QgUivRm', network: 'dogecoin', tokens: ['DOGE'] },
      { address: 'kava1efc9kw0lpsetcp7ftezfvmltert82u7lx5y0ad', network: 'cosmos-kava', tokens: ['KAVA'] },
      { address: 'MHERWJo2NNRE1WhYk7hhGXRSd3WZkmoCAa', network: 'litecoin', tokens: ['LTC'] },
      { address: 'u1hgnc8xgqesnsfwr93ftk4983elagh654yf684m84gk2krjxnhtxgwk63m3eef2d0zn3ytc727c87xkkyg7kt60073c4vgp8873ddazqzm2fepluw5nj6khd7yet769fq8yg6wh3lwp7', network: 'zcash', tokens: ['ZEC'] },
    ],
    contracts: [],
  },
  {
    id: 'multilingual-donation-table',
    source: 'github.com/anripov/Esp32-S3-Wifi-attack DONATIONS.md',
    class: 'donation',
    text: `# Donations / Пожертвования

## English

If the project is useful to you, a donation in one of these coins helps it go on.

| Currency | Network | Address |
|----------|---------|---------|
| **USDT** | BEP20 (Binance Smart Chain) | \`0xbd46a5A177d8a12Dc870AFE051609407d1d3a2e8\` |
| **TRX** | TRON | \`TSCCFCAqBr7NwchBTyHrQNxeMo7XuxgyLS\` |
| **DOGE** | Dogecoin | \`D7qUTFZH3UsR5jgxo6BWN7uiUwZgW3jdLt\` |
| **BTC** | Bitcoin | \`bc1q2fpddpjkhu36sz6pg0lgukvkj3luuq2w7mf5vf\` |

## Русский

| Валюта | Сеть | Адрес |
|--------|------|-------|
| **USDT** | BEP20 (Binance Smart Chain) | \`0xbd46a5A177d8a12Dc870AFE051609407d1d3a2e8\` |
| **TRX** | TRON | \`TSCCFCAqBr7NwchBTyHrQNxeMo7XuxgyLS\` |
| **DOGE** | Dogecoin | \`D7qUTFZH3UsR5jgxo6BWN7uiUwZgW3jdLt\` |
| **BTC** | Bitcoin | \`bc1q2fpddpjkhu36sz6pg0lgukvkj3luuq2w7mf5vf\` |
`,
    wallets: [
      { address: '0xbd46a5A177d8a12Dc870AFE051609407d1d3a2e8', network: 'bsc', tokens: ['USDT'] },
      { address: 'TSCCFCAqBr7NwchBTyHrQNxeMo7XuxgyLS', network: 'tron', tokens: ['TRX'] },
      { address: 'D7qUTFZH3UsR5jgxo6BWN7uiUwZgW3jdLt', network: 'dogecoin', tokens: ['DOGE'] },
      { address: 'bc1q2fpddpjkhu36sz6pg0lgukvkj3luuq2w7mf5vf', network: 'bitcoin', tokens: ['BTC'] },
    ],
    contracts: [],
  },
  {
    id: 'copy-button-donation-page',
    source: 'github.com/VixKrell/donate README.md',
    class: 'donation',
    html: `<p>If my tools help you, you can support me below.</p>
<p><b>Bitcoin (BTC):</b></p>
<div style="display:flex"><button onclick="copy('btc', this)" title="Copy Address">📋</button><code id="btc">bc1qzthdgzhdjmqgan5n9c3dp5g3m24sqv30unzxjn</code></div>
<details><summary>Show Bitcoin QR Code</summary><img src="btc.png" width="250" alt="Bitcoin QR"></details>
<p><b>Ethereum (ETH):</b></p>
<div style="display:flex"><button onclick="copy('eth', this)" title="Copy Address">📋</button><code id="eth">0xda1c45125c3148bef77922225da5936d7777ca0e</code></div>
<details><summary>Show Ethereum QR Code</summary><img src="eth.png" width="250" alt="Ethereum QR"></details>
<p><b>XRP:</b> (Tag not required. If forced, use 0)</p>
<div style="display:flex"><button onclick="copy('xrp', this)" title="Copy Address">📋</button><code id="xrp">rN3KXnyiZvNFTUkY1Yry5xrx3nyNTMjPPo</code></div>`,
    wallets: [
      { address: 'bc1qzthdgzhdjmqgan5n9c3dp5g3m24sqv30unzxjn', network: 'bitcoin', tokens: ['BTC'] },
      { address: '0xda1c45125c3148bef77922225da5936d7777ca0e', network: 'ethereum', tokens: ['ETH'] },
      { address: 'rN3KXnyiZvNFTUkY1Yry5xrx3nyNTMjPPo', network: 'xrp', tokens: ['XRP'] },
    ],
    contracts: [],
  },
  {
    id: 'tip-jar-payment-uris',
    source: 'github.com/philthompson/blog gen/static/tip-jar/index.md',
    class: 'donation',
    html: `<p>Hosting costs money and the posts take time; tips are welcome. Ask if you want an address for another coin.</p>
<details open><summary>Bitcoin Cash (BCH)</summary><p>ONLY send BCH to this address.</p>
<img src="BCH-tips.png" title="BCH Tip Address" alt="BCH Tip Address bitcoincash:qqagtltdz83nsk59dqmvyy90sz6x073d9u5kmvwz8h"/>
<a href="bitcoincash:qqagtltdz83nsk59dqmvyy90sz6x073d9u5kmvwz8h">bitcoincash:qqagtltdz83nsk59dqmvyy90sz6x073d9u5kmvwz8h</a>
<a href="bitcoincash:16LShupuDz7CaBEVsCAtRQaEE3sYWg1NDo">bitcoincash:16LShupuDz7CaBEVsCAtRQaEE3sYWg1NDo</a></details>
<details><summary>Bitcoin (BTC)</summary><p>ONLY send BTC to this address.</p>
<img src="BTC-tips.png" title="BTC Tip Address" alt="BTC Tip Address bitcoin:1E1Kh1tX16p8sk2RmDZfNswxKmVq8bmhY1"/>
<a href="bitcoin:1E1Kh1tX16p8sk2RmDZfNswxKmVq8bmhY1">bitcoin:1E1Kh1tX16p8sk2RmDZfNswxKmVq8bmhY1</a></details>`,
    wallets: [
      { address: 'qqagtltdz83nsk59dqmvyy90sz6x073d9u5kmvwz8h', network: 'bitcoin-cash', tokens: ['BCH'] },
      { address: '16LShupuDz7CaBEVsCAtRQaEE3sYWg1NDo', network: 'bitcoin-cash', tokens: ['BCH'] },
      { address: '1E1Kh1tX16p8sk2RmDZfNswxKmVq8bmhY1', network: 'bitcoin', tokens: ['BTC'] },
    ],
    contracts: [],
  },
  {
    id: 'project-donate-with-nano',
    source: 'github.com/bartoffw/instabook DONATE.md',
    class: 'donation',
    text: `# Support This Project

Donations pay for maintenance and new features.

## Cryptocurrency Donations

### Bitcoin (BTC)

\`bc1qu6fkd3mmkphc433c4n3fl84rvtvsa3n08wdsks\`

### USDT (Tether) on Tron

\`TLpGdtvABsfdWDqUkcm2gD3erzngzXY8Lw\`

### Ethereum (ETH)

\`0xC4423123593807eBc855D97c35E9AC95eb03910b\`

### Nano (XNO)

\`nano_3a58f38rpjyy4ftaewza9ioh4b5qmnqehrantwx9ujo8h3payqesnsgzp13h\`

### Ripple (XRP)

\`rQGSe81UMGGJKMFbi3xjCyDb2CB3yoCVuR\`

### XMR

\`42ZRwy4yBP791zpWn6tw5wAdzNUWcw2V4iA78tyRA46WGLa2kkByjHiT1Cjtw2ME3RLPAjPkGgto6etEzkzyVBUwKNiqmuZ\`

## GitHub Sponsors

Sponsoring through GitHub works too.
`,
    wallets: [
      { address: 'bc1qu6fkd3mmkphc433c4n3fl84rvtvsa3n08wdsks', network: 'bitcoin', tokens: ['BTC'] },
      { address: 'TLpGdtvABsfdWDqUkcm2gD3erzngzXY8Lw', network: 'tron', tokens: ['USDT'] },
      { address: '0xC4423123593807eBc855D97c35E9AC95eb03910b', network: 'ethereum', tokens: ['ETH'] },
      { address: 'nano_3a58f38rpjyy4ftaewza9ioh4b5qmnqehrantwx9ujo8h3payqesnsgzp13h', network: 'nano', tokens: ['XNO'] },
      { address: 'rQGSe81UMGGJKMFbi3xjCyDb2CB3yoCVuR', network: 'xrp', tokens: ['XRP'] },
      { address: '42ZRwy4yBP791zpWn6tw5wAdzNUWcw2V4iA78tyRA46WGLa2kkByjHiT1Cjtw2ME3RLPAjPkGgto6etEzkzyVBUwKNiqmuZ', network: 'monero', tokens: ['XMR'] },
    ],
    contracts: [],
  },
  {
    id: 'relayer-and-validator-accounts',
    source: 'github.com/cosmostake/validator README.md',
    class: 'treasury',
    text: `## COSMØSTAKE: validators on several mainnets

### Validator Mainnet:

- [Osmosis](https://www.mintscan.io/osmosis/validators/osmovaloper183psjr4y05kwtpfew073q6hm84xdhp9tcn8ne7)
- [Juno](https://www.mintscan.io/juno/validators/junovaloper1fsa7hy2qgq8xnfpnendmch3v8035529g3cwcms)
- [Persistence](https://www.mintscan.io/persistence/validators/persistencevaloper1qz6xsskhyyd6mrqns2e3empull7el0gqp5dkru)
- [Stride](https://www.mintscan.io/stride/validators/stridevaloper1ykcp0qvdyvv78vkjsz6zx4hh90g9rxmhegjd3w)

### IBC-relayer:

- [Persistence channel-67](https://www.mintscan.io/persistence/account/persistence1quylzmjgq8crgh8fnqmj48jp8mxlzyhszyrkn9) <> [Stride channel-53](https://www.mintscan.io/stride/account/stride1z9vqynvye6dch4qpz404n9e2nma7v6a3pkww0e)
- [Persistence channel-37](https://www.mintscan.io/persistence/account/persistence1quylzmjgq8crgh8fnqmj48jp8mxlzyhszyrkn9) <> [Juno channel-33](https://www.mintscan.io/juno/account/juno1p9u4glx4sjcx863xxvj05n8zdrzzhd7h5s63kp)
- [Persistence channel-6](https://www.mintscan.io/persistence/account/persistence1quylzmjgq8crgh8fnqmj48jp8mxlzyhszyrkn9) <> [Osmosis channel-4](https://www.mintscan.io/osmosis/account/osmo16wtdntpcal8zldu0k3eltqn26pchd8csrtv7tk)
`,
    wallets: [
      { address: 'persistence1quylzmjgq8crgh8fnqmj48jp8mxlzyhszyrkn9', network: 'cosmos-persistence', tokens: ['XPRT'] },
      { address: 'stride1z9vqynvye6dch4qpz404n9e2nma7v6a3pkww0e', network: 'cosmos-stride', tokens: ['STRD'] },
      { address: 'juno1p9u4glx4sjcx863xxvj05n8zdrzzhd7h5s63kp', network: 'cosmos-juno', tokens: ['JUNO'] },
      { address: 'osmo16wtdntpcal8zldu0k3eltqn26pchd8csrtv7tk', network: 'osmosis', tokens: ['OSMO'] },
    ],
    contracts: ['osmovaloper183psjr4y05kwtpfew073q6hm84xdhp9tcn8ne7', 'junovaloper1fsa7hy2qgq8xnfpnendmch3v8035529g3cwcms', 'persistencevaloper1qz6xsskhyyd6mrqns2e3empull7el0gqp5dkru', 'stridevaloper1ykcp0qvdyvv78vkjsz6zx4hh90g9rxmhegjd3w'],
  },
  {
    id: 'ransom-note-monero',
    source: 'github.com/LodongDev/health-agent README.md (a ransom note left in a compromised repository)',
    class: 'ransom',
    text: `================================================================================
                        ENCRYPTION NOTICE
================================================================================

Your files have been encrypted by Sour-Pineapple Team.

================================================================================
                        DECRYPTION COST
================================================================================

Decryption Key Price: $1,000 USD (paid in Monero cryptocurrency)

================================================================================
                        PAYMENT INSTRUCTIONS
================================================================================

1. Purchase $1,000 USD worth of Monero (XMR) cryptocurrency on any exchange.

2. Send the EXACT amount to this Monero wallet:

   4AE46gCxzaEAp76MAqD4ibaEVFmGvgLsF111E5pGSrwf334a5KLoDtyeX8vJmkapqXjMd67bhUBu5Go25GdQrcqV5iziwiL

3. Email us the transaction ID (TXID).

4. Include your Victim ID in the email:

   VICTIM-ID: LODONG-2026-0102-SP

================================================================================

Victim ID: LODONG-2026-0102-SP
Payment: $1,000 USD in Monero (XMR)

Wallet: 4AE46gCxzaEAp76MAqD4ibaEVFmGvgLsF111E5pGSrwf334a5KLoDtyeX8vJmkapqXjMd67bhUBu5Go25GdQrcqV5iziwiL
`,
    wallets: [{ address: '4AE46gCxzaEAp76MAqD4ibaEVFmGvgLsF111E5pGSrwf334a5KLoDtyeX8vJmkapqXjMd67bhUBu5Go25GdQrcqV5iziwiL', network: 'monero', tokens: ['XMR'] }],
    contracts: [],
  },
  {
    id: 'scam-report-wallet-list',
    source: 'github.com/kdsmith10000/oxycapitalsltd_scam_site trucopy.md (list version)',
    class: 'scam-report',
    text: `# TruCopy Scam Investigation

## Scam Wallet Addresses
- bc1qkh2g6dz0s5am5tjwc9wjylyj9qdalgq3vwmgtf BTC ($25,031.80 stolen)
- 0x3fb847c3fb6e8bc02b18e7af663a1eaa06e42529 ETH ($5.01 stolen)
- Cgrr9RgazhDtigGSu3GAYDbCUV3b1KqPPmuhuUqaoxWJ SOL ($5,833.09 stolen)
- qpacqjaveqpe04rjeqwvhrvqv3hlf6zx7gecghke0s BCH (No transactions)
- THGF14Xbju5nj2PZBW4yzCyLZCSj7ftZhw TRC20 (No results)
- Lhice6C2VmNo9FwgGfjPo7spr9T7Yo9NwC LTC (no transactions yet)
- DE3BCqMmFNMs1VqGTcLCJVFPe2qCoPewij DOGE (no transactions yet)

## Cash-Out Destination Wallets
- SOL: 7Ab4npbSR7cTi1gKBW6EiUHco5L5HrsCVDRns8j2DiFQ (received $5,832 total)
- BTC #1: bc1qdqqsq6y7csd0cr3ye45h9lv8ydh777j2wehgl6 (received $20,656)
- BTC #2: bc1q3lum3k6q738f3ct76zg47gshz8rn8ggph6smk3 (received $4,382)
`,
    wallets: [
      { address: 'bc1qkh2g6dz0s5am5tjwc9wjylyj9qdalgq3vwmgtf', network: 'bitcoin', tokens: ['BTC'] },
      { address: '0x3fb847c3fb6e8bc02b18e7af663a1eaa06e42529', network: 'ethereum', tokens: ['ETH'] },
      { address: 'Cgrr9RgazhDtigGSu3GAYDbCUV3b1KqPPmuhuUqaoxWJ', network: 'solana', tokens: ['SOL'] },
      { address: 'qpacqjaveqpe04rjeqwvhrvqv3hlf6zx7gecghke0s', network: 'bitcoin-cash', tokens: ['BCH'] },
      { address: 'THGF14Xbju5nj2PZBW4yzCyLZCSj7ftZhw', network: 'tron', tokens: ['USDT', 'TRX'] },
      { address: 'Lhice6C2VmNo9FwgGfjPo7spr9T7Yo9NwC', network: 'litecoin', tokens: ['LTC'] },
      { address: 'DE3BCqMmFNMs1VqGTcLCJVFPe2qCoPewij', network: 'dogecoin', tokens: ['DOGE'] },
      { address: '7Ab4npbSR7cTi1gKBW6EiUHco5L5HrsCVDRns8j2DiFQ', network: 'solana', tokens: ['SOL'] },
      { address: 'bc1qdqqsq6y7csd0cr3ye45h9lv8ydh777j2wehgl6', network: 'bitcoin', tokens: ['BTC'] },
      { address: 'bc1q3lum3k6q738f3ct76zg47gshz8rn8ggph6smk3', network: 'bitcoin', tokens: ['BTC'] },
    ],
    contracts: [],
  },
  {
    id: 'scam-report-sections',
    source: 'github.com/kdsmith10000/oxycapitalsltd_scam_site trucopy.md (sections version)',
    class: 'scam-report',
    text: `# TruCopy Scam Investigation

**Website:** trucopy.org (SCAM - DO NOT USE)

## WARNING: SCAM WALLET ADDRESSES - DO NOT SEND FUNDS

### Tron TRC20 (USDT) - No transactions yet
\`\`\`
THGF14Xbju5nj2PZBW4yzCyLZCSj7ftZhw
\`\`\`

### Litecoin (LTC) - No transactions yet
\`\`\`
Lhice6C2VmNo9FwgGfjPo7spr9T7Yo9NwC
\`\`\`

## Exchange Hot Wallets (KYC Source Evidence)

### Kraken SOL Hot Wallet - sent $3,908.10 to scam
\`\`\`
FWznbcNXWQuHTawe9RxvQ2LdCENssh12dsznf4RiouN5
\`\`\`

### Coinbase SOL Hot Wallet - sent $1,924.99 to scam
\`\`\`
5g7yNHyGLJ7fiQ9SN9mf47opDnMjc585kqXWt6d7aBWs
\`\`\`

## Victim Source Wallets (For Identification/Testimony)

### BTC Victim Wallet - sent $25,028 total (2 deposits)
\`\`\`
bc1qsatlphjcgvzlt9xhsgn0dnjus5jgwg83dr05c6
\`\`\`

### ETH Swap Destination - received $2.51
\`\`\`
0x69460570c93f9de5e2edbc3052bf10125f0ca22d
\`\`\`
`,
    wallets: [
      { address: 'THGF14Xbju5nj2PZBW4yzCyLZCSj7ftZhw', network: 'tron', tokens: ['USDT'] },
      { address: 'Lhice6C2VmNo9FwgGfjPo7spr9T7Yo9NwC', network: 'litecoin', tokens: ['LTC'] },
      { address: 'FWznbcNXWQuHTawe9RxvQ2LdCENssh12dsznf4RiouN5', network: 'solana', tokens: ['SOL'] },
      { address: '5g7yNHyGLJ7fiQ9SN9mf47opDnMjc585kqXWt6d7aBWs', network: 'solana', tokens: ['SOL'] },
      { address: 'bc1qsatlphjcgvzlt9xhsgn0dnjus5jgwg83dr05c6', network: 'bitcoin', tokens: ['BTC'] },
      { address: '0x69460570c93f9de5e2edbc3052bf10125f0ca22d', network: 'ethereum', tokens: ['ETH'] },
    ],
    contracts: [],
  },
  {
    id: 'token-map-by-symbol',
    source: 'github.com/akashraj98/TokenList src/polygon.ts',
    class: 'token-list',
    text: `let polygon = {
    "USDT":{
        "name":"Tether",
        "symbol": "USDT",
        "address": "0xc2132d05d31c914a87c6611c10748aeb04b58e8f"
    },
    "WMATIC":{
        "name":"Wrapped Matic",
        "symbol": "WMATIC",
        "address": "0x0d500b1d8e8ef31e21c99d1db9a6444d3adf1270"
    },
    "SUSHI":{
        "name":"Sushi",
        "symbol": "SUSHI",
        "address": "0x0b3f868e0be5597d5db7feb59e1cadbb0fdda50a"
    },
    "BLOK":{
        "name":"Bloktopia",
        "symbol": "BLOK",
        "address": "0x229b1b6c23ff8953d663c4cbb519717e323a0a84"
    }
}

export{polygon}
`,
    wallets: [],
    contracts: ['0xc2132d05d31c914a87c6611c10748aeb04b58e8f', '0x0d500b1d8e8ef31e21c99d1db9a6444d3adf1270', '0x0b3f868e0be5597d5db7feb59e1cadbb0fdda50a', '0x229b1b6c23ff8953d663c4cbb519717e323a0a84'],
  },
  {
    id: 'token-object-top-list',
    source: 'github.com/BuildBearLabs/TokenList src/Mainnet/Polygon.ts',
    class: 'token-list',
    text: `/**
 * Top ERC-20 tokens on Polygon PoS (from polygonscan.com/tokens).
 */
const polygon = {
    USDT: {
        name: '(PoS) Tether USD ',
        symbol: 'USDT',
        address: '0xc2132d05d31c914a87c6611c10748aeb04b58e8f'
    },
    USDC: {
        name: 'USD Coin (PoS) ',
        symbol: 'USDC',
        address: '0x2791bca1f2de4661ed88a30c99a7a9449aa84174'
    },
    BNB: {
        name: 'BNB ',
        symbol: 'BNB',
        address: '0x3BA4c387f786bFEE076A58914F5Bd38d668B42c3'
    },
    BUSD: {
        name: 'BUSD Token ',
        symbol: 'BUSD',
        address: '0x9C9e5fD8bbc25984B178FdCE6117Defa39d2db39'
    },
    DAI: {
        name: '(PoS) Dai Stablecoin ',
        symbol: 'DAI',
        address: '0x8f3cf7ad23cd3cadbd9735aff958023239c6a063'
    },
    AVAX: {
        name: 'Avalanche Token ',
        symbol: 'AVAX',
        address: '0x2C89bbc92BD86F8075d1DEcc58C7F4E0107f286b'
    },
}
`,
    wallets: [],
    contracts: ['0xc2132d05d31c914a87c6611c10748aeb04b58e8f', '0x2791bca1f2de4661ed88a30c99a7a9449aa84174', '0x3BA4c387f786bFEE076A58914F5Bd38d668B42c3', '0x9C9e5fD8bbc25984B178FdCE6117Defa39d2db39', '0x8f3cf7ad23cd3cadbd9735aff958023239c6a063', '0x2C89bbc92BD86F8075d1DEcc58C7F4E0107f286b'],
  },
  {
    id: 'token-list-address-decimals',
    source: 'github.com/lbeder/crypto-scanner src/data/tokens.ts',
    class: 'token-list',
    text: `export const GLOBAL_TOKEN_LIST = {
  date: "2024-03-27T03:13:04.479Z",
  tokens: {
    "0KN": {
      address: "0x4594CFfbFc09BC5e7eCF1C2e1C1e24F0f7D29036",
      decimals: 18
    },
    "0NE": {
      address: "0x73A83269b9bbAFC427E76Be0A2C1a1db2a26f4C2",
      decimals: 18
    },
    "0XBTC": {
      address: "0xB6eD7644C69416d67B522e20bC294A9a9B405B31",
      decimals: 8
    },
    "0XCON": {
      address: "0x29eF81CC8737F19449D501396D4968D138140675",
      decimals: 9
    },
  }
};
`,
    wallets: [],
    contracts: ['0x4594CFfbFc09BC5e7eCF1C2e1C1e24F0f7D29036', '0x73A83269b9bbAFC427E76Be0A2C1a1db2a26f4C2', '0xB6eD7644C69416d67B522e20bC294A9a9B405B31', '0x29eF81CC8737F19449D501396D4968D138140675'],
  },
  {
    id: 'bot-token-config',
    source: 'github.com/swaponline/MultiCurrencyWallet src/bot/config/mainnet/TOKENS.ts',
    class: 'token-list',
    text: `export default {
  swap: {
    address: '0x14a52cf6B4F68431bd5D9524E4fcD6F41ce4ADe9',
    decimals: 18,
    fullName: 'Swap.online Token',
    network: 'mainnet',
  },
  gusd: {
    address: '0x056fd409e1d7a124bd7017459dfea2f387b6d5cd',
    decimals: 2,
    fullName: 'Gemini dollar',
  },
  dcn: {
    address: '0x08d32b0da63e2C3bcF8019c9c5d849d7a9d791e6',
    decimals: 0,
    fullName: 'Dentacoin',
  },
  bnty: {
    address: '0xd2d6158683aee4cc838067727209a0aaf4359de3',
    decimals: 18,
    fullName: 'Bounty0x',
  },
}
`,
    wallets: [],
    contracts: ['0x14a52cf6B4F68431bd5D9524E4fcD6F41ce4ADe9', '0x056fd409e1d7a124bd7017459dfea2f387b6d5cd', '0x08d32b0da63e2C3bcF8019c9c5d849d7a9d791e6', '0xd2d6158683aee4cc838067727209a0aaf4359de3'],
  },
  {
    id: 'wallet-erc20-resource',
    source: 'github.com/leadwallet/leadwallet-core src/core/resources/erc20tokens.ts',
    class: 'token-list',
    text: `export const ALL_ERC20_TOKENS: Array<any> = [
  {
    address: "0x4e84e9e5fb0a972628cf4568c403167ef1d40431",
    symbol: "$ffc",
    decimal: 18,
    type: "default"
  },
  {
    address: "0xa024e8057eec474a9b2356833707dd0579e26ef3",
    symbol: "$fyx",
    decimal: 18,
    type: "default"
  },
  {
    address: "0xb6ed7644c69416d67b522e20bc294a9a9b405b31",
    symbol: "0xbtc",
    decimal: 8,
    type: "default"
  },
];
`,
    wallets: [],
    contracts: ['0x4e84e9e5fb0a972628cf4568c403167ef1d40431', '0xa024e8057eec474a9b2356833707dd0579e26ef3', '0xb6ed7644c69416d67b522e20bc294a9a9b405b31'],
  },
  {
    id: 'price-feed-contract-mapping',
    source: 'PyPI chain_harvester 2.10.1 chain_harvester/chainlink/mappings/optimism.py',
    class: 'contract-list',
    text: `MAINNET_ASSET_MAPPING = {
    "WETH": "ETH",
}

MAINNET_USD = {
    "ETH": {
        "contract_address": "0x02f5E9e9dcc66ba6392f6904D5Fcf8625d9B19C9",
        "proxy_address": "0x13e3Ee699D1909E989722E753853AE30b17e08c5",
        "decimals": 8,
    },
    "BTC": {
        "contract_address": "0x0C1272d2aC652D10d03bb4dEB0D31F15ea3EAb2b",
        "proxy_address": "0xD702DD976Fb76Fffc2D3963D037dfDae5b04E593",
        "decimals": 8,
    },
}
`,
    wallets: [],
    contracts: ['0x02f5E9e9dcc66ba6392f6904D5Fcf8625d9B19C9', '0x13e3Ee699D1909E989722E753853AE30b17e08c5', '0x0C1272d2aC652D10d03bb4dEB0D31F15ea3EAb2b', '0xD702DD976Fb76Fffc2D3963D037dfDae5b04E593'],
  },
  {
    id: 'cosmwasm-donation-contract',
    source: 'github.com/SparkIBC/spark-docs guides-resources/cli-donations.md',
    class: 'contract-list',
    text: `# CLI Donations

1. Set chain id and transaction flags
    \`\`\`bash
    CHAIN_ID="juno-1"
    TXFLAG="--chain-id \${CHAIN_ID} --gas-prices 0.025ujuno --gas auto --gas-adjustment 1.3"
    \`\`\`
2. Run the transaction (replace the key name with yours)

    \`\`\`bash
    junod tx wasm execute juno1a6rna5tcl6p97rze6hnd5ug35kadqhudvr5f4mtr6s0yd5mruhss8gzrdy "$EXECUTE_FUND" \\
    --from <junod key name> $TXFLAG --amount "$TXAMOUNT"
    \`\`\`
`,
    wallets: [],
    contracts: ['juno1a6rna5tcl6p97rze6hnd5ug35kadqhudvr5f4mtr6s0yd5mruhss8gzrdy'],
  },
  {
    id: 'sdk-program-constants',
    source: 'github.com/Investin-pro/investin-sdk src/constants.ts',
    class: 'program-ids',
    text: `import { PublicKey } from "@solana/web3.js";

export const programId = new PublicKey('DGWPuR54RgRYVdUHF8TaG7SP63BzWUSAYBScuAEbV1fD');
export const platformStateAccount = new PublicKey('8DzkmkxQx3MNNoMQ92XJXRz4gRz2xVbxeLF8DGMGbbVa')
export const MANGO_PROGRAM_ID_V3 = new PublicKey('mv3ekLzLbnVPNxjSKvqBpU3ZeZXPQdEC3bp5MDEBG68')
export const MANGO_GROUP_ACCOUNT_V3 = new PublicKey('98pjRuQjK3qA6gXts96PqZT4Ze5QmnCmt3QYjhbUSPue')
export const LIQUIDITY_POOL_PROGRAM_ID_V4 = new PublicKey('675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8')
export const SERUM_PROGRAM_ID_V3 = new PublicKey('9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin')
export const ORCA_SWAP_PROGRAM_ID = new PublicKey('9W959DqEETiGZocYWCQPaJ6sBmUzgfxXfqGeTEdp3aQP')
`,
    wallets: [],
    contracts: ['DGWPuR54RgRYVdUHF8TaG7SP63BzWUSAYBScuAEbV1fD', '8DzkmkxQx3MNNoMQ92XJXRz4gRz2xVbxeLF8DGMGbbVa', 'mv3ekLzLbnVPNxjSKvqBpU3ZeZXPQdEC3bp5MDEBG68', '98pjRuQjK3qA6gXts96PqZT4Ze5QmnCmt3QYjhbUSPue', '675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8', '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin', '9W959DqEETiGZocYWCQPaJ6sBmUzgfxXfqGeTEdp3aQP'],
  },
  {
    id: 'dex-ui-program-ids',
    source: 'github.com/raydium-io/raydium-ui src/utils/ids.ts',
    class: 'program-ids',
    text: `import { PublicKey } from '@solana/web3.js'

export const TOKEN_PROGRAM_ID = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')

export const SERUM_PROGRAM_ID_V2 = 'EUqojwWA2rd19FZrzeBncJsm38Jm1hEhE3zsmX3bRc2o'
export const SERUM_PROGRAM_ID_V3 = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin'

export const LIQUIDITY_POOL_PROGRAM_ID_V2 = 'RVKd61ztZW9GUwhRbbLoYVRE5Xf1B2tVscKqwZqXgEr'
export const LIQUIDITY_POOL_PROGRAM_ID_V3 = ''

export const STAKE_PROGRAM_ID = 'EhhTKczWMGQt46ynNeRX1WfeagwwJd7ufHvCDjRxjo5Q'
`,
    wallets: [],
    contracts: ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'EUqojwWA2rd19FZrzeBncJsm38Jm1hEhE3zsmX3bRc2o', '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin', 'RVKd61ztZW9GUwhRbbLoYVRE5Xf1B2tVscKqwZqXgEr', 'EhhTKczWMGQt46ynNeRX1WfeagwwJd7ufHvCDjRxjo5Q'],
  },
  {
    id: 'provider-program-ids-multiline',
    source: 'github.com/yasp-finance/yasp-sdk src/constants/providers/raydium.ts',
    class: 'program-ids',
    text: `import { PublicKey } from '@solana/web3.js'

export const RAYDIUM_V5_SWAP_ID = new PublicKey(
  '5quBtoiQqxF9Jv6KYKctB59NT3gtJD2Y65kdnB1Uev3h'
)
export const RAYDIUM_V4_SWAP_ID = new PublicKey(
  '675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8'
)

export const RAYDIUM_V5_FARM_ID = new PublicKey(
  '9KEPoZmtHUrBbhWN1v1KWLMkkvwY6WLtAVUCPRtRjP4z'
)
export const RAYDIUM_V3_FARM_ID = new PublicKey(
  'EhhTKczWMGQt46ynNeRX1WfeagwwJd7ufHvCDjRxjo5Q'
)
export const SERUM_PROGRAM_ID = new PublicKey(
  '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin'
)
`,
    wallets: [],
    contracts: ['5quBtoiQqxF9Jv6KYKctB59NT3gtJD2Y65kdnB1Uev3h', '675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8', '9KEPoZmtHUrBbhWN1v1KWLMkkvwY6WLtAVUCPRtRjP4z', 'EhhTKczWMGQt46ynNeRX1WfeagwwJd7ufHvCDjRxjo5Q', '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin'],
  },
  {
    id: 'bip173-reference-tests',
    source: 'github.com/sipa/bech32 ref/python/tests.py',
    class: 'spec-vectors',
    text: `  valid_address = [
    ["BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", "0014751e76e8199196d454941c45d1b3a323f1433bd6"],
    ["tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7", "00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262"],
    ["bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx", "8128751e76e8199196d454941c45d1b3a323f1433bd6751e76e8199196d454941c45d1b3a323f1433bd6"],
    ["BC1SW50QA3JX3S", "9002751e"],
    ["bc1zw508d6qejxtdg4y5r3zarvaryvg6kdaj", "8210751e76e8199196d454941c45d1b3a323"],
    ["tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy", "0020000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433"],
  ]
`,
    wallets: [],
    contracts: ['BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx', 'bc1zw508d6qejxtdg4y5r3zarvaryvg6kdaj'],
  },
];
