// Extraction from HTML pages and text: coin tabs, inputs, copy buttons, payment URIs, obfuscation
// (inline tags, zero-width characters, entities, whitespace groups), token/network inference, and
// trap strings that must never be reported.
import assert from 'node:assert/strict';
import { extractWallets } from '../../domain/wallets/extract-wallets';
import { WalletScanner } from '../../domain/wallets/wallet-scanner';
import type { ExtractionResult, WalletFinding } from '../../domain/wallets/wallet-types';
import { createPageGenerator } from '../support/scam-page-generator';
import { makeAddresses } from '../support/wallet-address-factory';

const a = makeAddresses(11);
const b = makeAddresses(12);

function find(findings: WalletFinding[], address: string): WalletFinding | undefined {
  return findings.find((f) => f.address === address);
}

describe('wallet extraction from pages', () => {
  it('reads a coin-tab page: network and token from the tab, copy button and input value', () => {
    const html = `<html><body><div class="tabs"><button class="active">USDT</button></div>
      <div class="panel"><label>Deposit address</label><input readonly value="${b.evm}"><button class="copy-btn" data-clipboard-text="${b.evm}">Copy</button></div></body></html>`;
    const r = extractWallets({ html, coinTab: 'USDT (BEP20)' });
    const f = find(r.findings, b.evm);
    assert.ok(f);
    assert.equal(f.network, 'BNB Smart Chain');
    assert.equal(f.token, 'USDT');
    assert.equal(f.confidence, 'high');
    assert.equal(f.source, 'coin-tab:USDT (BEP20)');
    assert.equal(r.findings.length, 1);
  });

  it('labels sources: data-clipboard-text, input:value, uri:bitcoin, script, text', () => {
    const html = `<html><body>
      <p>Send TRX: <button data-clipboard-text="${a.tron}">copy</button></p>
      <form><textarea readonly>${a.ltc}</textarea></form>
      <p><a href="bitcoin:${a.btcSegwit}?amount=0.25&label=Order">Pay with wallet</a></p>
      <script>const wallet = "${a.xmr}";</script>
      <p>XRP deposit address: ${a.xrp}</p></body></html>`;
    const r = extractWallets({ html });
    assert.equal(find(r.findings, a.tron)?.source, 'attr:data-clipboard-text');
    assert.equal(find(r.findings, a.ltc)?.source, 'input:value');
    assert.equal(find(r.findings, a.btcSegwit)?.source, 'uri:bitcoin');
    assert.equal(find(r.findings, a.xmr)?.source, 'script');
    assert.equal(find(r.findings, a.xrp)?.source, 'text');
    assert.equal(r.findings.length, 5);
  });

  it('parses EIP-681 transfer URIs: the recipient is the wallet, the token contract is not', () => {
    const token = a.evm;
    const html = `<a href="ethereum:${token}@1/transfer?address=${b.evm}&uint256=1e6">Pay USDT</a>`;
    const r = extractWallets({ html }, { includeRejected: true });
    assert.deepEqual(r.findings.map((f) => f.address), [b.evm]);
    assert.equal(r.findings[0].source, 'uri:ethereum');
    assert.ok(r.rejected.some((x) => x.candidate === token && /EIP-681/.test(x.reason)));
  });

  it('reads litecoin: and ethereum: URIs in plain text too', () => {
    const r = extractWallets({ text: `pay to litecoin:${a.ltc}?amount=1 or ethereum:${a.evm}` });
    assert.equal(find(r.findings, a.ltc)?.source, 'uri:litecoin');
    assert.equal(find(r.findings, a.evm)?.source, 'uri:ethereum');
  });

  it('picks the EVM network from nearby words and explorer links, USDT on Tron from TRC20', () => {
    const html = `<div><h3>USDT TRC20</h3><p>${a.tron}</p></div><hr>
      <div><h3>Polygon</h3><p>${a.evm}</p></div><hr>
      <div><p><a href="https://arbiscan.io/address/${b.evm}">${b.evm}</a></p></div>`;
    const r = extractWallets({ html });
    const tron = find(r.findings, a.tron);
    assert.equal(tron?.token, 'USDT');
    assert.equal(tron?.network, 'Tron');
    assert.equal(find(r.findings, a.evm)?.network, 'Polygon');
    assert.equal(r.findings.filter((f) => f.address === b.evm).every((f) => f.network === 'Arbitrum'), true);
    assert.ok(find(r.findings, b.evm));
  });

  it('finds addresses split by inline tags, zero-width characters and entities', () => {
    const split = `${a.evm.slice(0, 12)}</span><span>${a.evm.slice(12)}`;
    const zw = `${a.tron.slice(0, 10)}\u200b${a.tron.slice(10, 20)}\u200d${a.tron.slice(20)}`;
    const ent = `${a.btcP2pkh.slice(0, 8)}&#${a.btcP2pkh.charCodeAt(8)};${a.btcP2pkh.slice(9)}`;
    const html = `<p>ERC20 deposit: <span>${split}</span></p><p>Wallet: ${zw}</p><p>BTC address ${ent}</p>`;
    const r = extractWallets({ html });
    assert.ok(find(r.findings, a.evm), 'inline-tag split');
    assert.ok(find(r.findings, a.tron), 'zero-width split');
    assert.ok(find(r.findings, a.btcP2pkh), 'entity split');
  });

  it('joins whitespace groups inside one element, only for checksummed formats', () => {
    const grouped = a.btcSegwit.match(/.{1,4}/g)?.join(' ');
    const solGrouped = a.sol.match(/.{1,4}/g)?.join(' ');
    const r = extractWallets({ html: `<p>Send to</p><p class="addr">${grouped}</p><p class="addr">${solGrouped}</p>` });
    assert.ok(find(r.findings, a.btcSegwit));
    assert.equal(find(r.findings, a.sol), undefined);
  });

  it('applies the confidence rules', () => {
    const gap = '<p>lorem ipsum dolor sit amet consectetur</p>'.repeat(12);
    const html = `<p>Solana (SOL) wallet: ${a.sol}</p>${gap}<p>${b.sol}</p>${gap}<p>${a.dot}</p>${gap}<p>random ${a.btcP2sh} text</p>`;
    const r = extractWallets({ html }, { includeRejected: true });
    assert.equal(find(r.findings, a.sol)?.confidence, 'low'); // no checksum + network named
    assert.equal(find(r.findings, b.sol), undefined); // no checksum, no context
    assert.ok(r.rejected.some((x) => x.candidate === b.sol && /no checksum and no wallet context/.test(x.reason)));
    assert.equal(find(r.findings, a.dot)?.confidence, 'low'); // 16-bit checksum, no context
    assert.equal(find(r.findings, a.btcP2sh)?.confidence, 'medium'); // strong checksum, no context
  });

  it('needs the allowlist to keep a pair', () => {
    const html = `<p>USDT TRC20 deposit ${a.tron}</p><p>DOGE deposit ${a.doge}</p>`;
    const r = extractWallets({ html }, { allowlist: [{ token: 'USDT', network: 'tron' }], includeRejected: true });
    assert.deepEqual(r.findings.map((f) => f.address), [a.tron]);
    assert.ok(r.rejected.some((x) => x.candidate === a.doge && x.stage === 'allowlist'));
  });

  it('gives the same findings streamed in small chunks as in one piece', () => {
    const filler = '<p class="css-1dbjc4n">lorem ipsum dolor sit amet</p>\n'.repeat(2000);
    const html = `<html><body>${filler}<p>TRC20 deposit ${a.tron}</p>${filler}<p>ERC20 ${a.evm}</p>${filler}<script>var w="${a.xmr}";</script>${filler}</body></html>`;
    const whole = extractWallets({ html }).findings.map((f) => `${f.address}|${f.network}|${f.confidence}|${f.source}`).sort();
    const scanner = new WalletScanner({ html: true }, { chunkSize: 16 * 1024 });
    for (let i = 0; i < html.length; i += 997) scanner.push(html.slice(i, i + 997));
    const streamed = scanner.end().findings.map((f) => `${f.address}|${f.network}|${f.confidence}|${f.source}`).sort();
    assert.deepEqual(streamed, whole);
    assert.equal(whole.length, 3);
  });

  it('gives the same findings and rejections when large pushed chunks are scanned in place as in small chunks', () => {
    const page = createPageGenerator(31).page(700_000, 40_000).html;
    const rows = (r: ExtractionResult): string[] => [
      ...r.findings.map((f) => `F ${f.address}|${f.networkId}|${f.token}|${f.confidence}|${f.location}|${f.offset}|${f.occurrences}`),
      ...r.rejected.map((x) => `R ${x.candidate}|${x.reason}|${x.offset}`),
    ].sort();
    const scan = (chunk: number): string[] => {
      const scanner = new WalletScanner({ html: true }, { includeRejected: true, maxRejected: 1e6, chunkSize: 16 * 1024 });
      for (let i = 0; i < page.length; i += chunk) scanner.push(page.slice(i, i + chunk));
      return rows(scanner.end());
    };
    const small = scan(997);
    assert.ok(small.filter((r) => r.startsWith('F ')).length >= 10);
    assert.deepEqual(scan(100_003), small);
    assert.deepEqual(scan(256 * 1024), small);
  });

  it('keeps script and comment ranges exact when large pushed chunks are scanned in place, whatever cuts them', () => {
    const filler = '<p class="css-1dbjc4n">lorem ipsum dolor sit amet</p>\n'.repeat(1500);
    const code = 'x=1;'.repeat(1500);
    for (const [opener, closer] of [['<script>', '</script>'], ['<!--', '-->']]) {
      const head = `<html><body>${filler}`;
      // `>` inside the code every 6,000 characters: where an in-place chunk's own scan starts.
      const body = `var w="${a.tron}";${code}if(a>b){}${code}if(c>d){}${code}if(e>f){}${code}var v="${b.tron}";`;
      const html = `${head}${opener}${body}${closer}<p>TRC20 deposit ${b.evm}</p>${filler}</body></html>`;
      const rows = (r: ExtractionResult): string[] => r.findings.map((f) => `${f.address}|${f.location}|${f.confidence}`).sort();
      const whole = rows(extractWallets({ html }, { includeRejected: true }));
      assert.equal(whole.length, 3);
      // Cuts inside the opening tag, and inside the code far enough that the kept tail starts in it.
      const cuts = [...Array.from({ length: opener.length - 1 }, (_, k) => head.length + 1 + k), head.length + opener.length + 9000];
      for (const cut of cuts) {
        const scanner = new WalletScanner({ html: true }, { includeRejected: true, chunkSize: 16 * 1024 });
        scanner.push(html.slice(0, cut));
        scanner.push(html.slice(cut));
        assert.deepEqual(rows(scanner.end()), whole, `${opener} cut at ${cut - head.length}`);
      }
    }
  });
});

