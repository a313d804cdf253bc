// Places an investigation or an intake in the scam taxonomy from deterministic features, with a
// confidence (0..1) and the evidence for it: the taxonomy's words in the agent's languages, the
// page structure (deposit page, coin tabs, login and registration forms, countdown, cart), the
// wallets' history (a wallet already in a classified case or subject) and the kit's history (a
// linked similar site that has a classification). Pure; the I/O is services/classification/.
import { isTaxonomyPath, taxonomyLineage, TAXONOMY_ENTRIES, UNCLASSIFIED } from '../analytics/scam-taxonomy';
import { compileLexicon, findMatches, normaliseText, searchText, type VocabularyLanguage } from '../investigations/funnel-vocabulary-matching';
import { CLASSIFICATION_VOCABULARY } from './classification-vocabulary';

export const CLASSIFICATION_SOURCES = ['rules', 'llm', 'analyst'] as const;
export type ClassificationSource = (typeof CLASSIFICATION_SOURCES)[number];

export interface Evidence {
  feature: 'vocabulary' | 'structure' | 'wallet_history' | 'kit_history' | 'llm' | 'analyst';
  detail: string;
  weight: number;
}

export interface Classification {
  /** A taxonomy path, or `unclassified` when nothing points anywhere. */
  taxonomy: string;
  confidence: number;
  evidence: Evidence[];
}

export interface StructureSignals {
  depositPage: boolean;
  coinTabs: readonly string[];
  loginForm: boolean;
  registrationForm: boolean;
  countdown: boolean;
  cart: boolean;
}

export interface ClassificationInput {
  texts: readonly string[];
  structure?: StructureSignals;
  /** Wallets of this subject already seen in a classified case or subject. */
  walletHistory?: ReadonlyArray<{ wallet: string; taxonomy: string; where: string }>;
  /** Linked similar sites (score >= 0.5) with a classification or a case taxonomy. */
  kitHistory?: ReadonlyArray<{ scanId: string; score: number; taxonomy: string }>;
}

/** The weights: documented in docs/intelligence-automation.md ("Automatic classification"). */
export const WEIGHTS = {
  /** Each distinct phrase of a node found. */
  phrase: 0.12,
  /** The most the vocabulary adds to one node. */
  vocabularyCap: 0.6,
  depositPage: 0.25,
  coinTabs: 0.35,
  registrationWithDeposit: 0.1,
  loginWithoutDeposit: 0.2,
  countdown: 0.1,
  cart: 0.3,
  /** Per wallet already in a classified case or subject (capped at two wallets per node). */
  wallet: 0.35,
  /** Times the similar site's score (capped at two sites per node). */
  kit: 0.6,
} as const;

/** Below this total support the subject stays `unclassified`. */
export const MIN_SUPPORT = 0.2;
/** A child is chosen over its parent when it holds this share of the parent's support. */
const DESCEND_SHARE = 0.6;

type Key = string;
const SEP = '\u0000';
const LEXICON = compileLexicon(
  CLASSIFICATION_VOCABULARY.flatMap((v) =>
    Object.entries(v.phrases).flatMap(([lang, phrases]) => (phrases ?? []).map((p) => ({ kind: [v.path, lang, p].join(SEP) as Key, phrases: { [lang as VocabularyLanguage]: [p] } }))),
  ),
);

