// Fixture "kit families" for similarity tests, each site its own server on 127.0.0.1 (so all share
// one hosting address, loopback): kit A on three sites with different brands, colours, wallets and
// paths (the same page structure, kit script, stylesheet and favicon; its own logo); kit B and kit C,
// two different kits that share one wallet; an unrelated scam site; a benign page. Each instance
// is an edition of its own (markup, text and asset bytes), so two test files' instances in one
// database never link to each other.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeAddresses } from './wallet-address-factory';

export interface FixtureSite {
  name: string;
  /** The page to investigate. */
  url: string;
  wallet: string | null;
}

export interface KitFamilyFixture {
  sites: Record<'a1' | 'a2' | 'a3' | 'b1' | 'c1' | 'unrelated' | 'benign', FixtureSite>;
  close(): Promise<void>;
}

const KIT_A_SCRIPT = `(function () {
  var plans = document.querySelectorAll('.plan button');
  plans.forEach(function (b) { b.addEventListener('click', function () { document.querySelector('.deposit').scrollIntoView(); }); });
  var copy = document.getElementById('copy');
  if (copy) copy.addEventListener('click', function () { navigator.clipboard && navigator.clipboard.writeText(document.getElementById('addr').textContent); });
  window.kitVersion = 'vault-kit 2.4.1';
})();
`;
const KIT_A_CSS = `body{font-family:system-ui,sans-serif;margin:0}.hdr{display:flex;justify-content:space-between;padding:16px;background:var(--brand)}
.hero{padding:64px 24px;text-align:center}.plans{display:grid;grid-template-columns:repeat(3,1fr);gap:16px;padding:24px}
.plan{border:1px solid #ddd;border-radius:8px;padding:16px}.deposit{padding:24px}footer{padding:24px;color:#666}
`;
/** The kit's default favicon (what Shodan-style favicon hashes find across a kit's sites). */
const KIT_A_FAVICON = Buffer.from('AAABAAEAEBAAAAEAIABoBAAAFgAAACgAAAAQAAAAIAAAAAEAIAAAAAAAAAQAABMLAAATCwAAAAAAAAAAAAD///8A////AP///wD///8A////AP///wD///8A////AP///wD///8A'.repeat(8), 'base64');

function kitA(brand: string, colour: string, wallet: string, base: string): string {
  const plan = (name: string, rate: string) => `<div class="plan"><h3>${name}</h3><p>Daily return ${rate}, principal back at the end of the term.</p><button type="button">Invest</button></div>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${brand} | Secure crypto staking</title>
<link rel="icon" href="/static/favicon.ico"><link rel="stylesheet" href="/static/kit.css"><style>:root{--brand:${colour}}</style></head>
<body><header class="hdr"><img class="logo" src="/img/${brand.toLowerCase()}-logo.svg" alt="${brand}"><nav><a href="${base}/plans">Plans</a> <a href="${base}/faq">FAQ</a> <a href="${base}/login">Sign in</a></nav></header>
<main><section class="hero"><h1>Grow your savings with ${brand}</h1><p>Our trading robots work around the clock so that your deposit earns every day. Join thousands of members who withdraw profits every week without fees.</p><a class="cta" href="${base}/register">Open an account</a></section>
<section class="plans">${plan('Starter', '2.5%')}${plan('Premium', '4%')}${plan('Elite', '6%')}</section>
<section class="deposit"><h2>Make a deposit</h2><p>Send USDT on the Ethereum network only to your personal address:</p><p><code id="addr">${wallet}</code> <button id="copy" type="button">Copy</button></p><p>Deposits are credited after two confirmations.</p></section>
<form method="post" action="${base}/subscribe"><label>E-mail <input type="email" name="email"></label><button type="submit">Get signals</button></form></main>
<footer><p>Licensed and regulated. Capital guaranteed by our insurance fund.</p><p>Support around the clock in the chat.</p></footer>
<script src="/static/app.js"></script></body></html>`;
}

function kitB(wallet: string): string {
  const row = (c: string, p: string) => `<tr><td>${c}</td><td>${p}</td><td><a href="#trade">Trade</a></td></tr>`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>Apex Mining Pool</title></head><body>
<div id="app"><aside><ul><li><a href="#dash">Dashboard</a></li><li><a href="#pool">Pool</a></li><li><a href="#wd">Withdraw</a></li></ul></aside>
<article><h2>Cloud mining contracts</h2><table><thead><tr><th>Coin</th><th>Hashrate price</th><th></th></tr></thead><tbody>${row('BTC', '$12/TH')}${row('ETH', '$9/MH')}${row('LTC', '$4/GH')}</tbody></table>
<dl><dt>Pool wallet</dt><dd>${wallet}</dd><dt>Minimum</dt><dd>100 USDT</dd></dl></article></div></body></html>`;
}

function kitC(wallet: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Official giveaway</title></head><body>
<center><h1>5000 ETH GIVEAWAY</h1><h3>Send between 0.1 and 20 ETH and receive twice as much back</h3>
<ol><li>Send any amount to the address below</li><li>Wait ten minutes</li><li>Receive double to the sending address</li></ol>
<blockquote>${wallet}</blockquote><marquee>Last transactions: 2.4 ETH sent, 4.8 ETH received</marquee><small>Only one participation per wallet</small></center></body></html>`;
}

