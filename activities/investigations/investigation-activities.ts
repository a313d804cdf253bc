// The activities of an investigation. Two kinds:
// - shared-queue activities (state changes, the worker's own browser queue, the final sweep), and
// - browser activities, which run on the task queue of the worker that holds the scan's browser
//   context (Temporal samples-typescript "worker-specific-task-queues"): navigate, capture a page,
//   discover coin tabs, close. A browser activity that finds no session for its scan (the worker was
//   restarted) opens a new one and carries on: every write is idempotent, and the coin-tab activity
//   resumes from its heartbeat details (the tabs already clicked).
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import type { Browser } from 'playwright-core';
import type { AppConfig } from '../../config/config';
import { currentContext, withCancellableHeartbeat } from '../../infra/activity-heartbeat';
import { readBlob, type BlobStore } from '../../infra/blob-store';
import type { Logger } from '../../infra/logger';
import {
  appendActions,
  countPages,
  findInvestigation,
  insertBlockedRequests,
  insertPage,
  insertResponses,
  listPages,
  listResponses,
  setInvestigationState,
  type AgentAction,
  type InvestigationStatus,
  type RedirectHop,
  REVEAL_MARK,
} from '../../db/repositories/investigations/investigation-repository';
import { nextPages, pageKey } from '../../domain/investigations/page-links';
import { extractPagePii } from '../../domain/investigations/page-pii';
import type { AllowlistPair } from '../../domain/wallets/wallet-types';
import type { WalletLlmVerifier } from '../../services/wallets/llm-verification';
import type { FunnelPlanner } from '../../domain/investigations/funnel';
import { CrawlerSession, type EgressCheck } from '../../infra/crawler/crawler-session';
import { checkProxy } from '../../infra/crawler/crawler-egress';
import { BrowserStepTimeout, STEP_DEADLINES, isPageFailure, stepFailureReason, withPageBudget } from '../../infra/crawler/browser-step';
import { changeRoute, clickCoinTab, clickElement, fillElement, markCoinTabs, navigate, pause, settle, waitForText, waitForUrlChange } from '../../infra/crawler/page-actions';
import { captureAfterReveal, captureDomSnapshot, captureLinks, captureScreenshot, captureTitle, captureVisibleText, pageFrames, type SkippedFrame } from '../../infra/crawler/page-capture';
import { qrCandidateShots } from '../../infra/crawler/page-images';
import { recordImageWallets, recordPageEntities, recordSnapshotWallets } from '../../services/investigations/record-findings';
import { recordTruncatedResponses, storeLateExchanges, storeReveal } from '../../services/investigations/reveal-records';
import { readCoinTab } from '../../services/investigations/coin-tab-reads';
import type { PlaybookStepInput } from '../../domain/investigations/investigation-request';
import { createFunnelActivities } from './funnel-activities';

export interface InvestigationActivityDeps {
  knex: Knex;
  blobs: BlobStore;
  log: Logger;
  config: AppConfig;
  allowlist: readonly AllowlistPair[];
  verifier?: WalletLlmVerifier;
  /** The funnel's LLM planner, last of the decision cascade; absent without an Anthropic key. */
  planner?: FunnelPlanner;
  /** The crawler's own browser (not the report renderer's, whose network is closed). */
  browser: () => Promise<Browser>;
  egress: EgressCheck;
  /** This worker's own task queue for browser activities. */
  browserQueue: string;
  /**
   * false: no after-reveal captures (screenshot, DOM snapshot and the click's exchanges as records of
   * their own), as before they existed. Internal: only bench/evidence.bench.ts's baseline sets it;
   * it is not a setting.
   */
  revealCaptures?: boolean;
}

export interface BrowserStepInput {
  scanId: string;
  pageTimeoutS: number;
}

export interface NavigateResult {
  finalUrl: string;
  chain: RedirectHop[];
  blockedFirstUrl: string | null;
}

export interface CaptureResult {
  pageUrl: string;
  links: string[];
  coinTabs: number;
  wallets: number;
  captured: boolean;
  /** Why the page was not captured (it did not load, or a step of it got stuck). */
  failure?: string;
}

