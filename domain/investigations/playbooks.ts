// SSI playbooks (pure): what an analyst tells the investigation agent to do on matching sites, the
// validation of a playbook, and which playbook applies to a URL.
// URL patterns are globs in the dialect of ./url-glob.ts (never a regular expression).
import { z } from 'zod';
import { nameText } from '../text-safety';
import { compileGlob, globMatches, globSubject, GlobSyntaxError, MAX_PATTERN_LENGTH, MAX_PATTERNS, type CompiledGlob } from './url-glob';

const Selector = z
  .string()
  .min(1)
  .max(500)
  .refine((s) => ![...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f), 'control characters are not allowed')
  .describe('A Playwright selector (CSS, text=…, xpath=…, role=…)');

export const PlaybookStepSchema = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('click'), selector: Selector }).meta({ id: 'PlaybookClickStep', description: 'Click the first element matching the selector' }),
    z
      .strictObject({ type: z.literal('fill'), selector: Selector, value: z.string().max(1000) })
      .meta({ id: 'PlaybookFillStep', description: 'Type a value into a field' }),
    z
      .strictObject({
        type: z.literal('wait_for_text'),
        text: z.string().min(1).max(500),
        timeout_s: z.number().int().min(1).max(120).default(10).describe('Seconds to wait (1-120, default 10)'),
      })
      .meta({ id: 'PlaybookWaitForTextStep', description: 'Wait until the page shows this text' }),
    z
      .strictObject({ type: z.literal('coin_tabs'), selectors: z.array(Selector).min(1).max(50) })
      .meta({ id: 'PlaybookCoinTabsStep', description: 'Treat the elements matching these selectors as coin tabs (click each, extract wallets)' }),
    z
      .strictObject({ type: z.literal('limit_pages'), max: z.number().int().min(1).max(200) })
      .meta({ id: 'PlaybookLimitPagesStep', description: 'Visit at most this many pages on this site' }),
  ])
  .meta({ id: 'PlaybookStep' });

export type PlaybookStep = z.infer<typeof PlaybookStepSchema>;
export type ClickStep = Extract<PlaybookStep, { type: 'click' }>;
export type FillStep = Extract<PlaybookStep, { type: 'fill' }>;
export type WaitForTextStep = Extract<PlaybookStep, { type: 'wait_for_text' }>;
export type CoinTabsStep = Extract<PlaybookStep, { type: 'coin_tabs' }>;
export type LimitPagesStep = Extract<PlaybookStep, { type: 'limit_pages' }>;
export const PLAYBOOK_STEP_TYPES = ['click', 'fill', 'wait_for_text', 'coin_tabs', 'limit_pages'] as const;

/** The shape every valid pattern has (also published in the OpenAPI schema); compileGlob decides the rest. */
const GLOB_SHAPE = /^(?:\\\S|[^\s()|\\!])(?:\\\S|[^\s()|\\])*$/;

export const UrlPatternSchema = z
  .string()
  .min(1)
  .max(MAX_PATTERN_LENGTH)
  .regex(GLOB_SHAPE, 'not a valid URL pattern: no whitespace, no leading "!" (negation), no unescaped ( ) | (extglobs), no trailing \\')
  .superRefine((p, ctx) => {
    if (p.length === 0 || p.length > MAX_PATTERN_LENGTH || !GLOB_SHAPE.test(p)) return; // already reported
    try {
      compileGlob(p);
    } catch (err) {
      if (!(err instanceof GlobSyntaxError)) throw err;
      ctx.addIssue({ code: 'custom', message: `not a valid URL pattern: ${err.message}` });
    }
  })
  .describe('A glob matched against host + path, e.g. "*.scam.test/**" (see README "Playbooks")');

export const PlaybookInputSchema = z
  .strictObject({
    name: nameText(200),
    url_patterns: z.array(UrlPatternSchema).min(1).max(MAX_PATTERNS),
    steps: z.array(PlaybookStepSchema).max(100).default([]),
    enabled: z.boolean().default(true),
  })
  .meta({ id: 'PlaybookInput' });

export type PlaybookInput = z.infer<typeof PlaybookInputSchema>;

/** What matching needs of a stored playbook. */
export interface MatchablePlaybook {
  id: string;
  url_patterns: readonly string[];
  enabled: boolean;
}

export interface PlaybookMatch<P extends MatchablePlaybook> {
  playbook: P;
  /** The first of the playbook's patterns that matched. */
  pattern: string;
}

const compiledCache = new Map<string, CompiledGlob | null>();
function compiled(pattern: string): CompiledGlob | null {
  let c = compiledCache.get(pattern);
  if (c === undefined) {
    try {
      c = compileGlob(pattern);
    } catch {
      c = null; // a stored pattern that no longer parses never matches
    }
    if (compiledCache.size > 5000) compiledCache.clear();
    compiledCache.set(pattern, c);
  }
  return c;
}

/** The first pattern of `patterns` that matches `url`, or null (also for a URL that does not parse). */
export function matchingPattern(patterns: readonly string[], url: string): string | null {
  const subject = globSubject(url);
  if (subject === null) return null;
  for (const p of patterns) {
    const g = compiled(p);
    if (g && globMatches(g, subject)) return p;
  }
  return null;
}

/** Every enabled playbook matching `url`, in the order given, with the pattern that matched. */
export function matchingPlaybooks<P extends MatchablePlaybook>(playbooks: readonly P[], url: string): Array<PlaybookMatch<P>> {
  const out: Array<PlaybookMatch<P>> = [];
  for (const playbook of playbooks) {
    if (!playbook.enabled) continue;
    const pattern = matchingPattern(playbook.url_patterns, url);
    if (pattern !== null) out.push({ playbook, pattern });
  }
  return out;
}

/**
 * The playbook an investigation without `playbook_id` uses: the first enabled match in the order
 * given (the repository orders by creation, oldest first).
 */
export function firstMatchingPlaybook<P extends MatchablePlaybook>(playbooks: readonly P[], url: string): PlaybookMatch<P> | null {
  return matchingPlaybooks(playbooks, url)[0] ?? null;
}
