// Generator of realistic scam pages with ground truth, for tests and the wallet benchmark: fresh
// addresses (wallet-address-factory) placed in the structures real deposit pages use (coin tables,
// JSON configs, sections with headings, tab panels, payment URIs with chain ids, QR-service links,
// memos, string concatenation in scripts), next to decoys that must never be reported (well-known
// contracts, presale "contract address" labels, transaction hashes, Solana Pay references), inside
// filler that is mostly minified script, CSS and base64 like a modern bundle.
import { makeAddresses, seededBytes, type AddressSet } from './wallet-address-factory';

export interface TruthWallet {
  address: string;
  networkId: string;
  token: string;
  memo?: string;
}

export interface GeneratedPage {
  html: string;
  wallets: TruthWallet[];
  /** Strings that look like addresses but must not be reported (contracts, keys, hashes). */
  decoys: string[];
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const HEXC = '0123456789abcdef';
const IDC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$';
const WORDS = 'deposit your wallet send fast secure exchange bonus claim reward account balance minimum network fee confirm transfer support crypto trading platform investment daily profit withdraw please only address copy scan code verify level vip team'.split(' ');

const WELL_KNOWN = ['0xdAC17F958D2ee523a2206206994597C13D831ec7', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', '0x55d398326f99059fF775485246999027B3197955', '0xcA11bde05977b3631167028862bE2a173976CA11', '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D'];

const EVM_CHAINS: Array<{ id: string; names: string[]; chainId: number; explorer: string; tokens: string[]; native: string }> = [
  { id: 'ethereum', names: ['Ethereum (ERC20)', 'ERC-20', 'Ethereum Mainnet'], chainId: 1, explorer: 'etherscan.io', tokens: ['USDT', 'USDC'], native: 'ETH' },
  { id: 'bsc', names: ['BNB Smart Chain (BEP20)', 'BEP20', 'BSC'], chainId: 56, explorer: 'bscscan.com', tokens: ['USDT', 'USDC'], native: 'BNB' },
  { id: 'polygon', names: ['Polygon', 'Polygon PoS', 'MATIC network'], chainId: 137, explorer: 'polygonscan.com', tokens: ['USDT', 'USDC'], native: 'POL' },
  { id: 'arbitrum', names: ['Arbitrum One', 'Arbitrum'], chainId: 42161, explorer: 'arbiscan.io', tokens: ['USDT', 'USDC'], native: 'ETH' },
  { id: 'optimism', names: ['Optimism', 'OP Mainnet'], chainId: 10, explorer: 'optimistic.etherscan.io', tokens: ['USDT', 'USDC'], native: 'ETH' },
  { id: 'base', names: ['Base'], chainId: 8453, explorer: 'basescan.org', tokens: ['USDC'], native: 'ETH' },
  { id: 'avalanche-c', names: ['Avalanche C-Chain', 'AVAX C-Chain'], chainId: 43114, explorer: 'snowtrace.io', tokens: ['USDT', 'USDC'], native: 'AVAX' },
  { id: 'ethereum-classic', names: ['Ethereum Classic'], chainId: 61, explorer: 'etc.blockscout.com', tokens: [], native: 'ETC' },
];

interface Coin {
  label: string;
  networkId: string;
  token: string;
  address: (s: AddressSet) => string;
  memo?: boolean;
  scheme?: string;
}

const COINS: Coin[] = [
  { label: 'Bitcoin (BTC)', networkId: 'bitcoin', token: 'BTC', address: (s) => s.btcSegwit, scheme: 'bitcoin' },
  { label: 'BTC', networkId: 'bitcoin', token: 'BTC', address: (s) => s.btcP2pkh, scheme: 'bitcoin' },
  { label: 'BTC (SegWit)', networkId: 'bitcoin', token: 'BTC', address: (s) => s.btcP2sh },
  { label: 'BTC Taproot', networkId: 'bitcoin', token: 'BTC', address: (s) => s.btcTaproot },
  { label: 'USDT (TRC20)', networkId: 'tron', token: 'USDT', address: (s) => s.tron },
  { label: 'TRX', networkId: 'tron', token: 'TRX', address: (s) => s.tron },
  { label: 'USDC on Tron', networkId: 'tron', token: 'USDC', address: (s) => s.tron },
  { label: 'Solana (SOL)', networkId: 'solana', token: 'SOL', address: (s) => s.sol, scheme: 'solana' },
  { label: 'USDC (Solana)', networkId: 'solana', token: 'USDC', address: (s) => s.sol },
  { label: 'XRP', networkId: 'xrp', token: 'XRP', address: (s) => s.xrp, memo: true },
  { label: 'Litecoin', networkId: 'litecoin', token: 'LTC', address: (s) => s.ltc, scheme: 'litecoin' },
  { label: 'Dogecoin (DOGE)', networkId: 'dogecoin', token: 'DOGE', address: (s) => s.doge, scheme: 'dogecoin' },
  { label: 'Dash', networkId: 'dash', token: 'DASH', address: (s) => s.dash },
  { label: 'Zcash (ZEC)', networkId: 'zcash', token: 'ZEC', address: (s) => s.zec },
  { label: 'Tezos', networkId: 'tezos', token: 'XTZ', address: (s) => s.xtz },
  { label: 'Bitcoin Cash', networkId: 'bitcoin-cash', token: 'BCH', address: (s) => s.bch },
  { label: 'Toncoin (TON)', networkId: 'ton', token: 'TON', address: (s) => s.ton, memo: true },
  { label: 'USDT on TON', networkId: 'ton', token: 'USDT', address: (s) => s.ton, memo: true },
  { label: 'Stellar (XLM)', networkId: 'stellar', token: 'XLM', address: (s) => s.xlm, memo: true },
  { label: 'Algorand', networkId: 'algorand', token: 'ALGO', address: (s) => s.algo },
  { label: 'Monero (XMR)', networkId: 'monero', token: 'XMR', address: (s) => s.xmr },
  { label: 'Polkadot (DOT)', networkId: 'polkadot', token: 'DOT', address: (s) => s.dot },
  { label: 'Kusama', networkId: 'kusama', token: 'KSM', address: (s) => s.ksm },
  { label: 'Cosmos (ATOM)', networkId: 'cosmos', token: 'ATOM', address: (s) => s.atom, memo: true },
  { label: 'BNB Beacon Chain (BEP2)', networkId: 'bnb-beacon', token: 'BNB', address: (s) => s.bnb, memo: true },
];

/** One generator of pages; `seed` decides everything, addresses are fresh for every wallet. */
export function createPageGenerator(seed: number) {
  const rnd = seededBytes(seed);
  let state = seed >>> 0 || 1;
  const next = (): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  const pick = <T>(arr: readonly T[]): T => arr[int(arr.length)];
  const str = (alphabet: string, n: number): string => {
    const bytes = rnd(n);
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[bytes[i] % alphabet.length];
    return s;
  };
  let addrSeed = seed * 1000 + 7;
  const fresh = (): AddressSet => makeAddresses(addrSeed++);
  const id = (): string => str(IDC, 1 + int(3));
  const cls = (): string => pick([`css-${str('0123456789abcdefghijklmnopqrstuvwxyz', 7)}`, `sc-${str(B64.slice(0, 52), 6)}`, `_${str(B64.slice(0, 62), 5)}`, 'container', 'row', 'btn btn-primary']);
  const prose = (n: number): string => Array.from({ length: n }, () => pick(WORDS)).join(' ');

  /** Minified JavaScript: webpack-style modules, hashes, ids, string joins. */
  const script = (n: number): string => {
    const parts: string[] = [];
    let len = 0;
    while (len < n) {
      const r = next();
      const p = r < 0.3 ? `${int(9999)}:function(${id()},${id()},${id()}){"use strict";var ${id()}=${id()}(${int(9999)}),${id()}=${id()}.n(${id()});${id()}.exports={${Array.from({ length: 4 }, () => `${id()}:"${str(B64.slice(0, 62), 6 + int(8))}"`).join(',')}}},`
        : r < 0.45 ? `${id()}.p+"static/js/"+({${Array.from({ length: 6 }, () => `${int(999)}:"${str(HEXC, 20)}"`).join(',')}}[${id()}]||${id()})+"."+"${str(HEXC, 8)}"+".chunk.js";`
          : r < 0.6 ? `function ${id()}(${id()},${id()}){if(!${id()})throw new Error("${prose(4)}");return ${id()}.apply(this,arguments)}`
            : r < 0.7 ? `var ${id()}="${str(HEXC, 40)}",${id()}="${str(HEXC, 64)}";`
              : r < 0.8 ? `${id()}.setAttribute("data-v-${str(HEXC, 8)}",""),${id()}.className="${cls()} "+${id()};`
                : r < 0.9 ? `const ${id()}={id:"${str(HEXC, 8)}-${str(HEXC, 4)}-${str(HEXC, 4)}-${str(HEXC, 4)}-${str(HEXC, 12)}",token:"eyJ${str(B64.slice(0, 62), 30)}.eyJ${str(B64.slice(0, 62), 60)}.${str(B64.slice(0, 62), 43)}"};`
                  : `${id()}=${id()}?${id()}.${id()}(${int(100)}):${int(1e6)}/${int(100) + 1}|0;`;
      parts.push(p);
      len += p.length;
    }
    return `<script>${parts.join('')}</script>\n`;
  };
  const css = (n: number): string => {
    const parts: string[] = [];
    let len = 0;
    while (len < n) {
      const p = next() < 0.9 ? `.${cls().replace(/ /g, '.')}{display:flex;margin:${int(20)}px auto;color:#${str(HEXC, 6)};transition:all .${int(9)}s ease}`
        : `@font-face{font-family:f${int(99)};src:url(data:font/woff2;base64,${str(B64, 800 + int(1200))}) format("woff2")}`;
      parts.push(p);
      len += p.length;
    }
    return `<style>${parts.join('')}</style>\n`;
  };
  const base64 = (n: number): string => `<img alt="" class="${cls()}" src="data:image/${pick(['png', 'webp', 'jpeg'])};base64,${str(B64, n)}=">\n`;
  const markup = (n: number): string => {
    const parts: string[] = [];
    let len = 0;
    while (len < n) {
      const p = next() < 0.5 ? `<div class="${cls()} ${cls()}"><span class="${cls()}">${prose(4)}</span></div>\n` : `<p class="${cls()}">${prose(8 + int(25))}</p>\n`;
      parts.push(p);
      len += p.length;
    }
    return parts.join('');
  };
  /** Filler of about n characters: mostly minified script, CSS and base64. */
  const filler = (n: number): string => {
    const out: string[] = [];
    let len = 0;
    while (len < n) {
      const r = next();
      const k = Math.min(n - len, 2000 + int(8000));
      const p = r < 0.45 ? script(k) : r < 0.65 ? css(k) : r < 0.9 ? base64(k) : markup(k);
      out.push(p);
      len += p.length;
    }
    return out.join('');
  };

  const memoValue = (): string => String(100000 + int(899999999));

  /** One deposit snippet: HTML plus its truth (and decoys). */
  const snippet = (): GeneratedPage => {
    const r = int(14);
    const s = fresh();
    const t = fresh();
    if (r <= 1) {
      // Coin table with a header; each row its own token.
      const rows = Array.from({ length: 2 + int(2) }, () => {
        const c = pick(COINS);
        return { c, address: c.address(fresh()) };
      });
      const html = `<table class="${cls()}"><thead><tr><th>Coin</th><th>Deposit address</th><th></th></tr></thead><tbody>${rows.map((x) => `<tr><td>${x.c.label}</td><td><code>${x.address}</code></td><td><button class="copy-btn" data-clipboard-text="${x.address}">Copy</button></td></tr>`).join('')}</tbody></table>`;
      return { html, wallets: rows.map((x) => ({ address: x.address, networkId: x.c.networkId, token: x.c.token })), decoys: [] };
    }
    if (r === 2) {
      // JSON config in a script: EVM entries carry their chain.
      const chains = [pick(EVM_CHAINS), pick(EVM_CHAINS)];
      const entries = chains.map((ch, i) => {
        const token = ch.tokens.length && next() < 0.6 ? pick(ch.tokens) : ch.native;
        return { address: i ? t.evm : s.evm, ch, token };
      });
      const html = `<script>window.__PAY__={"methods":[${entries.map((e) => `{"symbol":"${e.token}","network":"${pick(e.ch.names)}","chainId":${e.ch.chainId},"address":"${e.address}","min":${int(100)}}`).join(',')}],"build":"${str(HEXC, 40)}"};</script>`;
      return { html, wallets: entries.map((e) => ({ address: e.address, networkId: e.ch.id, token: e.token })), decoys: [] };
    }
    if (r === 3) {
      // Sections with headings; the next section label must not leak back.
      const a1 = pick(EVM_CHAINS);
      const a2 = pick(EVM_CHAINS);
      const tok1 = a1.tokens.length ? pick(a1.tokens) : a1.native;
      const tok2 = a2.native;
      const html = `<section class="${cls()}"><h3>${tok1} · ${pick(a1.names)}</h3><p>Send only ${tok1} to this address:</p><div class="addr">${s.evm}</div></section>
        <section class="${cls()}"><h3>${tok2} · ${pick(a2.names)}</h3><p>Deposit address</p><div class="addr">${t.evm}</div></section>`;
      return { html, wallets: [{ address: s.evm, networkId: a1.id, token: tok1 }, { address: t.evm, networkId: a2.id, token: tok2 }], decoys: [] };
    }
    if (r === 4) {
      // Tab panel with data attributes; input value and copy button.
      const ch = pick(EVM_CHAINS);
      const tok = ch.tokens.length ? pick(ch.tokens) : ch.native;
      const html = `<div role="tabpanel" class="${cls()}" data-coin="${tok}" data-network="${ch.id === 'avalanche-c' ? 'avalanche' : ch.id === 'ethereum-classic' ? 'ethereum classic' : ch.id}"><label>Your deposit address</label><input readonly value="${s.evm}"><button data-clipboard-text="${s.evm}">Copy</button></div>`;
      return { html, wallets: [{ address: s.evm, networkId: ch.id, token: tok }], decoys: [] };
    }
    if (r === 5) {
      // EIP-681 payment link with chain id, token transfer or native.
      const ch = pick(EVM_CHAINS.filter((c) => c.id === 'ethereum' || c.id === 'bsc'));
      const contract = ch.id === 'ethereum' ? '0xdAC17F958D2ee523a2206206994597C13D831ec7' : '0x55d398326f99059fF775485246999027B3197955';
      const native = EVM_CHAINS[int(EVM_CHAINS.length)];
      const html = `<p>Pay with your wallet app: <a class="${cls()}" href="ethereum:${contract}@${ch.chainId}/transfer?address=${s.evm}&uint256=${int(1000)}e6">USDT</a> or <a href="ethereum:${t.evm}@${native.chainId}?value=1e17">${native.native}</a></p>`;
      return { html, wallets: [{ address: s.evm, networkId: ch.id, token: 'USDT' }, { address: t.evm, networkId: native.id, token: native.native }], decoys: [] };
    }
    if (r === 6) {
      // Memo coins: XRP destination tag, Stellar / TON memo, Cosmos memo.
      const c = pick(COINS.filter((x) => x.memo));
      const address = c.address(s);
      const memo = memoValue();
      const label = c.networkId === 'xrp' ? 'Destination Tag' : c.networkId === 'ton' ? 'Comment' : 'Memo';
      const html = `<div class="${cls()}"><h4>${c.label} deposit</h4><div class="row"><span>Address</span><code>${address}</code></div><div class="row"><span>${label} (required)</span><code>${memo}</code></div><p class="warn">${prose(6)}</p></div>`;
      return { html, wallets: [{ address, networkId: c.networkId, token: c.token, memo }], decoys: [] };
    }
    if (r === 7) {
      // Payment URIs of UTXO coins and Solana Pay with a reference key (a decoy).
      const c = pick(COINS.filter((x) => x.scheme));
      const address = c.address(s);
      if (c.networkId === 'solana') {
        const usdc = next() < 0.5;
        const html = `<a class="pay" href="solana:${address}?amount=${int(90) + 1}${usdc ? '&spl-token=EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' : ''}&reference=${t.sol}&label=Order">Pay with Phantom</a>`;
        return { html, wallets: [{ address, networkId: 'solana', token: usdc ? 'USDC' : 'SOL' }], decoys: [t.sol] };
      }
      const html = `<p>${prose(3)} <a href="${c.scheme}:${address}?amount=0.0${int(9) + 1}&label=${str(B64.slice(0, 52), 6)}">Open in wallet</a></p>`;
      return { html, wallets: [{ address, networkId: c.networkId, token: c.token }], decoys: [] };
    }
    if (r === 8) {
      // QR-code service link, percent-encoded payment URI.
      const c = pick(COINS.filter((x) => x.scheme && x.networkId !== 'solana'));
      const address = c.address(s);
      const html = `<div class="qr"><img src="https://api.qrserver.com/v1/create-qr-code/?size=240x240&data=${encodeURIComponent(`${c.scheme}:${address}?amount=0.05`)}" alt="Scan"></div>`;
      return { html, wallets: [{ address, networkId: c.networkId, token: c.token }], decoys: [] };
    }
    if (r === 9) {
      // Address assembled in a script from string pieces.
      const c = pick(COINS.filter((x) => x.networkId === 'tron' || x.networkId === 'bitcoin'));
      const address = c.address(s);
      const cut = 6 + int(10);
      const html = `<script>var ${id()}="${address.slice(0, cut)}"+"${address.slice(cut)}";document.querySelector(".addr").textContent=${id()};</script><p>${c.label} address shown above</p>`;
      return { html, wallets: [{ address, networkId: c.networkId, token: c.token }], decoys: [] };
    }
    if (r === 10) {
      // Presale: the token contract is shown with a copy button; the payment wallet is elsewhere.
      const ch = pick(EVM_CHAINS.slice(0, 3));
      const html = `<div class="${cls()}"><h2>$${str('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 4)} Presale</h2><p>Token contract address (CA):</p><code>${t.evm}</code><button data-clipboard-text="${t.evm}">Copy</button>
        <p>How to buy: send ${ch.native} on ${ch.names[0]} to our presale wallet</p><code>${s.evm}</code></div>`;
      return { html, wallets: [{ address: s.evm, networkId: ch.id, token: ch.native }], decoys: [t.evm] };
    }
    if (r === 11) {
      // A well-known contract mentioned next to the deposit address; a tx hash as proof of payouts.
      const ch = EVM_CHAINS[int(3)];
      const wk = pick(WELL_KNOWN);
      const html = `<p>USDT (${ch.names[0]}) deposit: <b>${s.evm}</b></p><p>Official USDT contract: ${wk}</p><p>Last payout tx: <a href="https://${ch.explorer}/tx/0x${str(HEXC, 64)}">0x${str(HEXC, 64)}</a></p>`;
      return { html, wallets: [{ address: s.evm, networkId: ch.id, token: 'USDT' }], decoys: [wk] };
    }
    if (r === 12) {
      // Explorer link decides the EVM network.
      const ch = pick(EVM_CHAINS.filter((c) => c.id !== 'ethereum-classic'));
      const html = `<p>Our hot wallet (verify on the explorer): <a href="https://${ch.explorer}/address/${s.evm}">${s.evm}</a></p>`;
      return { html, wallets: [{ address: s.evm, networkId: ch.id, token: ch.native }], decoys: [] };
    }
    // Plain label and address in a list item.
    const c = pick(COINS);
    const address = c.address(s);
    const html = `<ul class="${cls()}"><li><strong>${c.label}:</strong> <span class="mono">${address}</span></li></ul>`;
    return { html, wallets: [{ address, networkId: c.networkId, token: c.token }], decoys: [] };
  };

  return {
    /** A page of about `chars` characters with one deposit snippet every `every` characters. */
    page(chars: number, every: number): GeneratedPage {
      const parts: string[] = [`<!doctype html><html><head><meta charset="utf-8"><title>${prose(3)}</title></head><body>\n`];
      const wallets: TruthWallet[] = [];
      const decoys: string[] = [];
      let len = 0;
      while (len < chars) {
        const f = filler(Math.max(0, Math.min(every, chars - len) - 600));
        const s = snippet();
        parts.push(f, s.html, '\n');
        wallets.push(...s.wallets);
        decoys.push(...s.decoys);
        len += f.length + s.html.length + 1;
      }
      parts.push('</body></html>\n');
      return { html: parts.join(''), wallets, decoys };
    },
    filler,
  };
}

/** The accuracy set: `count` pages of 100-400 KB with about 4 wallets each. */
export function accuracyPages(seed: number, count: number): GeneratedPage[] {
  const g = createPageGenerator(seed);
  return Array.from({ length: count }, (_, i) => g.page(100_000 + ((i * 37_000) % 300_000), 40_000 + ((i * 13_000) % 50_000)));
}
