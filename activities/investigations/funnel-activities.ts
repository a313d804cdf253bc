// The funnel agent's browser activities (they run on the worker holding the scan's browser session,
// beside the investigation's own): decide whether the site is gated, walk one goal of the funnel
// (REGISTER, LOGIN, VERIFY_CONTACT, NAVIGATE_DEPOSIT) with the decision cascade (heuristics, then the
// LLM planner when one is configured), and use a verification mail's code or link. Each step is an
// agent action followed by a reveal capture (screenshot, DOM, exchanges). Persona values are opened
// from the vault here, typed, and never returned, logged or written to the action log.
import type { Knex } from 'knex';
import { startHeartbeat } from '../../infra/activity-heartbeat';
import type { BlobStore } from '../../infra/blob-store';
import type { AppConfig } from '../../config/config';
import { appendActions, listScanWallets } from '../../db/repositories/investigations/investigation-repository';
import { insertPiiExposures } from '../../db/repositories/investigations/persona-repository';
import type { FieldDescriptor, FunnelAction, FunnelObservation, FunnelPlanner, FunnelState, GuidanceKind } from '../../domain/investigations/funnel';
import { exposureKindOf, looksGated, passwordNeedsSymbols, planFunnelStep, type FunnelPageView } from '../../domain/investigations/funnel-heuristics';
import { birthDatePart, birthDatePartValue, pickOption } from '../../domain/investigations/funnel-form-values';
import { fieldKindOf } from '../../domain/investigations/funnel-vocabulary';
import { BrowserStepTimeout, STEP_DEADLINES, isPageFailure, stepFailureReason, withPageBudget, browserStep } from '../../infra/crawler/browser-step';
import type { CrawlerSession } from '../../infra/crawler/crawler-session';
import { chooseOption, press, readFunnelPage, restoreSessionState, sessionState, tick, typeInto } from '../../infra/crawler/funnel-page';
import { pause, settle } from '../../infra/crawler/page-actions';
import type { Logger } from '../../infra/logger';
import {
  ensureScanPersona, loadPersonaSession, markScanPersonaRegistered, openScanPersona, requireSymbolsInPassword, savePersonaSession,
} from '../../services/investigations/persona-service';
import { resolveGuidanceText } from '../../services/investigations/guidance-service';

/** What the funnel borrows from the investigation's activities (the same session map). */
export interface FunnelBrowserHooks {
  sessionFor(scanId: string, timeoutS: number): Promise<CrawlerSession>;
  goTo(session: CrawlerSession, url: string, state: string, key: string, timeoutS: number): Promise<{ status: number | null; error: string | null }>;
  extractHere(session: CrawlerSession, state: string, key: string, trigger: string): Promise<number>;
  captureReveal(session: CrawlerSession, state: string, step: string, actionKey: string, withExchanges: boolean): Promise<void>;
  flush(session: CrawlerSession, state: string): Promise<void>;
}

export interface FunnelActivityDeps {
  knex: Knex;
  blobs: BlobStore;
  log: Logger;
  config: AppConfig;
  /** The LLM planner, last of the cascade; absent without an Anthropic key. */
  planner?: FunnelPlanner;
  hooks: FunnelBrowserHooks;
}

export interface FunnelGate {
  gated: boolean;
  reason: string;
  /** Wallets the scan found before the funnel. */
  wallets: number;
  /** The persona registered on this site before (a revisit goes to LOGIN). */
  registered: boolean;
  /** How long VERIFY_CONTACT waits for the persona's mail (SVC_SSI__VERIFY_WAIT_MINUTES). */
  verifyWaitMinutes: number;
}

export type FunnelGoalResult =
  | { outcome: 'reached'; reason: string; verify: boolean; url: string }
  | { outcome: 'ask_human'; guidanceKind: GuidanceKind; question: string; field: string | null; url: string; /** the page as the agent saw it, for the human */ screenshotKey: string | null }
  | { outcome: 'stuck'; reason: string; url: string };

/** One goal takes at most this many observations of the page. */
const MAX_ROUNDS = 10;

function fieldName(f: FieldDescriptor | undefined, selector: string): string {
  const name = f ? (f.label || f.placeholder || f.name || f.id) : '';
  return (name ? `"${name.slice(0, 60)}"` : selector).replace(/\s+/g, ' ');
}

/** After a click or a submit: wait for a navigation or a DOM change to settle (a navigation may cut an evaluate short). */
async function settleAfterAction(session: CrawlerSession): Promise<void> {
  for (let i = 0; i < 3; i++) {
    try {
      await pause(session.page, 300);
      await settle(session.page, { quietMs: 500, maxMs: 8000 });
      return;
    } catch (err) {
      if (!(err instanceof Error) || !/context was destroyed|navigation|Target closed/i.test(err.message)) throw err;
    }
  }
}

