// The crawler's Chromium: one per worker process, separate from the report renderer's (whose
// network is closed). Launched on first use and again after a crash, with its sandbox on and, as
// root, as an unprivileged user (infra/chromium-sandbox.ts); a browser that cannot start is
// ApplicationFailure 'ChromiumUnavailable', and one whose sandbox cannot run here is
// 'CrawlerSandboxUnavailable' unless SVC_CRAWLER__ALLOW_UNSANDBOXED (messages for the operator).
import os from 'node:os';
import { ApplicationFailure } from '@temporalio/common';
import type { Browser } from 'playwright-core';
import { ChromiumUnavailableError, launchChromium, type ResolvedChromium } from '../chromium';
import type { ChromiumSandbox } from '../chromium-sandbox';

/** Flags of the crawler's Chromium on top of the platform's: nothing tells pages it is automated. */
export const VISITOR_ARGS: readonly string[] = ['--disable-blink-features=AutomationControlled'];

export interface CrawlerBrowser {
  get(): Promise<Browser>;
  close(): Promise<void>;
}

export function createCrawlerBrowser(chromium: () => Promise<ResolvedChromium>, sandbox: ChromiumSandbox, opts: { allowUnsandboxed: boolean }): CrawlerBrowser {
  let launching: Promise<Browser> | undefined;
  let closed = false;
  return {
    get() {
      if (closed) return Promise.reject(new Error('the crawler browser is closed'));
      if (!sandbox.available && !opts.allowUnsandboxed) {
        return Promise.reject(
          ApplicationFailure.nonRetryable(
            `the crawler will not browse without Chromium's sandbox: ${sandbox.problem}. Let the sandbox run, or set SVC_CRAWLER__ALLOW_UNSANDBOXED=true to accept the risk`,
            'CrawlerSandboxUnavailable',
          ),
        );
      }
      if (!launching) {
        const started = chromium()
          // A visitor's browser: no automation banner or flag (navigator.webdriver stays false).
          .then((resolved) => launchChromium({ ...resolved, args: [...resolved.args, ...VISITOR_ARGS] }, sandbox, { ignoreDefaultArgs: ['--enable-automation'] }))
          .then((browser) => {
            browser.on('disconnected', () => {
              if (launching === started) launching = undefined;
            });
            return browser;
          })
          .catch((err: unknown) => {
            if (launching === started) launching = undefined;
            if (err instanceof ChromiumUnavailableError) throw ApplicationFailure.nonRetryable(err.message, 'ChromiumUnavailable');
            throw err;
          });
        launching = started;
      }
      return launching;
    },
    async close() {
      closed = true;
      const b = await launching?.catch(() => undefined);
      await b?.close().catch(() => undefined);
    },
  };
}

/**
 * The task queue of this worker's browser activities: the platform queue, the host and an instance
 * name (SVC_WORKER__INSTANCE, default the host name). A worker restarted with the same instance
 * name polls the same queue, so a scan's next browser step (or a retried one) reaches it.
 */
export function browserTaskQueue(taskQueue: string, instance: string | undefined): string {
  return `${taskQueue}/browser/${instance ?? os.hostname()}`;
}
