// One headless Chromium per process, shared by every activity that renders HTML.
// Launched lazily on first use and again if it disconnected or crashed. Each call gets its own
// context and page, closed afterwards whatever happens. Pages never reach the network: every
// request is aborted (content arrives through page.setContent), JavaScript and service workers
// are off. Which Chromium, and with which flags, is infra/chromium.ts's decision; a browser that
// cannot start rejects with its ChromiumUnavailableError.
import type { Browser, Page, Route } from 'playwright-core';
import { launchChromium, type ResolvedChromium } from './chromium';

export interface BrowserProviderOptions {
  /** The Chromium to launch (resolveChromium), asked again at every launch. Never downloaded. */
  chromium: () => Promise<ResolvedChromium>;
  /** Default timeout of page operations in milliseconds. */
  pageTimeoutMs?: number;
}

export interface BrowserProvider {
  /** Runs `fn` with a fresh page in a fresh context; both are closed when `fn` settles. */
  withPage<T>(fn: (page: Page) => Promise<T>): Promise<T>;
  /** Closes the browser. Idempotent; afterwards withPage rejects. */
  close(): Promise<void>;
}

export class BrowserProviderClosedError extends Error {
  override name = 'BrowserProviderClosedError';
}

/** Only documents that carry their own bytes may load; anything that would fetch is aborted. */
function isLocalUrl(url: string): boolean {
  return url.startsWith('data:') || url.startsWith('about:');
}

async function blockNetwork(route: Route): Promise<void> {
  if (isLocalUrl(route.request().url())) await route.continue();
  else await route.abort('blockedbyclient');
}

export function createBrowserProvider(options: BrowserProviderOptions): BrowserProvider {
  const pageTimeoutMs = options.pageTimeoutMs ?? 60_000;
  let launching: Promise<Browser> | undefined;
  let closed = false;

  function launch(): Promise<Browser> {
    const started = options
      .chromium()
      .then(launchChromium)
      .then((browser) => {
        browser.on('disconnected', () => {
          if (launching === started) launching = undefined;
        });
        return browser;
      });
    // A failed launch is not cached: the next call tries again.
    started.catch(() => {
      if (launching === started) launching = undefined;
    });
    launching = started;
    return started;
  }

  async function browser(): Promise<Browser> {
    // A browser that died keeps its promise until its 'disconnected' event runs: relaunch then.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (closed) throw new BrowserProviderClosedError('browser provider is closed');
      const pending = launching ?? launch();
      const current = await pending;
      if (current.isConnected()) return current;
      if (launching === pending) launching = undefined;
    }
    throw new Error('Chromium keeps disconnecting right after launch');
  }

  return {
    async withPage<T>(fn: (page: Page) => Promise<T>): Promise<T> {
      const context = await (await browser()).newContext({
        javaScriptEnabled: false,
        serviceWorkers: 'block',
        acceptDownloads: false,
        offline: true,
      });
      try {
        context.setDefaultTimeout(pageTimeoutMs);
        await context.route('**/*', blockNetwork);
        const page = await context.newPage();
        return await fn(page);
      } finally {
        // The browser may be gone (crash, close()); there is nothing left to clean up then.
        await context.close().catch(() => undefined);
      }
    },

    async close(): Promise<void> {
      closed = true;
      const current = launching;
      launching = undefined;
      if (!current) return;
      const b = await current.catch(() => undefined);
      await b?.close().catch(() => undefined);
    },
  };
}
