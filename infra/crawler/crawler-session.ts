// A crawler's browser context for one scan, kept on the worker that opened it (activities of a scan
// run on that worker's own task queue). Every request the page makes goes through context.route:
// the egress check (URL and resolved addresses) and then one pinned HTTP exchange to the checked
// address, fulfilled back into the page; redirects come back to the browser, whose next request is
// checked again. WebSockets go through the same check; service workers are blocked. The session
// records what the capture needs: the document's status, headers, server IP and TLS details, a HAR
// of every exchange of the whole session (documents, XHR/fetch after clicks, scripts, frames,
// images) with its body up to the archive limits (a longer body kept in part, marked truncated and
// listed with the reason), JSON responses, and the requests it blocked.
import os from 'node:os';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserStep, STEP_DEADLINES } from './browser-step';
import { pinnedRequest, type TlsDetails } from './pinned-http';
import type { CrawlerProxy } from './proxy-tunnel';
import { CLIPBOARD_HOOK } from './page-actions';
import { visitorInitScript, visitorHeaders } from './visitor-disguise';
import { visitorProfile, type VisitorProfile } from '../../domain/investigations/visitor-profile';
import type { BlockedRequestInput } from '../../db/repositories/investigations/investigation-repository';

export type EgressVerdict = { allowed: true; addresses: string[] } | { allowed: false; reason: string; category?: string | null };
export type EgressCheck = (url: string) => Promise<EgressVerdict>;

export interface DocumentResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  serverIp: string;
  tls: TlsDetails | null;
  body: string;
}

interface HarEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; httpVersion: string; headers: Array<{ name: string; value: string }>; queryString: []; cookies: []; headersSize: -1; bodySize: number };
  response: {
    status: number; statusText: string; httpVersion: string; headers: Array<{ name: string; value: string }>; cookies: []; redirectURL: string;
    content: { size: number; mimeType: string; text?: string; encoding?: string }; headersSize: -1; bodySize: number;
  };
  serverIPAddress: string;
  /** The crawler's egress address on this exchange (evidence provenance). */
  _clientIPAddress?: string;
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  _resourceType: string;
  /** The body is kept only in part (`length`): `_truncatedReason` says why. */
  _truncated?: 'length';
  _truncatedReason?: string;
}

/** How much of the responses a session archives (SVC_SSI__MAX_RESPONSE_BODY_MB, SVC_SSI__MAX_ARCHIVE_MB). */
export interface ArchiveLimits {
  /** One response body: a longer one is kept up to here and marked truncated. */
  maxResponseBytes: number;
  /** All bodies of the session together: past it, bodies are recorded empty and marked truncated. */
  maxArchiveBytes: number;
}

/**
 * The bodies one HAR (one capture's exchanges) holds at most: a HAR is one JSON text, and V8's
 * strings end near 512 MB (base64 adds a third).
 */
const MAX_HAR_BODY_BYTES = 256 * 1024 * 1024;

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = { maxResponseBytes: 25 * 1024 * 1024, maxArchiveBytes: 500 * 1024 * 1024 };

/** A response whose body the archive does not hold whole, and why. */
export interface TruncatedResponse {
  url: string;
  reason: string;
}

/** Marks the stand-in page of an HTTP redirect (the DOM snapshot of a hop is never this page). */
export const REDIRECT_MARKER = 'fip:http-redirect';

function isRedirect(res: { status: number; headers: Record<string, string> }): boolean {
  return res.status >= 300 && res.status < 400 && !!res.headers.location;
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round((n / (1024 * 1024)) * 10) / 10} MB` : `${n} bytes`;
}

function redirectPage(target: string): string {
  const escaped = target.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<!doctype html><!-- ${REDIRECT_MARKER} --><meta http-equiv="refresh" content="0;url=${escaped}">`;
}