function unrelated(wallet: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Recover your lost funds</title></head><body>
<form action="/claim" method="post"><fieldset><legend>Fund recovery request</legend>
<p><label>Name <input name="fullname"></label></p><p><label>Amount lost <input name="amount" type="number"></label></p><p><label>Scam website <input name="site" type="url"></label></p>
<p><label><input type="checkbox" name="agree"> I accept the recovery fee</label></p><p>Pay the fee to ${wallet} to start the recovery.</p><p><button>Send request</button></p></fieldset></form></body></html>`;
}

const BENIGN = `<!doctype html><html><head><meta charset="utf-8"><title>Garden diary</title></head><body>
<h1>Tomatoes in November</h1><p>The last green tomatoes ripen on the windowsill. Wrap them in paper and keep them away from the sun.</p>
<h2>Next year</h2><p>Plant earlier, water less, and stake every plant before it flowers.</p></body></html>`;

function logo(brand: string, colour: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40"><rect width="160" height="40" fill="${colour}"/><text x="8" y="26" font-size="18" fill="#fff">${brand}</text></svg>`;
}

async function serve(pages: Record<string, { type: string; body: string | Buffer }>): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const page = pages[(req.url ?? '/').split('?')[0]!];
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': page.type }).end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

export async function startKitFamilyFixture(seed: number): Promise<KitFamilyFixture> {
  const html = 'text/html; charset=utf-8';
  // One edition per kit of this instance: another instance's (or test's) copies of the same kits differ from these.
  const edition = `${seed}-${Math.random().toString(36).slice(2, 10)}`;
  const shared = makeAddresses(seed + 50).evm;
  // The kit's script, stylesheet and favicon in this instance's edition too: the same in its three
  // sites, not the same bytes as another instance's (assets and favicon hashes would link them).
  const kitAStatic = {
    '/static/app.js': { type: 'text/javascript', body: `${KIT_A_SCRIPT}/* ${edition} */\n` },
    '/static/kit.css': { type: 'text/css', body: `${KIT_A_CSS}/* ${edition} */\n` },
    '/static/favicon.ico': { type: 'image/x-icon', body: Buffer.concat([KIT_A_FAVICON, Buffer.from(edition)]) },
  };
  const defs: Array<[keyof KitFamilyFixture['sites'], string, string | null, Record<string, { type: string; body: string | Buffer }>]> = [];
  const a = [['Nordvault', '#1d4ed8', '/invest'], ['Sunrise Capital', '#ea580c', '/en/app'], ['Tigerstake', '#15803d', '/start']] as const;
  a.forEach(([brand, colour, base], i) => {
    const wallet = makeAddresses(seed + i).evm;
    defs.push([(['a1', 'a2', 'a3'] as const)[i]!, `${base}/home`, wallet, {
      [`${base}/home`]: { type: html, body: inEdition(kitA(brand, colour, wallet, base), `${edition}-a`) },
      [`/img/${brand.toLowerCase()}-logo.svg`]: { type: 'image/svg+xml', body: `${logo(brand, colour)}<!-- ${edition} -->` },
      ...kitAStatic,
    }]);
  });
  defs.push(['b1', '/pool', shared, { '/pool': { type: html, body: inEdition(kitB(shared), `${edition}-b`) } }]);
  defs.push(['c1', '/giveaway', shared, { '/giveaway': { type: html, body: inEdition(kitC(shared), `${edition}-c`) } }]);
  const lone = makeAddresses(seed + 60).evm;
  defs.push(['unrelated', '/recovery', lone, { '/recovery': { type: html, body: inEdition(unrelated(lone), `${edition}-u`) } }]);
  defs.push(['benign', '/diary', null, { '/diary': { type: html, body: inEdition(BENIGN, `${edition}-n`) } }]);
  const servers = await Promise.all(defs.map(([, , , pages]) => serve(pages)));
  const sites = Object.fromEntries(defs.map(([name, path, wallet], i) => [name, { name, url: `${servers[i]!.origin}${path}`, wallet }])) as KitFamilyFixture['sites'];
  return { sites, close: async () => void (await Promise.all(servers.map((s) => s.close()))) };
}

/** The kit-A page for unit tests (brand, colour, wallet and path vary; the kit does not). */
export const kitAPage = kitA;
export const kitBPage = kitB;
export const kitCPage = kitC;
export const unrelatedPage = unrelated;
export const BENIGN_PAGE = BENIGN;

/**
 * A block of markup of its own per `edition` (the same edition, the same block): added to a test's
 * pages so that they share a structure with each other and with no other test's copy of the same
 * kit in the run's database (the similarity index answers across every investigation there).
 */
export function editionBlock(edition: string, elements = 240): string {
  let x = 2166136261;
  for (const ch of edition) x = Math.imul(x ^ ch.charCodeAt(0), 16777619) >>> 0;
  const next = () => {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return x;
  };
  const tags = ['div', 'span', 'ul', 'li', 'section', 'p', 'em', 'strong', 'article', 'aside', 'small', 'label', 'figure', 'table', 'i', 'b'];
  const out: string[] = [];
  const open: string[] = [];
  for (let i = 0; i < elements; i++) {
    if (open.length > 0 && next() % 3 === 0) out.push(`</${open.pop()}>`);
    const tag = tags[next() % tags.length]!;
    out.push(`<${tag} class="e${(next() % 97).toString(36)}" data-k="${(next() % 50).toString(36)}">`);
    open.push(tag);
    if (open.length > 6) out.push(`</${open.pop()}>`);
  }
  while (open.length) out.push(`</${open.pop()}>`);
  // And text of its own (the fingerprint reads the text of hidden elements too): other instances'
  // copies of a kit share its words only in the kit's own text, well under the link threshold.
  const letters = 'abcdefghijklmnoprstuvwy';
  const words = Array.from({ length: 300 }, () => Array.from({ length: 4 + (next() % 5) }, () => letters[next() % letters.length]).join(''));
  return `<div hidden class="edition">${out.join('')}<p>${words.join(' ')}</p></div>`;
}

/** `page` with its edition block just before </body>. */
export function inEdition(page: string, edition: string): string {
  return page.replace('</body>', `${editionBlock(edition)}</body>`);
}
