// Automatic classification of investigations and intakes (domain/classification/scam-classification.ts
// scores; this file gathers the features and writes the one row per subject), analysts' corrections
// (audited; they win over later automatic runs) and the classifier's accuracy against them.
import type { Knex } from 'knex';
import { readBlob, type BlobStore } from '../../infra/blob-store';
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import {
  correctedPredictions,
  findClassification,
  investigationTaxonomies,
  upsertAutomaticClassification,
  walletHistory,
  writeCorrection,
  type ClassificationRow,
  type SubjectKind,
} from '../../db/repositories/classification/classification-repository';
import { findIntake, listIntakeJobs } from '../../db/repositories/intakes/intake-repository';
import { findInvestigation, listPages } from '../../db/repositories/investigations/investigation-repository';
import { principalName } from '../../domain/accounts/principal-name';
import type { Principal } from '../../domain/accounts/roles';
import { isTaxonomyPath, taxonomyEntry } from '../../domain/analytics/scam-taxonomy';
import { pageSignals } from '../../domain/classification/page-signals';
import { classify, combineWithLlm, correctionAccuracy, type ClassificationInput, type StructureSignals } from '../../domain/classification/scam-classification';
import { LINK_THRESHOLD } from '../../domain/similarity/site-similarity';
import { NotFoundError, ValidationError } from '../errors';
import { linkedScansOf } from '../../db/repositories/similarity/suggestion-repository';
import type { LlmClassifier } from './llm-classifier';

export interface ClassifierDeps {
  knex: Knex;
  blobs: BlobStore;
  llm?: LlmClassifier;
}

export interface ClassificationView {
  taxonomy: string;
  label: string;
  confidence: number;
  evidence: Array<{ feature: string; detail: string; weight: number }>;
  source: 'rules' | 'llm' | 'analyst';
  classified_at: string;
  /** The latest automatic prediction (also after a correction), or null when none ran yet. */
  automatic: { taxonomy: string; confidence: number; source: string } | null;
  correction: { by: string; reason: string; at: string } | null;
}

export function classificationView(row: ClassificationRow | null): ClassificationView | null {
  if (!row) return null;
  return {
    taxonomy: row.taxonomy,
    label: taxonomyEntry(row.taxonomy)?.label ?? 'Unclassified',
    confidence: row.confidence,
    evidence: row.evidence,
    source: row.source,
    classified_at: new Date(row.classified_at).toISOString(),
    automatic: row.auto_taxonomy === null ? null : { taxonomy: row.auto_taxonomy, confidence: row.auto_confidence ?? 0, source: row.auto_source ?? 'rules' },
    correction: row.corrected_at ? { by: row.corrected_by ?? '', reason: row.correction_reason ?? '', at: new Date(row.corrected_at).toISOString() } : null,
  };
}

export async function subjectClassification(knex: Knex, kind: SubjectKind, id: string): Promise<ClassificationView | null> {
  return classificationView(await findClassification(knex, kind, id));
}

async function decide(deps: ClassifierDeps, kind: SubjectKind, id: string, input: ClassificationInput): Promise<ClassificationRow> {
  const rules = classify(input);
  const llm = deps.llm ? await deps.llm.classify({ text: input.texts.join('\n'), rules }) : null;
  const { source, ...c } = combineWithLlm(rules, llm);
  return upsertAutomaticClassification(deps.knex, kind, id, { ...c, source });
}

const MAX_TEXT_PER_SUBJECT = 400_000;

