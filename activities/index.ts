// All activities of the platform, built from their dependencies (createXActivities(deps)).
// Workflows proxy them with `import type` so that no Node module enters workflow code.
import type { Knex } from 'knex';
import type { Client } from '@temporalio/client';
import type { AppConfig } from '../config/config';
import { loadWalletAllowlist, type Allowlist } from '../config/wallet-allowlist';
import { createConfiguredBlobStore, type BlobStore } from '../infra/blob-store';
import { locateChromium, resolveChromium, type ChromiumLocation } from '../infra/chromium';
import { checkChromiumSandbox, type ChromiumSandbox } from '../infra/chromium-sandbox';
import type { Logger } from '../infra/logger';
import type { FunnelPlanner } from '../domain/investigations/funnel';
import packageJson from '../package.json';
import { createDossierActivities } from './dossiers/dossier-activities';
import { createWatchlistAlertActivities } from './alerts/watchlist-alert-activities';
import { createAnalyticsRefreshActivities } from './analytics/analytics-refresh-activities';
import { createIntakeActivities } from './intakes/intake-activities';
import { createLlmVerifierFromSettings } from '../services/wallets/llm-verifier-settings';
import { browserTaskQueue, createCrawlerBrowser, type CrawlerBrowser } from '../infra/crawler/crawler-browser';
import { createEgressCheck } from '../infra/crawler/crawler-egress';
import { createInvestigationActivities } from './investigations/investigation-activities';
import { createPlaybookActivities } from './investigations/playbook-activities';
import { createGuidanceActivities } from './investigations/guidance-activities';
import { createReviewClaimActivities } from './reviews/review-claim-activities';
import { createRiskScoreActivities } from './intelligence/risk-score-activities';
import { createSimilarityActivities } from './similarity/similarity-activities';
import { createClassificationActivities } from './classification/classification-activities';
import { createLlmClassifier } from '../services/classification/llm-classifier';
import { createBrowserProvider, type BrowserProvider } from '../infra/browser-pool';
import { createReportDeliveryActivities } from './reports/report-delivery-activities';
import { createReportGenerationActivities } from './reports/report-generation-activities';
import { createScheduleActivities } from './reports/report-schedule-activities';
import { createScheduledReportsJobActivities } from './reports/scheduled-reports-job-activities';
import { createTakedownActivities } from './takedowns/takedown-activities';

/** Long-lived resources of a worker process (or a CLI command): closed when it stops. */
export interface ActivityResources {
  blobs: BlobStore;
  browser: BrowserProvider;
  /** The investigations' crawler browser (its own Chromium, its own network policy). */
  crawler: CrawlerBrowser;
  /** The Chromium the browser will launch, as located at start-up (the npm package is unpacked on first use). */
  chromium: ChromiumLocation;
  /** Whether the crawler's Chromium can run sandboxed here, and as whom (checked at start-up). */
  crawlerSandbox: ChromiumSandbox;
  /** Read once at start-up (an invalid file stops it); workers are restarted after an edit. */
  walletAllowlist: Allowlist;
  close(): Promise<void>;
}

export function createActivityResources(config: AppConfig): ActivityResources {
  const walletAllowlist = loadWalletAllowlist(config.ssi.allowlist_path);
  const candidates = { configuredPath: config.chromium.path };
  const browser = createBrowserProvider({ chromium: () => resolveChromium(candidates) });
  const blobs = createConfiguredBlobStore(config);
  const crawlerSandbox = checkChromiumSandbox();
  const crawler = createCrawlerBrowser(() => resolveChromium(candidates), crawlerSandbox, { allowUnsandboxed: config.crawler.allow_unsandboxed });
  return {
    blobs,
    browser,
    crawler,
    chromium: locateChromium(candidates),
    crawlerSandbox,
    walletAllowlist,
    close: async () => {
      await browser.close();
      await blobs.close();
      await crawler.close();
    },
  };
}

export interface ActivityDeps {
  config: AppConfig;
  knex: Knex;
  temporal: Client;
  log: Logger;
  resources: ActivityResources;
  /** This worker's own task queue for browser activities (worker-specific task queue); default from config. */
  browserQueue?: string;
  /** The funnel's LLM planner (composed in app/ when an Anthropic key is configured). */
  planner?: FunnelPlanner;
  /** Test hooks (never set in production). */
  hooks?: {
    beforeReportStore?: () => Promise<void>;
    afterDeliveryClaim?: () => Promise<void>;
    /** Called when an intake file is marked `parsing`, before its parser starts. */
    beforeIntakeFileRead?: (file: { intakeId: string; filename: string }) => Promise<void>;
    /** false: investigations take no after-reveal captures (bench/evidence.bench.ts's baseline). */
    revealCaptures?: boolean;
  };
}

export function createActivities(deps: ActivityDeps) {
  const { knex, log, config } = deps;
  const { blobs, browser } = deps.resources;
  const schedule = createScheduleActivities({ knex });
  const generation = createReportGenerationActivities({ knex, blobs, browser, log, rowCap: config.reports.row_cap, beforeStore: deps.hooks?.beforeReportStore });
  const delivery = createReportDeliveryActivities({ knex, blobs, log, smtp: config.smtp, afterClaim: deps.hooks?.afterDeliveryClaim });
  const intake = createIntakeActivities({ knex, blobs, log, temporal: deps.temporal, config, beforeFileRead: deps.hooks?.beforeIntakeFileRead });
  const investigations = createInvestigationActivities({
    knex, blobs, log, config,
    allowlist: deps.resources.walletAllowlist.pairs,
    verifier: createLlmVerifierFromSettings({
      anthropicApiKey: config.anthropic_api_key, anthropicBaseUrl: config.anthropic_base_url, model: config.ssi.llm_model, warn: (m) => log.warn(m),
    }),
    planner: deps.planner,
    browser: () => deps.resources.crawler.get(),
    egress: createEgressCheck(config.ssi.allow_private_targets),
    browserQueue: deps.browserQueue ?? browserTaskQueue(config.temporal.task_queue, config.worker.instance),
    revealCaptures: deps.hooks?.revealCaptures,
  });
  return {
    ...schedule,
    ...createReviewClaimActivities({ knex }),
    ...generation,
    ...delivery,
    ...intake,
    ...investigations,
    ...createPlaybookActivities({ knex }),
    ...createGuidanceActivities({ knex, config }),
    ...createDossierActivities({ knex, blobs, config, log, softwareVersion: packageJson.version }),
    ...createAnalyticsRefreshActivities({ knex }),
    ...createWatchlistAlertActivities({ knex, config, log }),
    ...createRiskScoreActivities({ knex }),
    ...createSimilarityActivities({ knex, blobs }),
    ...createTakedownActivities({ knex, config, temporal: deps.temporal }),
    ...createClassificationActivities({
      knex, blobs,
      llm: createLlmClassifier({
        apiKey: config.anthropic_api_key, baseUrl: config.anthropic_base_url, model: config.ssi.llm_model, enabled: config.classification.llm,
        maxTokens: config.classification.llm_max_tokens, timeoutSeconds: config.classification.llm_timeout_seconds, maxChars: config.classification.llm_max_chars, warn: (m) => log.warn(m),
      }),
    }),
    ...createScheduledReportsJobActivities({ knex, temporal: deps.temporal, taskQueue: config.temporal.task_queue, log, steps: { ...generation, ...delivery, ...schedule } }),
  };
}

export type PlatformActivities = ReturnType<typeof createActivities>;
