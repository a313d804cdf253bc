// Fixture scam sites for investigation tests, on 127.0.0.1 only, plus an "internal" canary on
// 127.0.0.2 that the crawler must never reach (every page tries: subresource, fetch, WebSocket, link
// and redirect). Addresses that must come from a click or a delay are kept reversed in the page's
// script, so only the agent's work (not a sweep over the script text) can find them. The coin-tab
// exchange /xhr-deposit keeps its addresses on the server: each click asks
// /api/deposit-address?coin=<code> (TRX answers 600 ms late) and rebuilds the panel from the answer,
// then 400 ms later tells /api/deposit-seen (with `coinTabs` over 4 it has as many tabs, the extra
// coins' addresses in `wallets.xhrExtra`);
// its load also fetches /api/big.txt (3 MB) and /api/huge.txt (6 MB), for the archive's limits.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { qrImage } from './qr-images';
import { makeAddresses } from './wallet-address-factory';

export interface ScamSiteFixture {
  origin: string;
  port: number;
  canaryOrigin: string;
  canaryHits(): number;
  wallets: {
    home: string; vip: string; tabBtc: string; tabEth: string; tabUsdt: string; tabTrx: string; spa: string; frame: string; delayed: string;
    extraTabs: string[];
    /** Shown only as QR codes on /qr-pay: in an <img>, and as a CSS background far down a tall page. */
    qrImage: string; qrBackground: string;
    /** Only in the XHR answers of /xhr-deposit's coin tabs. */
    xhr: { BTC: string; ETH: string; USDT: string; TRX: string };
    /** The XHR answers of /xhr-deposit's tabs beyond the first 4 (`coinTabs`), by coin code. */
    xhrExtra: Record<string, string>;
  };
  /** The last line of /api/big.txt and /api/huge.txt (a body archived whole ends with it). */
  bigBodyEnd: string;
  close(): Promise<void>;
}

const rev = (s: string) => [...s].reverse().join('');

/** /xhr-deposit's coins beyond BTC, ETH, USDT and TRX (`coinTabs` over 4), EVM networks all. */
const XHR_EXTRA_COINS = [
  { code: 'USDC', network: 'ERC20' }, { code: 'DAI', network: 'ERC20' }, { code: 'BNB', network: 'BEP20' }, { code: 'POL', network: 'Polygon' },
  { code: 'BUSD', network: 'BEP20' }, { code: 'MATIC', network: 'Polygon' },
];

function page(title: string, body: string, head = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;
}

