// Deterministic generator of realistic scam-page-like HTML for the wallet-extraction benchmark:
// markup with hashed CSS classes, prose, inline scripts with chunk maps and JSON, base64 data URIs,
// SRI hashes, git SHAs, UUIDs, JWTs, transaction hashes, and valid addresses sprinkled in.
import { makeAddresses, seededBytes } from '../test/support/wallet-address-factory';

const WORDS = 'the to deposit your wallet send fast secure exchange bonus claim reward account balance minimum network fee confirm transfer support help crypto trading platform investment daily profit guaranteed withdraw please only address below copy scan code'.split(' ');
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const HEXC = '0123456789abcdef';

export function createCorpusGenerator(seed: number): () => string {
  const rnd = seededBytes(seed);
  const pool = Array.from({ length: 40 }, (_, i) => makeAddresses(1000 + i));
  let state = seed >>> 0;
  const next = (): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4294967296;
  };
  const pick = <T>(arr: readonly T[]): T => arr[Math.floor(next() * arr.length)];
  const str = (alphabet: string, n: number): string => {
    const bytes = rnd(n);
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[bytes[i] % alphabet.length];
    return s;
  };
  const prose = (n: number): string => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const cls = (): string => pick([`css-${str('0123456789abcdefghijklmnopqrstuvwxyz', 7)}`, `sc-${str(B64.slice(0, 52), 6)}`, `jsx-${Math.floor(next() * 1e10)}`, `r-${str('0123456789abcdefghijklmnopqrstuvwxyz', 7)}`, 'container', 'row', 'btn btn-primary']);
  const address = (): string => {
    const a = pick(pool);
    switch (Math.floor(next() * 8)) {
      case 0: return `<div class="${cls()}"><span>USDT (TRC20) deposit address</span><input readonly value="${a.tron}"><button data-clipboard-text="${a.tron}">Copy</button></div>`;
      case 1: return `<p class="${cls()}">Send BTC to <a href="bitcoin:${a.btcSegwit}?amount=0.01">${a.btcSegwit}</a></p>`;
      case 2: return `<p>ERC20 wallet: <code>${a.evm}</code></p>`;
      case 3: return `<li>Solana (SOL) address: ${a.sol}</li>`;
      case 4: return `<p>XRP deposit ${a.xrp} memo 12345</p>`;
      case 5: return `<script>window.__W = {"eth":"${a.evm}","trx":"${a.tron}"};</script>`;
      case 6: return `<p>Monero: ${a.xmr}</p>`;
      default: return `<p>TON wallet <b>${a.ton}</b></p>`;
    }
  };
  return () => {
    const r = next();
    if (r < 0.004) return address();
    if (r < 0.012) return `<img alt="qr" src="data:image/png;base64,${str(B64, 1200 + Math.floor(next() * 4000))}=">`;
    if (r < 0.02) return `<script src="/static/js/main.${str(HEXC, 8)}.js" integrity="sha384-${str(B64, 64)}" crossorigin="anonymous"></script>`;
    if (r < 0.04) return `<script>self.__chunks={${Array.from({ length: 12 }, () => `"${Math.floor(next() * 999)}":"${str(HEXC, 20)}"`).join(',')}};var build="${str(HEXC, 40)}";</script>`;
    if (r < 0.05) return `<script type="application/json" id="__NEXT_DATA__">{"buildId":"${str(B64.slice(0, 62), 21)}","session":"eyJ${str(B64.slice(0, 62), 40)}.eyJ${str(B64.slice(0, 62), 80)}.${str(B64.slice(0, 62), 43)}","id":"${str(HEXC, 8)}-${str(HEXC, 4)}-${str(HEXC, 4)}-${str(HEXC, 4)}-${str(HEXC, 12)}"}</script>`;
    if (r < 0.06) return `<p class="${cls()}">tx 0x${str(HEXC, 64)} confirmed in block ${Math.floor(next() * 1e7)}</p>`;
    if (r < 0.07) return `<link rel="stylesheet" href="/assets/index-${str(B64.slice(0, 62), 8)}.css"><meta name="commit" content="${str(HEXC, 40)}">`;
    if (r < 0.35) return `<div class="${cls()} ${cls()}"><span class="${cls()}">${prose(4)}</span></div>\n`;
    return `<p class="${cls()}">${prose(8 + Math.floor(next() * 30))}</p>\n`;
  };
}

/** Yields chunks of about `chunkChars` characters until `totalChars` have been produced. */
export function* corpusChunks(totalChars: number, seed: number, chunkChars = 1 << 20): Generator<string> {
  const gen = createCorpusGenerator(seed);
  let produced = 0;
  while (produced < totalChars) {
    const parts: string[] = [];
    let n = 0;
    while (n < chunkChars) {
      const p = gen();
      parts.push(p);
      n += p.length;
    }
    produced += n;
    yield parts.join('');
  }
}
