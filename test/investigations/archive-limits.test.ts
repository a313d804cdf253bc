// The crawler session's archive limits, through its real path (sandboxed Chromium, routed requests):
// a body within the per-response limit is kept whole, a longer one in part, and past the session's
// archive cap bodies are kept empty; each one cut is marked in the HAR and listed with its reason.
// Exchanges that come after the load (a fetch on a timer) are in the session's HAR too.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolveChromium } from '../../infra/chromium';
import { checkChromiumSandbox } from '../../infra/chromium-sandbox';
import { createCrawlerBrowser, type CrawlerBrowser } from '../../infra/crawler/crawler-browser';
import { CrawlerSession } from '../../infra/crawler/crawler-session';
import { navigate } from '../../infra/crawler/page-actions';
import { waitFor } from '../support/wait-for';

const MB = 1024 * 1024;

interface Entry {
  request: { url: string };
  response: { content: { size: number; text?: string } };
  _truncated?: string;
  _truncatedReason?: string;
}

describe('the crawler archives response bodies within its limits, never silently', function () {
  this.timeout(120_000);
  let server: http.Server;
  let origin: string;
  let crawler: CrawlerBrowser | undefined;

  before(async () => {
    const bodies: Record<string, Buffer> = { '/a.txt': Buffer.alloc(2 * MB, 'a'), '/b.txt': Buffer.alloc(3 * MB, 'b'), '/c.txt': Buffer.alloc(2 * MB, 'c'), '/late.json': Buffer.from('{"late":true}') };
    server = http.createServer((req, res) => {
      if (req.url === '/') {
        res.writeHead(200, { 'content-type': 'text/html' });
        // a (2 MB) whole; b (3 MB) over the 2.5 MB limit, cut; c (2 MB) past the 5 MB cap, empty; late after the load.
        res.end(`<!doctype html><title>limits</title><script>
(async () => { for (const p of ['/a.txt', '/b.txt', '/c.txt']) await fetch(p).then((r) => r.text()); setTimeout(() => fetch('/late.json'), 500); })();
</script>`);
        return;
      }
      const body = bodies[req.url ?? ''];
      if (!body) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': req.url!.endsWith('.json') ? 'application/json' : 'text/plain' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await crawler?.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('keeps a body within the limit whole, cuts a longer one at the limit, keeps none past the cap, and lists each with the reason', async () => {
    crawler = createCrawlerBrowser(() => resolveChromium(), checkChromiumSandbox(), { allowUnsandboxed: false });
    const limits = { maxResponseBytes: 2.5 * MB, maxArchiveBytes: 5 * MB };
    const session = await CrawlerSession.open(await crawler.get(), 'archive-limits', async () => ({ allowed: true, addresses: ['127.0.0.1'] }), 20_000, limits);
    try {
      await navigate(session.page, `${origin}/`, 20_000);
      await waitFor('the late fetch', async () => (session.pendingExchanges >= 5 ? true : null), 20_000, 100);
      const entries = (JSON.parse(session.takeHar().toString('utf8')) as { log: { entries: Entry[] } }).log.entries;
      const of = (p: string) => entries.find((e) => e.request.url === `${origin}${p}`)!;
      assert.equal(of('/a.txt').response.content.text?.length, 2 * MB);
      assert.equal(of('/a.txt')._truncated, undefined);
      assert.equal(of('/b.txt').response.content.text?.length, 2.5 * MB, 'kept up to the per-response limit');
      assert.equal(of('/b.txt')._truncated, 'length');
      assert.equal(of('/c.txt').response.content.text, undefined, 'past the archive cap: no body');
      assert.equal(of('/c.txt')._truncated, 'length');
      assert.equal(of('/late.json').response.content.text, '{"late":true}', 'an answer after the load is in the HAR');
      const truncated = session.takeTruncated();
      assert.deepEqual(truncated.map((t) => t.url), [`${origin}/b.txt`, `${origin}/c.txt`]);
      assert.match(truncated[0]!.reason, /longer than the 2\.5 MB archived per response; its first 2\.5 MB are kept/);
      assert.match(truncated[1]!.reason, /archive cap of 5 MB is reached/);
      assert.equal(of('/c.txt')._truncatedReason, truncated[1]!.reason);
    } finally {
      await session.close();
    }
  });
});