/** Classifies an investigation from its stored captures, its wallets' history and its kit's history. */
export async function classifyInvestigation(deps: ClassifierDeps, scanId: string): Promise<ClassificationView> {
  const inv = await findInvestigation(deps.knex, scanId);
  if (!inv) throw new NotFoundError(`no investigation ${scanId}`);
  const texts: string[] = [];
  const structure: StructureSignals = { depositPage: false, coinTabs: [], loginForm: false, registrationForm: false, countdown: false, cart: false };
  const coins = new Set<string>();
  let length = 0;
  for (const page of await listPages(deps.knex, scanId)) {
    const s = pageSignals((await readBlob(deps.blobs, page.dom_key)).toString('utf8'));
    if (length < MAX_TEXT_PER_SUBJECT) {
      texts.push([page.title ?? '', s.text].join('\n'));
      length += s.text.length;
    }
    for (const c of s.coinTabs) coins.add(c);
    structure.depositPage ||= s.depositPage;
    structure.loginForm ||= s.loginForm;
    structure.registrationForm ||= s.registrationForm;
    structure.countdown ||= s.countdown;
    structure.cart ||= s.cart;
  }
  structure.coinTabs = [...coins].sort();
  const wallets = await walletHistory(deps.knex, 'investigation', scanId);
  // The links its fingerprint step just stored (the workflow classifies after it): no second index query.
  const similar = await linkedScansOf(deps.knex, scanId, LINK_THRESHOLD, 20);
  const taxonomies = await investigationTaxonomies(deps.knex, similar.map((i) => i.scanId));
  const row = await decide(deps, 'investigation', scanId, {
    texts,
    structure,
    walletHistory: wallets.map((w) => ({ wallet: w.wallet, taxonomy: w.taxonomy, where: `${w.source_kind} ${w.source_id}` })),
    kitHistory: similar.flatMap((i) => (taxonomies.has(i.scanId) ? [{ scanId: i.scanId, score: i.score, taxonomy: taxonomies.get(i.scanId)! }] : [])),
  });
  return classificationView(row)!;
}

/** Classifies an intake from its summary, details and files' text (as the text step stored them) and its wallets' history. */
export async function classifyIntake(deps: ClassifierDeps, intakeId: string): Promise<ClassificationView> {
  const intake = await findIntake(deps.knex, intakeId);
  if (!intake) throw new NotFoundError(`no intake ${intakeId}`);
  const texts = [intake.summary, intake.details ?? ''];
  const key = (await listIntakeJobs(deps.knex, intakeId)).find((j) => j.step === 'extract_text')?.result?.texts_blob;
  if (typeof key === 'string') {
    const parts = JSON.parse((await readBlob(deps.blobs, key)).toString('utf8')) as Array<{ where: string; text?: string; text_blob?: string }>;
    let length = 0;
    for (const part of parts.filter((p) => p.where.startsWith('file:'))) {
      if (length >= MAX_TEXT_PER_SUBJECT) break;
      const text = part.text ?? (part.text_blob ? (await readBlob(deps.blobs, part.text_blob)).toString('utf8') : '');
      texts.push(text.slice(0, MAX_TEXT_PER_SUBJECT - length));
      length += text.length;
    }
  }
  const wallets = await walletHistory(deps.knex, 'intake', intakeId);
  const row = await decide(deps, 'intake', intakeId, {
    texts,
    walletHistory: wallets.map((w) => ({ wallet: w.wallet, taxonomy: w.taxonomy, where: `${w.source_kind} ${w.source_id}` })),
  });
  return classificationView(row)!;
}

/** An analyst's correction: audited, shown from now on, the automatic prediction kept for the accuracy figure. */
export async function correctClassification(
  deps: { knex: Knex },
  principal: Principal | null,
  kind: SubjectKind,
  id: string,
  body: { taxonomy: string; reason: string },
): Promise<ClassificationView> {
  if (!isTaxonomyPath(body.taxonomy)) throw new ValidationError('unknown taxonomy path', [{ path: 'body.taxonomy', message: `${body.taxonomy} is not a taxonomy path (GET /taxonomy)` }]);
  const exists = kind === 'investigation' ? await findInvestigation(deps.knex, id) : await findIntake(deps.knex, id);
  if (!exists) throw new NotFoundError(`no ${kind} ${id}`);
  const by = principalName(principal);
  const row = await deps.knex.transaction(async (trx) => {
    const before = await findClassification(trx, kind, id);
    const after = await writeCorrection(trx, kind, id, { taxonomy: body.taxonomy, reason: body.reason, by });
    await recordAuditEvent(trx, {
      actor: by, action: 'classification.correct', target_type: kind, target_id: id, purpose: body.reason,
      details: { taxonomy: body.taxonomy, previous: before ? { taxonomy: before.taxonomy, source: before.source, confidence: before.confidence } : null, automatic: before?.auto_taxonomy ?? null },
    });
    return after;
  });
  return classificationView(row)!;
}

/** The share of corrected subjects whose automatic prediction matched the analyst, with n (optionally over the given subjects only). */
export async function classificationAccuracy(knex: Knex, subjects?: ReadonlyArray<{ kind: SubjectKind; id: string }>): Promise<{ accuracy: number | null; n: number; as_of: string }> {
  const rows = await correctedPredictions(knex, subjects);
  return { ...correctionAccuracy(rows), as_of: new Date().toISOString() };
}