/** Texts cut into pieces normaliseText takes whole (it reads 2,000 characters), at spaces. */
function pieces(text: string, size = 1500): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > size) {
    const cut = rest.lastIndexOf(' ', size);
    const at = cut > size / 2 ? cut : size;
    out.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  if (rest.trim()) out.push(rest);
  return out;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** The vocabulary's matches: per node, the distinct phrases found (with their language). */
export function vocabularyMatches(texts: readonly string[]): Map<string, Array<{ lang: string; phrase: string }>> {
  const found = new Map<string, Array<{ lang: string; phrase: string }>>();
  for (const text of texts) {
    for (const piece of pieces(text)) {
      for (const m of findMatches(searchText(normaliseText(piece)), LEXICON)) {
        const [path, lang, phrase] = m.kind.split(SEP) as [string, string, string];
        const list = found.get(path) ?? [];
        if (!list.some((x) => x.phrase === phrase)) list.push({ lang, phrase });
        found.set(path, list);
      }
    }
  }
  return found;
}

/** Every feature as evidence for a taxonomy path. */
export function collectEvidence(input: ClassificationInput): Array<Evidence & { path: string }> {
  const out: Array<Evidence & { path: string }> = [];
  for (const [path, phrases] of vocabularyMatches(input.texts)) {
    const weight = Math.min(WEIGHTS.vocabularyCap, phrases.length * WEIGHTS.phrase);
    out.push({ path, feature: 'vocabulary', weight: round(weight), detail: phrases.slice(0, 8).map((p) => `"${p.phrase}" (${p.lang})`).join(', ') });
  }
  const s = input.structure;
  if (s) {
    if (s.coinTabs.length >= 2) out.push({ path: 'investment/crypto/fake-exchange', feature: 'structure', weight: WEIGHTS.coinTabs, detail: `coin tabs: ${s.coinTabs.join(', ')}` });
    // A deposit page behind coin tabs is an exchange's; alone it says crypto investment.
    const deposit = s.coinTabs.length >= 2 ? 'investment/crypto/fake-exchange' : 'investment/crypto';
    if (s.depositPage) out.push({ path: deposit, feature: 'structure', weight: WEIGHTS.depositPage, detail: 'a deposit page showing a wallet address' });
    if (s.depositPage && s.registrationForm) out.push({ path: deposit, feature: 'structure', weight: WEIGHTS.registrationWithDeposit, detail: 'a registration form before the deposit page' });
    if (s.loginForm && !s.depositPage && !s.cart) out.push({ path: 'phishing/credential', feature: 'structure', weight: WEIGHTS.loginWithoutDeposit, detail: 'a login form and no deposit page' });
    if (s.countdown) out.push({ path: 'advance-fee/lottery', feature: 'structure', weight: WEIGHTS.countdown, detail: 'a countdown' });
    if (s.cart) out.push({ path: 'shopping/fake-store', feature: 'structure', weight: WEIGHTS.cart, detail: 'a shopping cart' });
  }
  const byPath = new Map<string, number>();
  for (const w of input.walletHistory ?? []) {
    if (!isTaxonomyPath(w.taxonomy)) continue;
    const n = byPath.get(`w${w.taxonomy}`) ?? 0;
    if (n >= 2) continue;
    byPath.set(`w${w.taxonomy}`, n + 1);
    out.push({ path: w.taxonomy, feature: 'wallet_history', weight: WEIGHTS.wallet, detail: `wallet ${w.wallet} is in ${w.where}` });
  }
  for (const k of [...(input.kitHistory ?? [])].sort((a, b) => b.score - a.score)) {
    if (!isTaxonomyPath(k.taxonomy) || k.score < 0.5) continue;
    const n = byPath.get(`k${k.taxonomy}`) ?? 0;
    if (n >= 2) continue;
    byPath.set(`k${k.taxonomy}`, n + 1);
    out.push({ path: k.taxonomy, feature: 'kit_history', weight: round(WEIGHTS.kit * k.score), detail: `the same kit as investigation ${k.scanId} (score ${k.score.toFixed(2)})` });
  }
  return out;
}

/**
 * The taxonomy node the evidence points to: support rolls up to every ancestor; the best top-level
 * node is taken, then its best child while that child holds most of its parent's support. The
 * confidence grows with the support and shrinks with the support for other top-level nodes.
 */
export function classify(input: ClassificationInput): Classification {
  const evidence = collectEvidence(input);
  const support = new Map<string, number>();
  for (const e of evidence) for (const p of taxonomyLineage(e.path)) support.set(p, (support.get(p) ?? 0) + e.weight);
  const total = TAXONOMY_ENTRIES.filter((e) => e.depth === 1).reduce((s, e) => s + (support.get(e.path) ?? 0), 0);
  if (total < MIN_SUPPORT) return { taxonomy: UNCLASSIFIED, confidence: 0, evidence: evidence.map(({ path: _p, ...e }) => e) };
  const best = (parent: string | null) =>
    TAXONOMY_ENTRIES.filter((e) => e.parent === parent)
      .map((e) => ({ path: e.path, s: support.get(e.path) ?? 0 }))
      .sort((a, b) => b.s - a.s || a.path.localeCompare(b.path))[0];
  let chosen = best(null)!;
  for (;;) {
    const child = best(chosen.path);
    if (!child || child.s < DESCEND_SHARE * chosen.s || child.s === 0) break;
    chosen = child;
  }
  const root = chosen.path.split('/')[0]!;
  const share = (support.get(root) ?? 0) / total;
  const confidence = round(Math.min(0.99, (chosen.s / (chosen.s + 0.5)) * share));
  // The evidence for the chosen node's line first (what placed it), then the rest.
  const onLine = (p: string) => p === chosen.path || chosen.path.startsWith(`${p}/`) || p.startsWith(`${chosen.path}/`);
  const ordered = [...evidence].sort((a, b) => Number(onLine(b.path)) - Number(onLine(a.path)) || b.weight - a.weight);
  return { taxonomy: chosen.path, confidence, evidence: ordered.map((e) => ({ feature: e.feature, detail: onLine(e.path) ? e.detail : `${e.detail} (points to ${e.path})`, weight: e.weight })) };
}

/** An LLM's answer kept only when it names a taxonomy node and a confidence in 0..1. */
export function validLlmAnswer(raw: unknown): { taxonomy: string; confidence: number; reason: string } | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.taxonomy !== 'string' || !isTaxonomyPath(r.taxonomy)) return null;
  if (typeof r.confidence !== 'number' || !Number.isFinite(r.confidence) || r.confidence < 0 || r.confidence > 1) return null;
  const reason = typeof r.reason === 'string' ? r.reason.slice(0, 300) : '';
  return { taxonomy: r.taxonomy, confidence: round(r.confidence), reason };
}