export class CrawlerSession {
  readonly blocked: BlockedRequestInput[] = [];
  readonly jsonResponses: Array<{ url: string; contentType: string; body: Buffer }> = [];
  /** Main-frame documents in the order they were answered (redirect hops included). */
  readonly documents: DocumentResponse[] = [];
  private har: HarEntry[] = [];
  private truncated: TruncatedResponse[] = [];
  private archivedBytes = 0;
  private pendingBodyBytes = 0;
  private closed = false;

  private constructor(
    readonly scanId: string,
    readonly context: BrowserContext,
    private current: Page,
    private readonly timeoutMs: number,
    private readonly limits: ArchiveLimits,
  ) {}

  /** The scan's tab (a new one after replacePage). */
  get page(): Page {
    return this.current;
  }

  /**
   * A context that looks like one visitor's (`opts.visitor`, default the scan's profile from
   * domain/investigations/visitor-profile.ts), reaching sites directly or through `opts.proxy`.
   */
  static async open(
    browser: Browser, scanId: string, egress: EgressCheck, timeoutMs: number, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
    opts: { visitor?: VisitorProfile; proxy?: CrawlerProxy } = {},
  ): Promise<CrawlerSession> {
    const visitor = opts.visitor ?? visitorProfile(scanId, browser.version());
    const context = await browserStep('new context', STEP_DEADLINES.close, () => browser.newContext({
      serviceWorkers: 'block',
      // Every request is answered by the route below; Chromium's own network (preconnects, DNS
      // prefetch, anything the route does not see) goes to a proxy that does not exist, loopback
      // included (<-loopback>), so nothing leaves the browser unchecked.
      proxy: { server: 'http://127.0.0.1:9', bypass: '<-loopback>' },
      ignoreHTTPSErrors: true,
      viewport: visitor.viewport,
      screen: visitor.screen,
      userAgent: visitor.userAgent,
      locale: visitor.locale,
      timezoneId: visitor.timezoneId,
      extraHTTPHeaders: { 'accept-language': visitor.acceptLanguage },
      acceptDownloads: false,
    }));
    try {
      await browserStep('visitor script', STEP_DEADLINES.close, () => context.addInitScript(visitorInitScript(visitor)));
      await browserStep('clipboard hook', STEP_DEADLINES.close, () => context.addInitScript(CLIPBOARD_HOOK));
      return await CrawlerSession.setUp(context, scanId, egress, timeoutMs, limits, visitor, opts.proxy);
    } catch (err) {
      // A context whose set-up did not finish is not left behind in the browser.
      await browserStep('close context', STEP_DEADLINES.close, () => context.close()).catch(() => undefined);
      throw err;
    }
  }

