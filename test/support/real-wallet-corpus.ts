// A corpus of real public documents for the wallet engine (beside the generated scam pages of
// scam-page-generator.ts): donation pages and contract / program-id lists found in public GitHub
// repositories. Each entry keeps the structure of its source (headings, tables, code fences, keys,
// links) and its addresses exactly as published; the prose around them is rewritten and shortened,
// not copied. `wallets` is the ground truth (with every token the label names), `contracts` the
// addresses that must never be reported. The accuracy bench (bench/wallet-accuracy.ts) and
// test/wallets/real-corpus.test.ts score the engine on it.
import type { NetworkId } from '../../domain/wallets/wallet-types';

export type RealDocClass = 'donation' | 'contract-list' | 'program-ids';

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
];
