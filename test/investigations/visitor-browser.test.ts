// The investigation browser looks like one visitor's, through its real path (sandboxed Chromium,
// routed requests): a loopback page reads what sites read (navigator.webdriver, userAgent and its
// client hints, languages, platform, time zone, window size) and reports it, and the server sees the
// matching headers. With a proxy, the crawler's requests go through it (a loopback CONNECT proxy
// sees them); the proxy itself passes the egress policy like any target.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { ApplicationFailure } from '@temporalio/common';
import { resolveChromium } from '../../infra/chromium';
import { checkChromiumSandbox } from '../../infra/chromium-sandbox';
import { createCrawlerBrowser, type CrawlerBrowser } from '../../infra/crawler/crawler-browser';
import { checkProxy, createEgressCheck } from '../../infra/crawler/crawler-egress';
import { CrawlerSession } from '../../infra/crawler/crawler-session';
import { navigate } from '../../infra/crawler/page-actions';
import { EMPTY_ALLOW_LIST, parseAllowList } from '../../domain/investigations/egress-policy';
import { visitorProfile } from '../../domain/investigations/visitor-profile';
import { startConnectProxy, type ConnectProxy } from '../support/connect-proxy';
import { startSocks5Proxy } from '../support/socks5-proxy';
import { waitFor } from '../support/wait-for';

interface Report {
  webdriver: boolean;
  userAgent: string;
  brands: string[];
  languages: string[];
  language: string;
  platform: string;
  timeZone: string;
  width: number;
  screenWidth: number;
}

const PAGE = `<!doctype html><title>who are you</title><script>
(async () => {
  const uad = navigator.userAgentData;
  const report = {
    webdriver: navigator.webdriver, userAgent: navigator.userAgent,
    brands: uad ? uad.brands.map((b) => b.brand) : [],
    languages: Array.from(navigator.languages), language: navigator.language, platform: navigator.platform,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, width: window.innerWidth, screenWidth: screen.width,
  };
  await fetch('/report', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(report) });
})();
</script>`;

