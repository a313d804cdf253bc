// A hostile scam site for crawler-safety tests, on 127.0.0.1 only: a page with a frame of every
// non-web scheme beside an ordinary frame, a page whose script loops forever after its load, and
// ordinary pages carrying a wallet each (makeAddresses), so that what was captured can be checked.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeAddresses } from './wallet-address-factory';

/** Every frame source the crawler must skip rather than wait on. */
export const NON_WEB_FRAME_SOURCES = [
  'file:///etc/passwd',
  'chrome://version',
  'chrome://settings',
  'chrome-extension://aaaabbbbccccddddeeeeffffgggghhhh/popup.html',
  'view-source:http://127.0.0.1/',
  'devtools://devtools/bundled/inspector.html',
  'about:settings',
  "javascript:'<p>hi</p>'",
] as const;

export interface HostileSiteFixture {
  origin: string;
  port: number;
  wallets: { normal: string; inner: string; frames: string };
  close(): Promise<void>;
}

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

export async function startHostileSiteFixture(): Promise<HostileSiteFixture> {
  const a = makeAddresses(811);
  const wallets = { normal: a.evm, inner: a.btcSegwit, frames: a.tron };
  const routes: Record<string, string> = {
    '/frames': page(
      'Partners',
      `<h1>Our partners</h1><p>Pay in USDT (TRC20): ${wallets.frames}</p>
${NON_WEB_FRAME_SOURCES.map((src) => `<iframe src="${attr(src)}" width="200" height="80"></iframe>`).join('\n')}
<iframe src="/inner" width="400" height="80"></iframe><iframe srcdoc="<p>inline partner</p>"></iframe>
<a href="/normal">Deposit</a>`,
    ),
    '/inner': page('Partner', `<p>BTC: ${wallets.inner}</p>`),
    '/normal': page('Deposit', `<h1>Deposit</h1><p>Send ETH to ${wallets.normal}</p>`),
    // The stuck page is a deposit page, so it is explored first and the normal page after it.
    '/start': page('Welcome', `<h1>Welcome</h1><a href="/normal">About us</a> <a href="/stuck">Deposit bonus</a>`),
    // Loads, then its script never gives the renderer back: every later step on it would wait forever.
    '/stuck': page('Bonus', `<p>Claim your bonus</p><script>addEventListener('load', () => setTimeout(() => { for (;;) {} }, 100));</script>`),
  };
  const server = http.createServer((req, res) => {
    const body = routes[(req.url ?? '/').split('?')[0]!];
    if (body) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
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
    wallets,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