/** A page counts as settled after this long without DOM changes (a delayed reveal within it is seen). */
const SETTLE_QUIET_MS = 1000;

/** Heartbeats every second while `work` runs; a cancelled activity closes the browser context. */
function heartbeating<T>(session: () => CrawlerSession | undefined, work: () => Promise<T>, details?: () => unknown): Promise<T> {
  return withCancellableHeartbeat(work, { details, onCancel: () => void session()?.close() });
}

export function createInvestigationActivities(deps: InvestigationActivityDeps) {
  const { knex, blobs } = deps;
  const sessions = new Map<string, CrawlerSession>();

  async function sessionFor(scanId: string, timeoutS: number): Promise<CrawlerSession> {
    const existing = sessions.get(scanId);
    if (existing && !existing.isClosed) return existing;
    const mb = 1024 * 1024;
    const limits = { maxResponseBytes: deps.config.ssi.max_response_body_mb * mb, maxArchiveBytes: deps.config.ssi.max_archive_mb * mb };
    // The proxy is checked by the egress policy each time a session opens (a refused one fails the scan).
    const proxy = deps.config.ssi.proxy_url ? await checkProxy(deps.egress, deps.config.ssi.proxy_url) : undefined;
    const session = await CrawlerSession.open(await deps.browser(), scanId, deps.egress, timeoutS * 1000, limits, { proxy });
    sessions.set(scanId, session);
    return session;
  }

  /** Writes what the session gathered since the last flush: blocked requests, truncated bodies, JSON responses. */
  async function flush(session: CrawlerSession, state = ''): Promise<void> {
    await insertBlockedRequests(knex, session.scanId, session.takeBlocked());
    await recordTruncatedResponses(knex, session.scanId, state, session.takeTruncated());
    const json = session.takeJson();
    const stored = [];
    for (const j of json) {
      const blob = await blobs.put(j.body);
      stored.push({ url: j.url, contentType: j.contentType, blobKey: blob.key, sha256: blob.sha256 });
    }
    await insertResponses(knex, session.scanId, stored);
  }

  /** Frames the capture did not read (non-web schemes, frames that did not answer), in the action log. */
  async function recordSkippedFrames(scanId: string, state: string, pageUrl: string, skipped: readonly SkippedFrame[]): Promise<void> {
    await appendActions(knex, scanId, skipped.map((f) => ({ key: `skip_frame|${pageUrl}|${f.url}`, state, action: 'skip_frame', target: f.url, outcome: `skipped: ${f.reason}` })));
  }

  /** The DOM after scripts of the page's readable frames; the skipped ones are recorded. */
  async function snapshotDom(session: CrawlerSession, state: string, pageUrl: string): Promise<string> {
    const frames = await pageFrames(session.page);
    const html = await captureDomSnapshot(session.page, frames);
    await recordSkippedFrames(session.scanId, state, pageUrl, frames.skipped);
    return html;
  }

  /**
   * The capture after a reveal: screenshot and DOM as their own records, with the exchanges since
   * the last capture (the click's XHR answers) when `withExchanges`.
   */
  async function captureReveal(session: CrawlerSession, state: string, step: string, actionKey: string, withExchanges: boolean): Promise<void> {
    if (deps.revealCaptures === false) return;
    const pageUrl = session.page.url();
    const capture = await captureAfterReveal(session.page);
    await recordSkippedFrames(session.scanId, state, pageUrl, capture.skipped);
    const har = withExchanges && session.pendingExchanges > 0 ? session.takeHar() : null;
    await storeReveal({ knex, blobs }, { scanId: session.scanId, state, pageUrl, step, actionKey, capture, har });
  }

  /** A stuck page fails with its reason in the action log; the scan gets a fresh tab for its next page. */
  async function failPage(session: CrawlerSession, state: string, pageUrl: string, err: unknown): Promise<string> {
    const reason = stepFailureReason(err);
    await appendActions(knex, session.scanId, [{ key: `capture|${pageUrl}`, state, action: 'capture', target: pageUrl, outcome: `failed: ${reason}` }]);
    deps.log.warn({ scanId: session.scanId, pageUrl, reason }, 'investigation page failed');
    await session.replacePage();
    await flush(session, state);
    return reason;
  }

  /** One extraction (an agent action) over the page as it is now. */
  async function extractHere(session: CrawlerSession, state: string, key: string, trigger: string, coinTab?: string): Promise<number> {
    if (!deps.config.ssi.extract_on_transitions) return 0;
    const pageUrl = session.page.url();
    const html = await snapshotDom(session, state, pageUrl);
    const found = await recordSnapshotWallets(
      { knex, allowlist: deps.allowlist, verifier: deps.verifier },
      { scanId: session.scanId, state, pageUrl, html, title: (await captureTitle(session.page)) ?? undefined, coinTab },
    );
    await appendActions(knex, session.scanId, [{ key: `extract|${key}`, state, action: 'extract_wallets', target: pageUrl, outcome: trigger, walletsFound: found.wallets }]);
    return found.wallets;
  }

  async function goTo(session: CrawlerSession, url: string, state: string, key: string, timeoutS: number): Promise<{ status: number | null; error: string | null }> {
    const page = session.page;
    const current = page.url();
    const sameDocument = current !== 'about:blank' && url.includes('#') && current.split('#')[0] === url.split('#')[0];
    if (sameDocument) {
      // A client-side route: change it the way the page's own links would.
      await changeRoute(page, new URL(url).hash);
      await settle(page, { quietMs: SETTLE_QUIET_MS, maxMs: timeoutS * 1000 });
      await appendActions(knex, session.scanId, [{ key: `route|${key}`, state, action: 'route_change', target: url, outcome: 'ok' }]);
      return { status: null, error: null };
    }
    try {
      const response = await navigate(page, url, timeoutS * 1000);
      const first = session.documentFor(url.split('#')[0]!);
      if (first && first.status >= 300 && first.status < 400) {
        // An HTTP redirect arrives as a page that navigates on (crawler-session.ts): wait for that.
        await waitForUrlChange(page, url, 5000);
      }
      await settle(page, { quietMs: SETTLE_QUIET_MS, maxMs: timeoutS * 1000 });
      const status = session.documentFor(page.url().split('#')[0]!)?.status ?? response?.status() ?? null;
      await appendActions(knex, session.scanId, [{ key: `navigate|${key}`, state, action: 'navigate', target: url, outcome: first && first.url === url && first.status !== status ? `${first.status} -> ${page.url()} ${status}` : String(status ?? 'no response') }]);
      return { status, error: null };
    } catch (err) {
      // A page stuck after its load fails as a whole (the caller's); a load that failed is answered.
      if (err instanceof BrowserStepTimeout && err.step !== 'navigation') {
        await appendActions(knex, session.scanId, [{ key: `navigate|${key}`, state, action: 'navigate', target: url, outcome: `loaded, then stuck: ${err.message}` }]);
        throw err;
      }
      const message = err instanceof Error ? err.message.split('\n')[0]! : String(err);
      await appendActions(knex, session.scanId, [{ key: `navigate|${key}`, state, action: 'navigate', target: url, outcome: `failed: ${message.slice(0, 300)}` }]);
      return { status: null, error: message };
    }
  }

  async function runPlaybookSteps(session: CrawlerSession, steps: readonly PlaybookStepInput[], state: string, keyPrefix: string): Promise<void> {
    const page = session.page;
    for (const [i, step] of steps.entries()) {
      const key = `${keyPrefix}|step|${i}`;
      let outcome = 'ok';
      try {
        if (step.type === 'click') await clickElement(page, step.selector);
        else if (step.type === 'fill') await fillElement(page, step.selector, step.value);
        else if (step.type === 'wait_for_text') await waitForText(page, step.text, step.timeout_s * 1000);
        else continue; // coin_tabs and limit_pages shape the crawl; they are not page actions
        await settle(page, { quietMs: 300, maxMs: 5000 });
      } catch (err) {
        if (isPageFailure(err) && !(err instanceof BrowserStepTimeout && ['click', 'fill', 'wait for text'].includes(err.step))) throw err;
        outcome = `failed: ${(err instanceof Error ? err.message.split('\n')[0]! : String(err)).slice(0, 300)}`;
      }
      const target = 'selector' in step ? step.selector : 'text' in step ? step.text : '';
      await appendActions(knex, session.scanId, [{ key, state, action: `playbook_${step.type}`, target, outcome }]);
      if (outcome !== 'ok') continue;
      await extractHere(session, state, key, `after playbook step ${step.type}`);
      // The page's own capture takes the exchanges (its HAR); the reveal keeps what the step showed.
      await withPageBudget(STEP_DEADLINES.capturePage, () => captureReveal(session, state, `${step.type} ${target}`, key, false));
    }
  }

  async function captureCurrentPage(session: CrawlerSession, pageUrl: string, state: string, status: number | null): Promise<{ links: string[] }> {
    const page = session.page;
    const capturedAt = new Date();
    const frames = await pageFrames(page);
    const html = await captureDomSnapshot(page, frames);
    await recordSkippedFrames(session.scanId, state, pageUrl, frames.skipped);
    const screenshot = await captureScreenshot(page);
    const title = await captureTitle(page);
    const har = session.takeHar();
    const doc = session.documentFor(pageUrl.split('#')[0]!);
    const [shot, dom, harBlob] = [await blobs.put(screenshot), await blobs.put(Buffer.from(html, 'utf8')), await blobs.put(har)];
    const seq = await countPages(knex, session.scanId);
    await insertPage(knex, {
      scanId: session.scanId, url: pageUrl, seq, state, title, httpStatus: status ?? doc?.status ?? null, serverIp: doc?.serverIp ?? null,
      tls: doc?.tls ? { ...doc.tls } : null, responseHeaders: doc?.headers ?? {}, screenshot: shot, dom, har: harBlob, capturedAt,
    });
    // QR codes in the screenshot and the page's images: addresses shown only as a picture.
    const qr = await recordImageWallets(
      { knex, allowlist: deps.allowlist, verifier: deps.verifier },
      { scanId: session.scanId, state, pageUrl, title: title ?? undefined, images: [screenshot, ...(await qrCandidateShots(page))] },
    );
    if (qr.qrCodes > 0) {
      await appendActions(knex, session.scanId, [{ key: `qr|${pageUrl}`, state, action: 'extract_wallets', target: pageUrl, outcome: `${qr.qrCodes} QR code(s) in the page's images`, walletsFound: qr.wallets }]);
    }
    const links = await captureLinks(page, frames);
    const pii = extractPagePii(await captureVisibleText(page, frames), links.map((l) => l.href));
    await recordPageEntities(knex, session.scanId, { url: pageUrl, serverIp: doc?.serverIp ?? null, pii });
    await appendActions(knex, session.scanId, [{ key: `capture|${pageUrl}`, state, action: 'capture', target: pageUrl, outcome: `screenshot ${shot.sha256.slice(0, 12)}, dom ${dom.sha256.slice(0, 12)}, har ${harBlob.sha256.slice(0, 12)}` }]);
    return { links: nextPages(pageUrl, links, new Set([pageUrl])) };
  }

  return {
    // The funnel's activities share this worker's sessions and capture helpers.
    ...createFunnelActivities({ knex, blobs, log: deps.log, config: deps.config, planner: deps.planner, hooks: { sessionFor, goTo, extractHere, captureReveal, flush } }),

    /** The task queue of this worker's browser activities (shared queue). */
    async investigationBrowserQueue(): Promise<string> {
      return deps.browserQueue;
    },

    async setInvestigationState(input: { scanId: string; state: string; status: InvestigationStatus; error?: string | null; playbookId?: string | null }): Promise<void> {
      await setInvestigationState(knex, input.scanId, input);
      await appendActions(knex, input.scanId, [{ key: `state|${input.state}`, state: input.state, action: 'enter_state', target: input.state, outcome: input.error ?? '' }]);
    },

    /** NAVIGATE: the first URL, following HTTP, meta-refresh and script redirects; records the chain. */
    async navigateInvestigation(input: BrowserStepInput & { url: string }): Promise<NavigateResult> {
      let session: CrawlerSession | undefined;
      return heartbeating(() => session, async () => {
        // The first URL is checked before any browser is opened for it.
        const verdict = await deps.egress(input.url);
        if (!verdict.allowed) {
          await insertBlockedRequests(knex, input.scanId, [{ url: input.url, resourceType: 'document', reason: verdict.reason, category: verdict.category ?? null }]);
          await appendActions(knex, input.scanId, [{ key: 'navigate|first', state: 'NAVIGATE', action: 'navigate', target: input.url, outcome: `blocked: ${verdict.reason}` }]);
          throw ApplicationFailure.nonRetryable(`the crawler may not reach ${input.url}: ${verdict.reason}`, 'InvestigationTargetBlocked');
        }
        session = await sessionFor(input.scanId, input.pageTimeoutS);
        const docsBefore = session.documents.length;
        let nav: { status: number | null; error: string | null } = { status: null, error: null };
        let stuck = false;
        try {
          nav = await goTo(session, input.url, 'NAVIGATE', 'first', input.pageTimeoutS);
          // Meta-refresh and script redirects happen after the load: follow until the URL stays put.
          let last = session.page.url();
          for (let hop = 0; hop < 10; hop++) {
            await pause(session.page, 300);
            await settle(session.page, { quietMs: SETTLE_QUIET_MS, maxMs: input.pageTimeoutS * 1000 });
            if (session.page.url() === last) break;
            last = session.page.url();
          }
        } catch (err) {
          if (!isPageFailure(err)) throw err;
          // The page loaded but got stuck: the chain so far stands; CAPTURE fails that page with the reason.
          stuck = true;
          await appendActions(knex, input.scanId, [{ key: 'navigate|first|stuck', state: 'NAVIGATE', action: 'navigate', target: session.page.url(), outcome: `stuck: ${stepFailureReason(err)}` }]);
          await session.replacePage();
        }
        await flush(session, 'NAVIGATE');
        const docs = session.documents.slice(docsBefore);
        const chain: RedirectHop[] = docs.map((d, i) => {
          const isLast = i === docs.length - 1;
          const kind: RedirectHop['kind'] = isLast ? 'final' : d.status >= 300 && d.status < 400 ? 'http' : /http-equiv\s*=\s*["']?refresh/i.test(d.body) ? 'meta-refresh' : 'script';
          return { url: d.url, status: d.status, kind };
        });
        if (!chain.length && nav.error) throw new Error(`the site did not load: ${nav.error}`);
        if (!chain.length && stuck) throw ApplicationFailure.nonRetryable(`the first page got stuck before it answered`, 'InvestigationPageStuck');
        if (!stuck) {
          try {
            await withPageBudget(STEP_DEADLINES.capturePage, () => extractHere(session!, 'NAVIGATE', 'first', 'navigation'));
          } catch (err) {
            if (!isPageFailure(err)) throw err;
            stuck = true;
            await appendActions(knex, input.scanId, [{ key: 'navigate|first|stuck', state: 'NAVIGATE', action: 'navigate', target: session.page.url(), outcome: `stuck: ${stepFailureReason(err)}` }]);
            await session.replacePage();
          }
        }
        const finalUrl = stuck ? (docs.at(-1)?.url ?? input.url) : session.page.url();
        await setInvestigationState(knex, input.scanId, { state: 'NAVIGATE', status: 'running', finalUrl, redirectChain: chain });
        return { finalUrl, chain, blockedFirstUrl: null };
      });
    },

    /** CAPTURE / EXPLORE: loads a page (unless it is the current one), extracts, captures, lists next pages. */
    async captureInvestigationPage(input: BrowserStepInput & { url: string; state: string; steps: PlaybookStepInput[] }): Promise<CaptureResult> {
      let session: CrawlerSession | undefined;
      return heartbeating(() => session, async () => {
        session = await sessionFor(input.scanId, input.pageTimeoutS);
        const key = pageKey(input.url) ?? input.url;
        let status: number | null = null;
        try {
          const s = session;
          if (s.page.url() !== input.url) {
            // The load (the scan's page timeout) and the first extraction share one budget.
            const nav = await withPageBudget(input.pageTimeoutS * 1000 + STEP_DEADLINES.capturePage, async () => {
              const loaded = await goTo(s, input.url, input.state, key, input.pageTimeoutS);
              if (!loaded.error && !s.page.url().startsWith('chrome-error:')) await extractHere(s, input.state, key, 'navigation');
              return loaded;
            });
            if (nav.error || s.page.url().startsWith('chrome-error:')) {
              await flush(s, input.state);
              return { pageUrl: input.url, links: [], coinTabs: 0, wallets: 0, captured: false, failure: nav.error ?? 'the page did not load' };
            }
            status = nav.status;
          }
          // Playbook steps take what the analyst gave them (each bounded); the capture has its own budget.
          if (input.steps.length) await runPlaybookSteps(s, input.steps, input.state, key);
          const { links, coinTabs } = await withPageBudget(STEP_DEADLINES.capturePage, async () => ({
            ...(await captureCurrentPage(s, input.url, input.state, status)),
            coinTabs: (await markCoinTabs(s.page, [])).length,
          }));
          await flush(s, input.state);
          return { pageUrl: input.url, links, coinTabs, wallets: 0, captured: true };
        } catch (err) {
          if (!isPageFailure(err)) throw err;
          const failure = await failPage(session, input.state, input.url, err);
          return { pageUrl: input.url, links: [], coinTabs: 0, wallets: 0, captured: false, failure };
        }
      });
    },

    /** DISCOVER_COIN_TABS on one page: click each coin tab, wait for the DOM to change, extract. */
    async discoverCoinTabs(input: BrowserStepInput & { url: string; selectors: string[] }): Promise<{ tabs: number; wallets: number }> {
      let session: CrawlerSession | undefined;
      const ctx = currentContext();
      const resumed = ctx?.info.heartbeatDetails as { clicked?: number } | undefined;
      let clicked = resumed?.clicked ?? 0;
      return heartbeating(
        () => session,
        async () => {
          session = await sessionFor(input.scanId, input.pageTimeoutS);
          let labels: string[] = [];
          let wallets = 0;
          try {
            if (session.page.url() !== input.url) {
              const nav = await goTo(session, input.url, 'DISCOVER_COIN_TABS', `${input.url}|coin-tabs`, input.pageTimeoutS);
              if (nav.error) return { tabs: 0, wallets: 0 };
            }
            labels = await markCoinTabs(session.page, input.selectors);
            for (let i = clicked; i < labels.length; i++) {
              const label = labels[i]!;
              const key = `${input.url}|coin-tab|${i}|${label}`;
              let outcome = 'dom changed';
              const jsonSince = session.jsonResponses.length;
              try {
                // Found again by its label: a script may have rebuilt the tabs since they were marked.
                const changed = await clickCoinTab(session.page, label, labels.slice(0, i).filter((l) => l === label).length, input.selectors, 6000);
                if (!changed) outcome = 'no dom change';
              } catch (err) {
                if (isPageFailure(err)) throw err;
                outcome = `failed: ${(err instanceof Error ? err.message.split('\n')[0]! : String(err)).slice(0, 200)}`;
              }
              await appendActions(knex, input.scanId, [{ key: `click|${key}`, state: 'DISCOVER_COIN_TABS', action: 'click_coin_tab', target: label, outcome }]);
              if (!outcome.startsWith('failed')) {
                wallets += await extractHere(session, 'DISCOVER_COIN_TABS', key, `coin tab ${label}`, label);
                wallets += await readCoinTab({ knex, allowlist: deps.allowlist, verifier: deps.verifier }, session, { state: 'DISCOVER_COIN_TABS', pageUrl: input.url, label, key, jsonSince });
                const html = Buffer.from(await snapshotDom(session, 'DISCOVER_COIN_TABS', input.url), 'utf8');
                const blob = await blobs.put(html);
                await insertResponses(knex, input.scanId, [{ url: `${input.url}#fip-coin-tab=${encodeURIComponent(label)}`, contentType: 'text/html', blobKey: blob.key, sha256: blob.sha256 }]);
              }
              // Screenshot, DOM and the click's exchanges (the XHR answer with the address), even when it failed.
              await withPageBudget(STEP_DEADLINES.capturePage, () => captureReveal(session!, 'DISCOVER_COIN_TABS', `coin tab ${label}`, key, true));
              clicked = i + 1;
              ctx?.heartbeat({ clicked });
            }
          } catch (err) {
            if (!isPageFailure(err)) throw err;
            await failPage(session, 'DISCOVER_COIN_TABS', `${input.url}|coin-tabs`, err);
            return { tabs: labels.length, wallets };
          }
          await flush(session, 'DISCOVER_COIN_TABS');
          return { tabs: labels.length, wallets };
        },
        () => ({ clicked }),
      );
    },

    async closeInvestigationSession(input: { scanId: string }): Promise<void> {
      const session = sessions.get(input.scanId);
      sessions.delete(input.scanId);
      if (session) {
        const state = (await findInvestigation(knex, input.scanId).catch(() => null))?.state ?? '';
        try {
          // Answers still on their way after the last capture (a late XHR, a beacon) get until a
          // second passes without one (at most 3 s), and are archived too.
          for (let waited = 0, seen = -1; !session.isClosed && waited < 3000 && session.pendingExchanges !== seen; waited += 1000) {
            seen = session.pendingExchanges;
            await pause(session.page, 1000).catch(() => undefined);
          }
          if (session.pendingExchanges > 0) {
            const exchanges = session.pendingExchanges;
            await storeLateExchanges({ knex, blobs }, { scanId: input.scanId, state, pageUrl: session.page.url(), har: session.takeHar(), exchanges });
          }
          await flush(session, state).catch(() => undefined);
        } finally {
          await session.close();
        }
        await appendActions(knex, input.scanId, [{ key: 'close_browser', state, action: 'close_browser', target: 'browser context', outcome: 'closed' }]);
      }
    },

    /** EXTRACT_WALLETS: the final sweep over every captured DOM (frames included) and JSON response. */
    async sweepInvestigationWallets(input: { scanId: string }): Promise<{ wallets: number; snapshots: number }> {
      const inv = await findInvestigation(knex, input.scanId);
      if (!inv) throw ApplicationFailure.nonRetryable(`no investigation ${input.scanId}`, 'InvestigationNotFound');
      const snapshots: Array<{ url: string; key: string; json: boolean }> = [
        ...(await listPages(knex, input.scanId)).map((p) => ({ url: p.url, key: p.dom_key, json: false })),
        // After-reveal records are evidence copies of what the reveal's own extraction read.
        ...(await listResponses(knex, input.scanId)).filter((r) => !r.url.includes(REVEAL_MARK)).map((r) => ({ url: r.url, key: r.blob_key, json: /json/i.test(r.content_type) })),
      ];
      const seen = new Set<string>();
      let total = 0;
      for (const [i, s] of snapshots.entries()) {
        const text = (await readBlob(blobs, s.key)).toString('utf8');
        const pageUrl = s.url.split('#fip-coin-tab=')[0]!;
        const coinTab = s.url.includes('#fip-coin-tab=') ? decodeURIComponent(s.url.split('#fip-coin-tab=')[1]!) : undefined;
        const found = await recordSnapshotWallets({ knex, allowlist: deps.allowlist, verifier: deps.verifier }, { scanId: input.scanId, state: 'EXTRACT_WALLETS', pageUrl, ...(s.json ? { text } : { html: text }), coinTab });
        for (const a of found.addresses) seen.add(a);
        total += found.wallets;
        currentContext()?.heartbeat({ swept: i + 1 });
      }
      const actions: AgentAction[] = [{ key: 'sweep', state: 'EXTRACT_WALLETS', action: 'extract_wallets', target: `${snapshots.length} snapshots`, outcome: 'final sweep', walletsFound: seen.size }];
      await appendActions(knex, input.scanId, actions);
      return { wallets: total, snapshots: snapshots.length };
    },
  };
}


export type InvestigationActivities = ReturnType<typeof createInvestigationActivities>;