describe('wallet extraction: traps that are never reported', () => {
  const traps: Array<[string, string]> = [
    ['base64 image', `<img src="data:image/png;base64,${'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk'.repeat(20)}${a.sol}${'QmRb8J7uz1jCGezNMSHsKNmh1MsHjgkDJvWAEBwewAHtLD'.repeat(5)}==">`],
    ['hashed CSS classes', '<div class="css-1dbjc4n r-1awozwy r-18u37iz jsx-3289451839 sc-bdVaJa index-BXq3kL9d">wallet address</div>'],
    ['git SHA with 0x and without', '<p>deposit commit 0xfeb4151394fbf7bf54b43056d4b17187dc31cf88 and feb4151394fbf7bf54b43056d4b17187dc31cf88</p>'],
    ['tx hashes and topics', '<p>tx hash 0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470 wallet 0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef 3f1b149d07e7e8636636b8b7f7043c40ed64a10b28986181fb046c498432c2d4</p>'],
    ['ABI-padded address', '<p>wallet data 0x000000000000000000000000d1220a0cf47c7b9be7a2e6ba89f429762e7b9adb</p>'],
    ['UUIDs', '<p>send id 123e4567-e89b-12d3-a456-426614174000 550e8400-e29b-41d4-a716-446655440000</p>'],
    ['JWT', `<p>session eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c wallet</p>`],
    ['IPFS CIDs', '<p>wallet image QmRb8J7uz1jCGezNMSHsKNmh1MsHjgkDJvWAEBwewAHtLD bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi</p>'],
    ['version strings', '<script src="/js/jquery-3.6.0.min.js"></script><p>wallet v1.0.123 release 0.0.1 and 10.5.987</p>'],
    ['English words and domains', '<p>construction relationship google.com deposit address information acknowledgement</p>'],
    ['SRI and webpack chunk maps', '<script src="/a.js" integrity="sha384-vuz+yO71bcb30P4dMUNzy6/D2y+6d/n0KcOnt5clJtTBxEDoKAqGay0stFlC8Dpr"></script><script>self.c={"17":"3f9a1c2b7e4d5a6b","18":"8c1d2e3f4a5b6c7d"}; //# sourceMappingURL=main.7d2c9e1f.js.map</script>'],
    ['Solana program ids and constants', '<p>wallet TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA 11111111111111111111111111111111 0x0000000000000000000000000000000000000000 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa</p>'],
    ['analytics ids', '<script>gtag("config","G-ABCDE12345");ga("create","UA-000000-1");</script><ins data-ad-client="ca-pub-1234567891234567"></ins>'],
    ['Solana signature (88 base58)', '<p>wallet tx 5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW</p>'],
    ['xpub and WIF', '<p>wallet xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8 5KN7MzqK5wt2TP1fQCYyHBtDrXdJuXbUzm4A9rKAteGu3Qi5CVR</p>'],
  ];
  for (const [name, html] of traps) {
    it(`reports nothing for ${name}`, () => {
      const r = extractWallets({ html: `<html><body>${html}</body></html>` });
      assert.deepEqual(r.findings.map((f) => `${f.address} (${f.network})`), []);
    });
  }

  it('reports a leaked WIF key as a rejection with its reason, not as a wallet', () => {
    const r = extractWallets({ text: 'wallet key 5KN7MzqK5wt2TP1fQCYyHBtDrXdJuXbUzm4A9rKAteGu3Qi5CVR' }, { includeRejected: true });
    assert.equal(r.findings.length, 0);
    assert.ok(r.rejected.some((x) => /private key/.test(x.reason)));
  });

  it('does not take a 48-char window of a long base64url token as TON', () => {
    const r = extractWallets({ html: `<p>TON wallet token=${a.ton}${a.ton}</p>` });
    assert.equal(r.findings.length, 0);
  });
});