describe('the investigation browser looks like a visitor and can go through a proxy', function () {
  this.timeout(120_000);
  let server: http.Server;
  let origin: string;
  let crawler: CrawlerBrowser;
  let proxy: ConnectProxy;
  const reports: Report[] = [];
  const headers: http.IncomingHttpHeaders[] = [];
  const allowLoopback = createEgressCheck(parseAllowList('127.0.0.1'));

  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/report') {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          reports.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Report);
          res.writeHead(204).end();
        });
        return;
      }
      headers.push(req.headers);
      res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    proxy = await startConnectProxy();
    crawler = createCrawlerBrowser(() => resolveChromium(), checkChromiumSandbox(), { allowUnsandboxed: false });
  });
  after(async () => {
    await crawler.close();
    await proxy.close();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    reports.length = 0;
    headers.length = 0;
  });

  it('shows pages no automation flag and a consistent visitor: user agent of the real version, languages, platform, time zone, viewport', async () => {
    const browser = await crawler.get();
    const scanId = 'visitor-profile-1';
    const visitor = visitorProfile(scanId, browser.version());
    const session = await CrawlerSession.open(browser, scanId, allowLoopback, 20_000);
    try {
      await navigate(session.page, `${origin}/`, 20_000);
      const r = await waitFor('the page\'s report', async () => reports[0], 20_000);
      assert.equal(r.webdriver, false, 'navigator.webdriver is false');
      assert.doesNotMatch(r.userAgent, /Headless/i);
      assert.equal(r.userAgent, visitor.userAgent);
      assert.match(r.userAgent, new RegExp(`Chrome/${browser.version().split('.')[0]}\\.0\\.0\\.0 `), 'the real Chromium major version');
      assert.ok(r.brands.every((b) => !/Headless/i.test(b)), `client-hint brands: ${r.brands.join(', ')}`);
      assert.deepEqual(r.languages, visitor.languages);
      assert.equal(r.language, visitor.languages[0]);
      assert.equal(r.platform, 'Linux x86_64');
      assert.equal(r.timeZone, visitor.timezoneId);
      assert.equal(r.width, visitor.viewport.width);
      assert.equal(r.screenWidth, visitor.screen.width);
      const h = headers[0]!;
      assert.equal(h['user-agent'], visitor.userAgent);
      assert.equal(h['accept-language'], visitor.acceptLanguage);
      assert.doesNotMatch(String(h['sec-ch-ua'] ?? ''), /Headless/i);
    } finally {
      await session.close();
    }
  });

  it('gives two investigations their own profile, and the same scan always the same one', () => {
    const seen = new Set(Array.from({ length: 20 }, (_, i) => JSON.stringify(visitorProfile(`scan-${i}`, '131.0.6778.85'))));
    assert.ok(seen.size > 1, 'profiles vary between investigations');
    assert.deepEqual(visitorProfile('scan-7', '131.0.6778.85'), visitorProfile('scan-7', '131.0.6778.85'));
  });

  it('sends the crawler\'s requests through the proxy when one is set', async () => {
    const checked = await checkProxy(allowLoopback, proxy.url);
    const session = await CrawlerSession.open(await crawler.get(), 'visitor-proxy', allowLoopback, 20_000, undefined, { proxy: checked });
    try {
      await navigate(session.page, `${origin}/`, 20_000);
      await waitFor('the page\'s report', async () => reports[0], 20_000);
      const target = origin.replace('http://', '');
      assert.ok(proxy.connects.filter((c) => c === target).length >= 2, `the page and its fetch went through the proxy: ${proxy.connects.join(', ')}`);
      assert.equal(headers.length, 1, 'the site saw the page request');
    } finally {
      await session.close();
    }
  });

  it('reaches an https site through the proxy (TLS inside the tunnel, the certificate recorded)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-proxy-tls-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=proxied.test', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
    const tlsServer = https.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>over tls</title><p>secure</p>');
    });
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    const port = (tlsServer.address() as AddressInfo).port;
    const session = await CrawlerSession.open(await crawler.get(), 'visitor-proxy-tls', allowLoopback, 20_000, undefined, { proxy: await checkProxy(allowLoopback, proxy.url) });
    try {
      await navigate(session.page, `https://127.0.0.1:${port}/`, 20_000);
      assert.equal(await session.page.title(), 'over tls');
      assert.ok(proxy.connects.includes(`127.0.0.1:${port}`), 'the https request went through the proxy');
      const doc = session.documentFor(`https://127.0.0.1:${port}/`);
      assert.match(doc?.tls?.subject ?? '', /CN=proxied\.test/, 'the site\'s certificate, read through the tunnel');
      assert.equal(doc?.serverIp, '127.0.0.1');
    } finally {
      await session.close();
      await new Promise((resolve) => tlsServer.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('goes through a SOCKS5 proxy with user and password', async () => {
    const socks = await startSocks5Proxy({ user: 'inv user', password: 'p@ss:w0rd' });
    try {
      const session = await CrawlerSession.open(await crawler.get(), 'visitor-socks', allowLoopback, 20_000, undefined, { proxy: await checkProxy(allowLoopback, socks.url) });
      try {
        await navigate(session.page, `${origin}/`, 20_000);
        await waitFor('the page\'s report', async () => reports[0], 20_000);
      } finally {
        await session.close();
      }
      const target = origin.replace('http://', '');
      assert.ok(socks.connects.filter((c) => c === target).length >= 2, `the page and its fetch went through the proxy: ${socks.connects.join(', ')}`);
      assert.ok(socks.users.length >= 2 && socks.users.every((u) => u === 'inv user'), 'it authenticated with the URL\'s user');
    } finally {
      await socks.close();
    }
  });

  it('refuses a proxy on a private address unless the egress exceptions allow it', async () => {
    await assert.rejects(checkProxy(createEgressCheck(EMPTY_ALLOW_LIST), proxy.url), (err: unknown) => {
      assert.ok(err instanceof ApplicationFailure);
      assert.equal(err.type, 'InvestigationProxyBlocked');
      assert.equal(err.nonRetryable, true);
      assert.match(err.message, /may not use the proxy 127\.0\.0\.1:\d+: /);
      return true;
    });
    await assert.rejects(checkProxy(allowLoopback, 'ftp://127.0.0.1:21'), /proxy scheme ftp: is not supported/);
    const ok = await checkProxy(allowLoopback, `socks5://user:pw@127.0.0.1:${proxy.port}`);
    assert.deepEqual(ok, { settings: { scheme: 'socks5', host: '127.0.0.1', port: proxy.port, username: 'user', password: 'pw' }, address: '127.0.0.1' });
  });
});