  private static async setUp(
    context: BrowserContext, scanId: string, egress: EgressCheck, timeoutMs: number, limits: ArchiveLimits, visitor: VisitorProfile, proxy: CrawlerProxy | undefined,
  ): Promise<CrawlerSession> {
    const page = await browserStep('new page', STEP_DEADLINES.close, () => context.newPage());
    const session = new CrawlerSession(scanId, context, page, timeoutMs, limits);
    page.setDefaultTimeout(timeoutMs);
    page.setDefaultNavigationTimeout(timeoutMs);
    await browserStep('route requests', STEP_DEADLINES.close, () => context.route('**/*', async (route) => {
      const request = route.request();
      const url = request.url();
      const verdict = await egress(url).catch((err: unknown) => ({ allowed: false as const, reason: `check failed: ${err instanceof Error ? err.message : String(err)}`, category: null }));
      if (!verdict.allowed) {
        session.blocked.push({ url, resourceType: request.resourceType(), reason: verdict.reason, category: verdict.category ?? null });
        await route.abort('blockedbyclient').catch(() => undefined);
        return;
      }
      const started = Date.now();
      try {
        const headers = visitorHeaders(await request.allHeaders(), visitor);
        delete headers.host;
        const exchange = (target: string, address: string) =>
          pinnedRequest({ url: target, method: request.method(), headers, body: request.postDataBuffer(), address, timeoutMs, maxBodyBytes: limits.maxResponseBytes, proxy });
        let current = url;
        const hopCookies: string[] = [];
        let res = await exchange(current, verdict.addresses[0]!);
        session.record(request.resourceType(), request.method(), current, headers, res, started);
        const isDocument = request.isNavigationRequest() && request.frame() === session.page.mainFrame();
        if (isDocument) session.documents.push({ url: current, status: res.status, headers: res.headers, serverIp: res.serverIp, tls: res.tls, body: res.body.toString('utf8') });
        // Chromium follows a fulfilled redirect without asking the route again, so a redirect never
        // reaches the browser: a document gets a page that navigates on (its next request is routed
        // and checked), a subresource is followed here, each hop checked.
        for (let hop = 0; isRedirect(res) && hop < 10; hop++) {
          const target = new URL(res.headers.location!, current).href;
          if (isDocument) {
            // The redirect's cookies (a log-in's session) are the browser's as a real redirect's would be.
            const cookies = res.headers['set-cookie'];
            await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: redirectPage(target), ...(cookies ? { headers: { 'content-type': 'text/html; charset=utf-8', 'set-cookie': cookies } } : {}) });
            return;
          }
          if (res.headers['set-cookie']) hopCookies.push(res.headers['set-cookie']);
          const next = await egress(target).catch(() => ({ allowed: false as const, reason: 'check failed', category: null }));
          if (!next.allowed) {
            session.blocked.push({ url: target, resourceType: request.resourceType(), reason: next.reason, category: next.category ?? null });
            await route.abort('blockedbyclient').catch(() => undefined);
            return;
          }
          current = target;
          res = await exchange(current, next.addresses[0]!);
          session.record(request.resourceType(), request.method(), current, headers, res, Date.now());
        }
        const answer = hopCookies.length ? { ...res.headers, 'set-cookie': [...hopCookies, res.headers['set-cookie']].filter(Boolean).join('\n') } : res.headers;
        await route.fulfill({ status: res.status, headers: answer, body: res.body });
      } catch {
        await route.abort('failed').catch(() => undefined);
      }
    }));
    await browserStep('route websockets', STEP_DEADLINES.close, () => context.routeWebSocket(/.*/, async (ws) => {
      const verdict = await egress(ws.url()).catch(() => ({ allowed: false as const, reason: 'check failed', category: null }));
      if (!verdict.allowed) {
        session.blocked.push({ url: ws.url(), resourceType: 'websocket', reason: verdict.reason, category: verdict.category ?? null });
        await ws.close({ code: 1008, reason: 'blocked by crawler policy' }).catch(() => undefined);
        return;
      }
      ws.connectToServer();
    }));
    return session;
  }

  private record(resourceType: string, method: string, url: string, reqHeaders: Record<string, string>, res: { status: number; headers: Record<string, string>; body: Buffer; serverIp: string; localIp?: string | null; truncated?: boolean }, started: number): void {
    const mimeType = res.headers['content-type'] ?? '';
    const textual = /^(text\/|application\/(json|javascript|xml|x-www-form-urlencoded)|image\/svg)/i.test(mimeType) || /\+json|\+xml/i.test(mimeType);
    const content: HarEntry['response']['content'] = { size: res.body.length, mimeType };
    let truncatedReason: string | null = res.truncated ? `the body is longer than the ${formatBytes(this.limits.maxResponseBytes)} archived per response; its first ${formatBytes(res.body.length)} are kept` : null;
    if (this.archivedBytes + res.body.length > this.limits.maxArchiveBytes) {
      truncatedReason = `the investigation's archive cap of ${formatBytes(this.limits.maxArchiveBytes)} is reached; the body (${formatBytes(res.body.length)}${res.truncated ? ' or more' : ''}) is not kept`;
    } else if (this.pendingBodyBytes + res.body.length > MAX_HAR_BODY_BYTES) {
      truncatedReason = `one capture's HAR holds at most ${formatBytes(MAX_HAR_BODY_BYTES)} of bodies; the body (${formatBytes(res.body.length)}) is not kept`;
    } else {
      this.archivedBytes += res.body.length;
      this.pendingBodyBytes += res.body.length;
      if (textual) content.text = res.body.toString('utf8');
      else { content.text = res.body.toString('base64'); content.encoding = 'base64'; }
    }
    if (truncatedReason) this.truncated.push({ url, reason: truncatedReason });
    this.har.push({
      startedDateTime: new Date(started).toISOString(),
      time: Date.now() - started,
      request: { method, url, httpVersion: 'HTTP/1.1', headers: Object.entries(reqHeaders).map(([name, value]) => ({ name, value })), queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
      response: {
        status: res.status, statusText: '', httpVersion: 'HTTP/1.1', headers: Object.entries(res.headers).map(([name, value]) => ({ name, value })), cookies: [],
        redirectURL: res.headers.location ?? '', content, headersSize: -1, bodySize: res.body.length,
      },
      serverIPAddress: res.serverIp,
      ...(res.localIp ? { _clientIPAddress: res.localIp } : {}),
      cache: {},
      timings: { send: 0, wait: Date.now() - started, receive: 0 },
      _resourceType: resourceType,
      ...(truncatedReason ? { _truncated: 'length' as const, _truncatedReason: truncatedReason } : {}),
    });
    if (/json/i.test(mimeType) && !truncatedReason) this.jsonResponses.push({ url, contentType: mimeType, body: res.body });
  }

  /** The HAR (1.2) of the exchanges since the last call, then starts a new one. */
  takeHar(): Buffer {
    const entries = this.har;
    this.har = [];
    this.pendingBodyBytes = 0;
    // browser and _platform: provenance for evidence bundles (which browser and host captured this).
    const browser = { name: 'Chromium', version: this.context.browser()?.version() ?? 'unknown' };
    const platform = { os: `${os.platform()} ${os.release()}`, arch: os.arch(), node: process.version };
    return Buffer.from(JSON.stringify({ log: { version: '1.2', creator: { name: 'fip-crawler', version: '1' }, browser, _platform: platform, pages: [], entries } }, null, 1));
  }

  /** Exchanges recorded since the last takeHar (a click's XHR answers, say). */
  get pendingExchanges(): number {
    return this.har.length;
  }

  /** Responses the archive holds only in part (or not at all) since the last call. */
  takeTruncated(): TruncatedResponse[] {
    return this.truncated.splice(0);
  }

  takeBlocked(): BlockedRequestInput[] {
    return this.blocked.splice(0);
  }

  takeJson(): Array<{ url: string; contentType: string; body: Buffer }> {
    return this.jsonResponses.splice(0);
  }

  /** The last main-frame document answered for this URL (or the last one at all). */
  documentFor(url: string): DocumentResponse | null {
    for (let i = this.documents.length - 1; i >= 0; i--) if (this.documents[i]!.url === url) return this.documents[i]!;
    return this.documents.at(-1) ?? null;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Closes the tab (a stuck page's renderer goes with it) and opens a fresh one in the same context
   * (cookies and routes kept), for the next page. Throws when the context itself does not answer.
   */
  async replacePage(): Promise<void> {
    const old = this.current;
    await browserStep('close page', STEP_DEADLINES.close, () => old.close({ runBeforeUnload: false })).catch(() => undefined);
    const page = await browserStep('new page', STEP_DEADLINES.close, () => this.context.newPage());
    page.setDefaultTimeout(this.timeoutMs);
    page.setDefaultNavigationTimeout(this.timeoutMs);
    this.current = page;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await browserStep('close context', STEP_DEADLINES.close, () => this.context.close()).catch(() => undefined);
  }
}