/** `coinTabs`: tabs on the deposit page (4 or more); `delayMs`: every HTML page answers this late. */
export async function startScamSiteFixture(opts: { coinTabs?: number; delayMs?: number } = {}): Promise<ScamSiteFixture> {
  const a = makeAddresses(801);
  const b = makeAddresses(802);
  const c = makeAddresses(803);
  const q = makeAddresses(804);
  const extra = Array.from({ length: Math.max(0, (opts.coinTabs ?? 4) - 4) }, (_, i) => makeAddresses(900 + i).evm);
  const wallets = {
    home: a.evm, vip: a.ltc, tabBtc: a.btcP2pkh, tabEth: b.evm, tabUsdt: a.tron, tabTrx: b.tron, spa: c.tron, frame: a.btcSegwit, delayed: a.btcTaproot, extraTabs: extra,
    qrImage: q.btcSegwit, qrBackground: q.tron,
    xhr: { BTC: makeAddresses(805).btcSegwit, ETH: makeAddresses(805).evm, USDT: makeAddresses(805).tron, TRX: makeAddresses(806).tron },
    xhrExtra: Object.fromEntries(extra.map((_, i) => [XHR_EXTRA_COINS[i % XHR_EXTRA_COINS.length]!.code + (i >= XHR_EXTRA_COINS.length ? String(i) : ''), makeAddresses(950 + i).evm])),
  };
  const xhrCoins = [...Object.keys(wallets.xhr), ...Object.keys(wallets.xhrExtra)];
  const bigBodyEnd = 'fip-fixture: end of the large body';
  const largeBody = (bytes: number) => Buffer.concat([Buffer.alloc(bytes - bigBodyEnd.length, 'x'), Buffer.from(bigBodyEnd)]);
  const xhrDeposit = page(
    'Deposit',
    `<h1>Deposit</h1><p>Pick a coin: your personal address is issued on request.</p>
<div class="tabs">${xhrCoins.map((code) => `<button class="coin" data-coin="${code}">${code === 'USDT' ? 'USDT (TRC20)' : code}</button>`).join('')}</div>
<div id="panel-slot"><div id="panel"><input id="address" readonly value=""></div></div>
<nav><a href="/delayed">Bonus</a> <a href="/frame">Partners</a></nav>
<script>
fetch('/api/big.txt').then((r) => r.text()).catch(() => {});
fetch('/api/huge.txt').then((r) => r.text()).catch(() => {});
document.querySelectorAll('.coin').forEach((b) => b.addEventListener('click', async () => {
  const r = await fetch('/api/deposit-address?coin=' + b.dataset.coin);
  const j = await r.json();
  // The panel is thrown away and built anew from the answer.
  const panel = document.createElement('div');
  panel.id = 'panel';
  const label = document.createElement('p');
  label.textContent = 'Send ' + j.coin + ' (' + j.network + ') only to:';
  const box = document.createElement('code');
  box.textContent = j.address;
  panel.append(label, box);
  document.getElementById('panel').replaceWith(panel);
  // A beacon well after the reveal: an exchange no capture waits for.
  setTimeout(() => fetch('/api/deposit-seen?coin=' + j.coin).catch(() => {}), 400);
}));
</script>`,
  );
  const qrPngs = { img: await qrImage([`bitcoin:${wallets.qrImage}?amount=0.05`]), background: await qrImage([wallets.qrBackground]) };
  let canaryHits = 0;
  const canary = http.createServer((_req, res) => {
    res.end('canary');
  });
  canary.on('connection', () => {
    canaryHits++;
  });
  await new Promise<void>((resolve, reject) => {
    canary.once('error', reject);
    canary.listen(0, '127.0.0.2', () => resolve());
  });
  const canaryOrigin = `http://127.0.0.2:${(canary.address() as AddressInfo).port}`;
  const lures = `<img src="${canaryOrigin}/pixel.png" alt=""><a href="${canaryOrigin}/admin">admin</a><a href="/to-canary">partners</a>
<script>fetch('${canaryOrigin}/api/secret').catch(() => {}); try { new WebSocket('${canaryOrigin.replace('http', 'ws')}/ws'); } catch (e) {}</script>`;

  const tabs = [
    ['BTC', wallets.tabBtc], ['ETH', wallets.tabEth], ['USDT (TRC20)', wallets.tabUsdt], ['TRX', wallets.tabTrx],
    ...extra.map((addr, i) => [['USDC', 'DAI', 'BNB', 'POL', 'ERC20', 'BEP20'][i % 6]!, addr] as [string, string]),
  ] as Array<[string, string]>;
  const depositPage = page(
    'Deposit',
    `<h1>Deposit</h1><p>Choose a coin to see your personal deposit address.</p>
<div class="tabs">${tabs.map(([label], i) => `<button class="tab" data-i="${i}">${label}</button>`).join('')}</div>
<div id="address">Select a coin</div>
<script>
const A = ${JSON.stringify(tabs.map(([, addr]) => rev(addr)))};
const L = ${JSON.stringify(tabs.map(([label]) => label))};
document.querySelectorAll('.tab').forEach((b) => b.addEventListener('click', () => {
  const i = Number(b.dataset.i);
  setTimeout(() => { document.getElementById('address').textContent = 'Send ' + L[i] + ' only to: ' + A[i].split('').reverse().join(''); }, 50);
}));
</script>${lures}`,
  );

  const routes: Record<string, (res: http.ServerResponse) => void> = {
    '/r1': (res) => res.writeHead(302, { location: '/r2' }).end(),
    '/r2': (res) => html(res, page('Moving', 'Redirecting...', '<meta http-equiv="refresh" content="0;url=/r3">')),
    '/r3': (res) => html(res, page('Moving on', "<script>location.href = '/home';</script>")),
    '/home': (res) =>
      html(res, page('Fast Profit Crypto', `<h1>Fast Profit</h1><p>Guaranteed 40% monthly. Pay your fee in ETH: ${wallets.home}</p>
<p>Support: support@fast-profit.io, Telegram <a href="https://t.me/fastprofit_help">@fastprofit_help</a>, call <a href="tel:+442071838750">+44 20 7183 8750</a></p>
<button id="reveal">Show VIP address</button><div id="vip"></div>
<script>document.getElementById('reveal').addEventListener('click', () => { document.getElementById('vip').textContent = 'VIP deposits (LTC): ' + ${JSON.stringify(rev(wallets.vip))}.split('').reverse().join(''); });</script>
<nav><a href="/about">About</a> <a href="/deposit">Deposit</a> <a href="/spa">App</a> <a href="/frame">Partners</a> <a href="/delayed">Bonus</a></nav>${lures}`)),
    '/about': (res) => html(res, page('About us', `<p>We are regulated. <a href="/home">Home</a></p>${lures}`)),
    '/deposit': (res) => html(res, depositPage),
    '/spa': (res) =>
      html(res, page('App', `<nav><a href="#/">Dashboard</a> <a href="#/wallet">Wallet</a></nav><main id="view">Dashboard</main>
<script>
async function render() {
  if (location.hash === '#/wallet') {
    const r = await fetch('/api/wallet.json');
    const j = await r.json();
    document.getElementById('view').textContent = 'Your USDT TRC20 top-up address: ' + j.address;
  } else document.getElementById('view').textContent = 'Dashboard';
}
window.addEventListener('hashchange', render); render();
</script>`)),
    '/api/wallet.json': (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-fixture': 'scam-site' });
      res.end(JSON.stringify({ network: 'TRC20', address: wallets.spa }));
    },
    '/frame': (res) => html(res, page('Partners', `<p>Our payment partner:</p><iframe src="/frame-inner" width="600" height="200"></iframe>`)),
    '/frame-inner': (res) => html(res, page('Partner', `<p>Bitcoin payments: ${wallets.frame}</p>`)),
    '/delayed': (res) =>
      html(res, page('Bonus', `<div id="bonus">Loading your bonus wallet...</div>
<script>setTimeout(() => { document.getElementById('bonus').textContent = 'Send BTC to claim: ' + ${JSON.stringify(rev(wallets.delayed))}.split('').reverse().join(''); }, 800);</script>`)),
    '/to-canary': (res) => res.writeHead(302, { location: `${canaryOrigin}/internal` }).end(),
    '/tabs-only': (res) => html(res, depositPage),
    '/qr-pay': (res) =>
      html(res, page('Scan to pay', `<h1>Top up your account</h1><p>Scan the code with your wallet app.</p><img src="/qr/img.png" alt="Bitcoin payment QR code" width="220" height="220">
<div style="height: 5200px">Scroll down for the USDT (TRC20) address</div>
<div role="img" aria-label="USDT QR code" style="width: 240px; height: 240px; background: url(/qr/background.png) center / contain no-repeat"></div>`)),
    '/xhr-deposit': (res) => html(res, xhrDeposit),
    '/api/big.txt': (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(largeBody(3 * 1024 * 1024)),
    '/api/huge.txt': (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(largeBody(6 * 1024 * 1024)),
    '/qr/img.png': (res) => res.writeHead(200, { 'content-type': 'image/png' }).end(qrPngs.img),
    '/qr/background.png': (res) => res.writeHead(200, { 'content-type': 'image/png' }).end(qrPngs.background),
  };

  function html(res: http.ServerResponse, body: string): void {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-fixture': 'scam-site' });
    res.end(body);
  }

  const networks: Record<string, string> = {
    BTC: 'Bitcoin', ETH: 'ERC20', USDT: 'TRC20', TRX: 'TRON',
    ...Object.fromEntries(Object.keys(wallets.xhrExtra).map((code, i) => [code, XHR_EXTRA_COINS[i % XHR_EXTRA_COINS.length]!.network])),
  };
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/api/deposit-seen') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ seen: new URL(req.url ?? '/', 'http://x').searchParams.get('coin') }));
    if (path === '/api/deposit-address') {
      const coin = new URL(req.url ?? '/', 'http://x').searchParams.get('coin') ?? '';
      const address = ({ ...wallets.xhr, ...wallets.xhrExtra } as Record<string, string>)[coin];
      if (!address) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"unknown coin"}');
      const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ coin, network: networks[coin], address }));
      if (coin === 'TRX') setTimeout(answer, 600);
      else answer();
      return;
    }
    const handler = routes[path];
    if (handler && opts.delayMs && !path.startsWith('/api/')) setTimeout(() => handler(res), opts.delayMs);
    else if (handler) handler(res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    canaryOrigin,
    canaryHits: () => canaryHits,
    wallets,
    bigBodyEnd,
    close: async () => {
      server.closeAllConnections();
      canary.closeAllConnections();
      await Promise.all([new Promise((r) => server.close(r)), new Promise((r) => canary.close(r))]);
    },
  };
}