export function createFunnelActivities(deps: FunnelActivityDeps) {
  const { knex, hooks } = deps;
  const personaDeps = { knex, config: deps.config };

  async function observe(session: CrawlerSession): Promise<FunnelPageView> {
    return withPageBudget(STEP_DEADLINES.evaluate * 2, () => readFunnelPage(session.page));
  }

  async function askPlanner(session: CrawlerSession, scanId: string, goal: FunnelState, history: FunnelObservation['history']): Promise<FunnelAction | null> {
    if (!deps.planner) return null;
    const page = session.page;
    const tree = await browserStep('accessibility tree', STEP_DEADLINES.evaluate, () => page.locator('body').ariaSnapshot()).catch(() => '');
    const observation: FunnelObservation = { goal, url: page.url(), title: await page.title().catch(() => null), accessibility_tree: tree.slice(0, 20_000), history };
    return deps.planner.plan(scanId, observation, () => browserStep('screenshot', STEP_DEADLINES.evaluate, () => page.screenshot()));
  }

  /** Carries out one action; answers its outcome for the action log (never a persona value). */
  async function perform(session: CrawlerSession, scanId: string, goal: FunnelState, action: FunnelAction, view: FunnelPageView, key: string, code: string | null): Promise<string> {
    const page = session.page;
    const field = 'selector' in action ? view.fields.find((f) => f.selector === action.selector) : undefined;
    const control = 'selector' in action ? view.controls.find((c) => c.selector === action.selector) : undefined;
    const selector = 'selector' in action ? action.selector : '';
    const where = field ? fieldName(field.field, selector) : control ? `"${(control.control.text || control.control.ariaLabel || selector).slice(0, 60)}"` : selector;
    let description: string;
    switch (action.kind) {
      case 'fill': {
        let value: string;
        let chosen: string | null = null;
        let what = action.persona_field.replace(/_/g, ' ');
        if (action.persona_field === 'verification_code') {
          if (!code) throw new Error('no verification code to type');
          value = code;
        } else {
          let persona = await openScanPersona(personaDeps, scanId);
          if (!persona) throw new Error('the investigation has no persona');
          // A sign-up form that asks for symbols (a hint, a pattern, a complaint after a submit) gets a password with some.
          if (action.persona_field === 'password' && goal === 'REGISTER' && passwordNeedsSymbols(view) && (await requireSymbolsInPassword(personaDeps, persona.personaId))) {
            persona = (await openScanPersona(personaDeps, scanId))!;
            await appendActions(knex, scanId, [{ key: `${key}|symbols`, state: goal, action: 'funnel_password', target: 'the site asks for symbols in the password', outcome: 'the persona\'s password now has symbols (sealed in the vault)' }]);
          }
          value = persona.values[action.persona_field];
          const part = action.persona_field === 'birth_date' && field ? birthDatePart(field.field, field.options) : null;
          if (part) {
            value = birthDatePartValue(value, part);
            what = `birth date (${part})`;
          }
          if (field?.field.tag === 'select') {
            const option = pickOption(field.options ?? [], { kind: part ? 'date_part' : action.persona_field === 'country' ? 'country' : 'text', value, ...(part ? { part } : {}) });
            if (option === null) throw new Error(`no option of ${where} fits the persona's ${what}`);
            await chooseOption(page, action.selector, { value: option });
            chosen = `chose persona ${what} in ${where}`;
          }
        }
        if (chosen) description = chosen;
        else {
          await typeInto(page, action.selector, value);
          description = action.persona_field === 'verification_code' ? `typed the mailed verification code into ${where}` : `typed persona ${what} into ${where}`;
        }
        const kind = field ? fieldKindOf(field.field) : null;
        const exposure = kind ? exposureKindOf(kind) : action.persona_field === 'verification_code' ? null : 'other';
        if (exposure) await insertPiiExposures(knex, scanId, [{ kind: exposure, page_url: page.url(), state: goal, field: field ? (field.field.label || field.field.placeholder || field.field.name || field.field.id || null) : null }]);
        break;
      }
      case 'fill_text':
        await typeInto(page, action.selector, action.text);
        description = `typed the planner's text into ${where}`;
        break;
      case 'check':
        await tick(page, action.selector);
        description = `ticked ${where}`;
        break;
      case 'select':
        await chooseOption(page, action.selector, action.value);
        description = `chose "${action.value.slice(0, 60)}" in ${where}`;
        break;
      case 'click':
        await press(page, action.selector);
        description = `clicked ${where}`;
        break;
      case 'navigate': {
        const nav = await hooks.goTo(session, action.url, goal, key, 30);
        description = nav.error ? `navigation failed: ${nav.error.slice(0, 200)}` : `opened ${action.url}`;
        break;
      }
      default:
        description = action.kind;
    }
    return description;
  }

  /** The page as the agent sees it when it asks a human: a screenshot in the blob store (null when the page cannot give one). */
  async function screenshotForHuman(session: CrawlerSession): Promise<string | null> {
    try {
      const png = await browserStep('screenshot', STEP_DEADLINES.evaluate, () => session.page.screenshot());
      return (await deps.blobs.put(png)).key;
    } catch (err) {
      if (err instanceof BrowserStepTimeout) return null;
      throw err;
    }
  }

  /** A human's answer (a reference to the sealed answer) typed into the field the agent asked about. */
  async function typeGuidance(session: CrawlerSession, scanId: string, goal: FunnelState, guidance: { field: string | null; answer: string }): Promise<void> {
    const where = guidance.field ?? 'the page';
    let outcome = 'ok';
    if (guidance.field) {
      try {
        await typeInto(session.page, guidance.field, await resolveGuidanceText(personaDeps, scanId, guidance.answer));
      } catch (err) {
        if (isPageFailure(err)) throw err;
        outcome = `failed: could not type into ${guidance.field}`;
      }
    }
    await appendActions(knex, scanId, [{ key: `funnel|${goal}|guidance|${guidance.answer}`, state: goal, action: 'funnel_guidance', target: guidance.field ? `typed the analyst's answer into ${where}` : "went on after the analyst's answer", outcome }]);
  }

  /** Walks `goal` on the current page; each batch of actions is logged, extracted and captured. */
  async function walk(scanId: string, pageTimeoutS: number, goal: FunnelState, code: string | null, guidance?: { field: string | null; answer: string }): Promise<FunnelGoalResult> {
    const session = await hooks.sessionFor(scanId, pageTimeoutS);
    if (guidance) await typeGuidance(session, scanId, goal, guidance);
    const clicked = new Set<string>();
    const history: FunnelObservation['history'] = [];
    let submitted = false;
    const views = new Map<string, number>();
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const view = await observe(session);
      // The same page (address, fields, controls) a third time in one goal: the site keeps refusing
      // what the agent does (a rejected log-in, a form that never validates). Stop instead of looping.
      const shape = JSON.stringify([view.url, view.fields.map((f) => f.selector), view.controls.map((c) => c.selector)]);
      views.set(shape, (views.get(shape) ?? 0) + 1);
      if (views.get(shape)! >= 3) {
        const reason = 'no progress: the page came back unchanged after the agent\'s steps (the site refused them?)';
        await appendActions(knex, scanId, [{ key: `funnel|${goal}|${round}|unchanged`, state: goal, action: 'funnel_goal', target: goal, outcome: `stuck: ${reason}` }]);
        return { outcome: 'stuck', reason, url: session.page.url() };
      }
      const decision = planFunnelStep(view, { goal, submitted, clicked, guided: guidance !== undefined });
      const key = `funnel|${goal}|${round}`;
      if (decision.kind === 'reached') {
        await appendActions(knex, scanId, [{ key: `${key}|reached`, state: goal, action: 'funnel_goal', target: goal, outcome: `reached: ${decision.reason}` }]);
        return { outcome: 'reached', reason: decision.reason, verify: decision.verify, url: session.page.url() };
      }
      if (decision.kind === 'ask_human') {
        await appendActions(knex, scanId, [{ key: `${key}|ask`, state: goal, action: 'ask_human', target: decision.action.field ?? view.url, outcome: `${decision.action.guidance_kind}: ${decision.action.question}` }]);
        await withPageBudget(STEP_DEADLINES.capturePage, () => hooks.captureReveal(session, goal, `${goal} needs a human`, `${key}|ask`, true));
        return { outcome: 'ask_human', guidanceKind: decision.action.guidance_kind, question: decision.action.question, field: decision.action.field ?? null, url: session.page.url(), screenshotKey: await screenshotForHuman(session) };
      }
      let actions: FunnelAction[];
      let submits: boolean;
      if (decision.kind === 'stuck') {
        const planned = await askPlanner(session, scanId, goal, history);
        if (!planned || planned.kind === 'give_up' || planned.kind === 'done') {
          const reason = planned && (planned.kind === 'give_up' || planned.kind === 'done') ? planned.reason : decision.reason;
          await appendActions(knex, scanId, [{ key: `${key}|stuck`, state: goal, action: 'funnel_goal', target: goal, outcome: `${planned?.kind === 'done' ? 'reached' : 'stuck'}: ${reason}` }]);
          if (planned?.kind === 'done') return { outcome: 'reached', reason, verify: false, url: session.page.url() };
          return { outcome: 'stuck', reason, url: session.page.url() };
        }
        if (planned.kind === 'ask_human') {
          await appendActions(knex, scanId, [{ key: `${key}|ask`, state: goal, action: 'ask_human', target: planned.field ?? view.url, outcome: `${planned.guidance_kind}: ${planned.question}` }]);
          return { outcome: 'ask_human', guidanceKind: planned.guidance_kind, question: planned.question, field: planned.field ?? null, url: session.page.url(), screenshotKey: await screenshotForHuman(session) };
        }
        actions = [planned];
        // A planner's click submits the goal's form only when the agent filled one in this goal.
        submits = planned.kind === 'click' && history.some((h) => h.action.kind === 'fill' || h.action.kind === 'fill_text');
      } else {
        actions = decision.actions;
        submits = decision.submits;
        if (decision.navKey) clicked.add(decision.navKey);
      }
      for (const [i, action] of actions.entries()) {
        let outcome: string;
        try {
          outcome = await perform(session, scanId, goal, action, view, `${key}|${i}`, code);
        } catch (err) {
          // A failed fill says where, never what (a browser error may echo the value it was given).
          outcome = action.kind === 'fill' || action.kind === 'fill_text'
            ? `failed: could not type into ${action.selector}`
            : `failed: ${(err instanceof Error ? err.message.split('\n')[0]! : String(err)).slice(0, 200)}`;
        }
        const failed = outcome.startsWith('failed');
        await appendActions(knex, scanId, [{ key: `${key}|${i}`, state: goal, action: `funnel_${action.kind}`, target: failed ? action.kind : outcome, outcome: failed ? outcome : 'ok' }]);
        history.push({ action, outcome });
      }
      if (submits) submitted = true;
      await settleAfterAction(session);
      await withPageBudget(STEP_DEADLINES.capturePage, async () => {
        await hooks.extractHere(session, goal, key, `after funnel step ${round + 1} of ${goal}`);
        await hooks.captureReveal(session, goal, `${goal} step ${round + 1}`, key, true);
      });
    }
    await appendActions(knex, scanId, [{ key: `funnel|${goal}|rounds`, state: goal, action: 'funnel_goal', target: goal, outcome: `stuck: no progress after ${MAX_ROUNDS} steps` }]);
    return { outcome: 'stuck', reason: `no progress after ${MAX_ROUNDS} steps`, url: session.page.url() };
  }

  return {
    /** Where the funnel ended (deposit page reached, needs guidance, stopped), in the action log. */
    async recordFunnelOutcome(input: { scanId: string; outcome: string }): Promise<void> {
      await appendActions(knex, input.scanId, [{ key: 'funnel|outcome', state: 'NAVIGATE_DEPOSIT', action: 'funnel_outcome', target: 'funnel', outcome: input.outcome }]);
    },

    /** After EXPLORE: is the deposit page behind a gate? When it is, the scan gets its persona. */
    async detectFunnelGate(input: { scanId: string; url: string; entryUrl?: string; pageTimeoutS: number }): Promise<FunnelGate> {
      const stop = startHeartbeat();
      const wallets = (await listScanWallets(knex, input.scanId)).length;
      try {
        if (wallets > 0) return { gated: false, reason: `${wallets} wallet(s) found without an account`, wallets, registered: false, verifyWaitMinutes: deps.config.ssi.verify_wait_minutes };
        const session = await hooks.sessionFor(input.scanId, input.pageTimeoutS);
        const nav = await hooks.goTo(session, input.url, 'REGISTER', 'funnel|start', input.pageTimeoutS);
        if (nav.error) return { gated: false, reason: `the start page did not load: ${nav.error.slice(0, 200)}`, wallets, registered: false, verifyWaitMinutes: deps.config.ssi.verify_wait_minutes };
        const view = await observe(session);
        if (!looksGated(view)) {
          await appendActions(knex, input.scanId, [{ key: 'funnel|gate', state: 'EXPLORE', action: 'funnel_gate', target: input.url, outcome: 'no sign-up, log-in or deposit control: not gated' }]);
          return { gated: false, reason: 'no gate', wallets, registered: false, verifyWaitMinutes: deps.config.ssi.verify_wait_minutes };
        }
        const persona = await ensureScanPersona(personaDeps, { scanId: input.scanId, url: input.url });
        if (persona.hasSession) {
          const stored = await loadPersonaSession(personaDeps, persona.personaId);
          if (stored) {
            // The stored session is back: the site's own entry page now shows what a customer sees.
            await restoreSessionState(session.page, stored);
            await hooks.goTo(session, input.entryUrl ?? input.url, 'LOGIN', 'funnel|session', input.pageTimeoutS);
          }
        }
        await appendActions(knex, input.scanId, [{
          key: 'funnel|gate', state: 'EXPLORE', action: 'funnel_gate', target: input.url,
          outcome: `gated; persona ${persona.reused ? `reused for ${persona.site}${persona.hasSession ? ' with its stored session' : ''}` : `created for ${persona.site}`}`,
        }]);
        await hooks.flush(session, 'REGISTER');
        return { gated: true, reason: 'a sign-up, log-in or deposit control and no wallet yet', wallets, registered: persona.registered, verifyWaitMinutes: deps.config.ssi.verify_wait_minutes };
      } catch (err) {
        if (!isPageFailure(err)) throw err;
        const reason = stepFailureReason(err);
        await appendActions(knex, input.scanId, [{ key: 'funnel|gate', state: 'EXPLORE', action: 'funnel_gate', target: input.url, outcome: `the start page got stuck: ${reason}` }]);
        await (await hooks.sessionFor(input.scanId, input.pageTimeoutS)).replacePage();
        return { gated: false, reason: `the start page got stuck: ${reason}`, wallets, registered: false, verifyWaitMinutes: deps.config.ssi.verify_wait_minutes };
      } finally {
        stop();
      }
    },

    /** One goal of the funnel on the scan's current page. */
    async runFunnelGoal(input: { scanId: string; pageTimeoutS: number; goal: FunnelState; guidance?: { field: string | null; answer: string } }): Promise<FunnelGoalResult> {
      const stop = startHeartbeat();
      try {
        let result: FunnelGoalResult;
        try {
          result = await walk(input.scanId, input.pageTimeoutS, input.goal, null, input.guidance);
        } catch (err) {
          if (!isPageFailure(err)) throw err;
          const stuck = await hooks.sessionFor(input.scanId, input.pageTimeoutS);
          const reason = `the page got stuck: ${stepFailureReason(err)}`;
          await appendActions(knex, input.scanId, [{ key: `funnel|${input.goal}|stuck`, state: input.goal, action: 'funnel_goal', target: input.goal, outcome: `stuck: ${reason}` }]);
          const url = stuck.page.url();
          await stuck.replacePage();
          return { outcome: 'stuck', reason, url };
        }
        const session = await hooks.sessionFor(input.scanId, input.pageTimeoutS);
        const persona = await openScanPersona(personaDeps, input.scanId);
        if (persona && result.outcome === 'reached') {
          if (input.goal === 'REGISTER') await markScanPersonaRegistered(personaDeps, persona.personaId);
          // The session is kept for a revisit once the persona is in (sealed like its values).
          if (input.goal === 'LOGIN' || input.goal === 'NAVIGATE_DEPOSIT') await savePersonaSession(personaDeps, persona.personaId, await sessionState(session.page));
        }
        await hooks.flush(session, input.goal);
        return result;
      } finally {
        stop();
      }
    },

    /** VERIFY_CONTACT with the mail's link (opened through the session, so the egress policy applies) or code. */
    async useVerificationMail(input: { scanId: string; pageTimeoutS: number; codes: string[]; links: string[] }): Promise<FunnelGoalResult> {
      const stop = startHeartbeat();
      try {
        const session = await hooks.sessionFor(input.scanId, input.pageTimeoutS);
        const link = input.links[0];
        if (link) {
          const nav = await hooks.goTo(session, link, 'VERIFY_CONTACT', 'funnel|verify-link', input.pageTimeoutS);
          await withPageBudget(STEP_DEADLINES.capturePage, () => hooks.captureReveal(session, 'VERIFY_CONTACT', 'verification link', 'funnel|verify-link', true));
          await hooks.flush(session, 'VERIFY_CONTACT');
          if (nav.error) return { outcome: 'stuck', reason: `the verification link did not load: ${nav.error.slice(0, 200)}`, url: session.page.url() };
          return { outcome: 'reached', reason: 'opened the verification link', verify: false, url: session.page.url() };
        }
        const result = await walk(input.scanId, input.pageTimeoutS, 'VERIFY_CONTACT', input.codes[0] ?? null);
        await hooks.flush(session, 'VERIFY_CONTACT');
        return result;
      } finally {
        stop();
      }
    },
  };
}
