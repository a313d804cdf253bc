// A fixture deposit page (127.0.0.1) whose script rebuilds the whole wallet widget (the coin tab
// buttons and the panel) on every click, each coin showing its address another way:
// BTC in the panel after a short answer; ETH after a late one (1.2 s; "Loading…" meanwhile);
// USDT (TRC20) only through its Copy button (navigator.clipboard.writeText, kept reversed in the
// script, never in the DOM or a response); TRX only in the click's JSON answer (the panel says it
// was "sent"); LTC only as a QR image. Five addresses, each reachable only through its own tab.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { qrImage } from './qr-images';
import { makeAddresses } from './wallet-address-factory';

export interface RebuiltTabsFixture {
  url: string;
  /** Tab label -> the address it reveals. */
  wallets: Record<'BTC' | 'ETH' | 'USDT (TRC20)' | 'TRX' | 'LTC', string>;
  close(): Promise<void>;
}

export async function startRebuiltTabsFixture(): Promise<RebuiltTabsFixture> {
  const a = makeAddresses(1701);
  const b = makeAddresses(1702);
  const wallets = { BTC: a.btcSegwit, ETH: a.evm, 'USDT (TRC20)': a.tron, TRX: b.tron, LTC: a.ltc };
  const rev = (s: string) => [...s].reverse().join('');
  const qr = await qrImage([`litecoin:${wallets.LTC}`]);
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>Deposit</title></head><body>
<h1>Deposit</h1><p>Choose a coin for your personal deposit address.</p>
<div id="app"></div>
<script>
const TABS = ['BTC', 'ETH', 'USDT (TRC20)', 'TRX', 'LTC'];
const hidden = '${rev(wallets['USDT (TRC20)'])}';
let active = null;
function render(panel) {
  // The whole widget is replaced: new tab buttons, new panel, every time.
  document.getElementById('app').innerHTML =
    '<div class="tabs">' + TABS.map((t) => '<button class="coin' + (t === active ? ' on' : '') + '" data-coin="' + t + '">' + t + '</button>').join('') + '</div>' +
    '<div class="panel">' + panel + '</div>';
  document.querySelectorAll('.coin').forEach((btn) => btn.addEventListener('click', () => pick(btn.dataset.coin)));
  const copy = document.querySelector('.copy');
  if (copy) copy.addEventListener('click', () => navigator.clipboard.writeText([...hidden].reverse().join('')));
}
async function pick(coin) {
  active = coin;
  render('<p>Loading…</p>');
  if (coin === 'USDT (TRC20)') return render('<p>Your USDT address: T••••••••••••</p><button class="copy">Copy address</button>');
  if (coin === 'LTC') return render('<p>Scan to pay</p><img src="/qr/ltc.png" width="220" height="220" alt="QR">');
  const answer = await fetch('/api/address?coin=' + encodeURIComponent(coin)).then((r) => r.json());
  if (coin === 'TRX') return render('<p>Your TRX address was sent to your account.</p>');
  render('<p>Send ' + coin + ' only to:</p><p class="addr">' + answer.address + '</p>');
}
render('<p>Select a coin</p>');
</script></body></html>`;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/deposit') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    if (url.pathname === '/qr/ltc.png') return void setTimeout(() => res.writeHead(200, { 'content-type': 'image/png' }).end(qr), 500);
    if (url.pathname === '/api/address') {
      const coin = url.searchParams.get('coin') as keyof typeof wallets;
      const address = wallets[coin];
      if (!address) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"unknown coin"}');
      const delay = coin === 'ETH' ? 1200 : 300;
      return void setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ coin, address })), delay);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/deposit`, wallets, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