/**
 * The rules' answer and the LLM's, combined: the LLM's node wins when its confidence is above the
 * rules' (its reason becomes evidence); otherwise the rules stand, with the LLM's agreement noted.
 */
export function combineWithLlm(rules: Classification, llm: { taxonomy: string; confidence: number; reason: string } | null): Classification & { source: 'rules' | 'llm' } {
  if (!llm) return { ...rules, source: 'rules' };
  const agrees = llm.taxonomy === rules.taxonomy;
  const ev: Evidence = { feature: 'llm', detail: `${llm.taxonomy}: ${llm.reason || 'no reason given'}`, weight: llm.confidence };
  if (agrees) return { taxonomy: rules.taxonomy, confidence: round(Math.min(0.99, Math.max(rules.confidence, llm.confidence))), evidence: [...rules.evidence, ev], source: 'rules' };
  if (llm.confidence > rules.confidence) return { taxonomy: llm.taxonomy, confidence: llm.confidence, evidence: [ev, ...rules.evidence], source: 'llm' };
  return { ...rules, evidence: [...rules.evidence, ev], source: 'rules' };
}

/** The classifier's accuracy against analysts' corrections: the share whose automatic prediction matched. */
export function correctionAccuracy(rows: ReadonlyArray<{ taxonomy: string; corrected_from: string }>): { accuracy: number | null; n: number } {
  if (!rows.length) return { accuracy: null, n: 0 };
  const matched = rows.filter((r) => r.corrected_from === r.taxonomy).length;
  return { accuracy: round(matched / rows.length), n: rows.length };
}
