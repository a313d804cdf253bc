// The classifications of investigations and intakes (one row per subject) and the history the
// classifier reads: the taxonomies of the other subjects and cases that share a wallet with a subject.
import type { Knex } from 'knex';
import type { ClassificationSource, Evidence } from '../../../domain/classification/scam-classification';

export type SubjectKind = 'investigation' | 'intake';

export interface ClassificationRow {
  subject_kind: SubjectKind;
  subject_id: string;
  taxonomy: string;
  confidence: number;
  evidence: Evidence[];
  source: ClassificationSource;
  classified_at: Date;
  auto_taxonomy: string | null;
  auto_confidence: number | null;
  auto_source: string | null;
  corrected_from: string | null;
  corrected_by: string | null;
  correction_reason: string | null;
  corrected_at: Date | null;
}

export async function findClassification(knex: Knex | Knex.Transaction, kind: SubjectKind, id: string): Promise<ClassificationRow | null> {
  const row = (await knex('classifications').where({ subject_kind: kind, subject_id: id }).first()) as ClassificationRow | undefined;
  return row ? { ...row, confidence: Number(row.confidence), auto_confidence: row.auto_confidence === null ? null : Number(row.auto_confidence) } : null;
}

/**
 * An automatic result: always kept as the automatic prediction; shown unless an analyst corrected
 * the subject (the correction wins). A correction made before any automatic result learns here
 * what it corrected. One row per subject: a retried activity writes the same row.
 */
export async function upsertAutomaticClassification(
  knex: Knex,
  kind: SubjectKind,
  id: string,
  c: { taxonomy: string; confidence: number; evidence: Evidence[]; source: 'rules' | 'llm' },
): Promise<ClassificationRow> {
  const evidence = JSON.stringify(c.evidence);
  const analyst = "classifications.source = 'analyst'";
  const keep = (col: string) => knex.raw(`CASE WHEN ${analyst} THEN classifications.${col} ELSE excluded.${col} END`);
  const [row] = (await knex('classifications')
    .insert({
      subject_kind: kind, subject_id: id, taxonomy: c.taxonomy, confidence: c.confidence, evidence, source: c.source, classified_at: knex.fn.now(),
      auto_taxonomy: c.taxonomy, auto_confidence: c.confidence, auto_evidence: evidence, auto_source: c.source, auto_classified_at: knex.fn.now(),
    })
    .onConflict(['subject_kind', 'subject_id'])
    .merge({
      taxonomy: keep('taxonomy'), confidence: keep('confidence'), evidence: keep('evidence'), source: keep('source'), classified_at: keep('classified_at'),
      auto_taxonomy: knex.raw('excluded.auto_taxonomy'), auto_confidence: knex.raw('excluded.auto_confidence'), auto_evidence: knex.raw('excluded.auto_evidence'),
      auto_source: knex.raw('excluded.auto_source'), auto_classified_at: knex.raw('excluded.auto_classified_at'),
      corrected_from: knex.raw(`CASE WHEN ${analyst} THEN COALESCE(classifications.corrected_from, excluded.auto_taxonomy) ELSE NULL END`),
    })
    .returning('*')) as ClassificationRow[];
  return row!;
}

/** An analyst's correction: shown from now on; the automatic prediction it corrects is kept. */
export async function writeCorrection(
  trx: Knex.Transaction,
  kind: SubjectKind,
  id: string,
  c: { taxonomy: string; reason: string; by: string },
): Promise<ClassificationRow> {
  const evidence = JSON.stringify([{ feature: 'analyst', detail: c.reason, weight: 1 }]);
  const [row] = (await trx('classifications')
    .insert({
      subject_kind: kind, subject_id: id, taxonomy: c.taxonomy, confidence: 1, evidence, source: 'analyst', classified_at: trx.fn.now(),
      corrected_by: c.by, correction_reason: c.reason, corrected_at: trx.fn.now(),
    })
    .onConflict(['subject_kind', 'subject_id'])
    .merge({
      taxonomy: trx.raw('excluded.taxonomy'), confidence: 1, evidence: trx.raw('excluded.evidence'), source: 'analyst', classified_at: trx.fn.now(),
      corrected_by: c.by, correction_reason: c.reason, corrected_at: trx.fn.now(),
      // The automatic prediction when first corrected (a later correction does not move it).
      corrected_from: trx.raw("CASE WHEN classifications.source = 'analyst' THEN classifications.corrected_from ELSE classifications.auto_taxonomy END"),
    })
    .returning('*')) as ClassificationRow[];
  return row!;
}

/** Corrected subjects with a known automatic prediction (optionally only the given subjects). */
export async function correctedPredictions(knex: Knex, subjects?: ReadonlyArray<{ kind: SubjectKind; id: string }>): Promise<Array<{ taxonomy: string; corrected_from: string; corrected_at: Date }>> {
  const q = knex('classifications').whereNotNull('corrected_at').whereNotNull('corrected_from').select('taxonomy', 'corrected_from', 'corrected_at');
  if (subjects) {
    if (!subjects.length) return [];
    q.whereIn(['subject_kind', 'subject_id'], subjects.map((s) => [s.kind, s.id]));
  }
  return (await q) as Array<{ taxonomy: string; corrected_from: string; corrected_at: Date }>;
}

/**
 * Other subjects sharing a wallet with this one, and the taxonomy each has: its classification
 * (not `unclassified`), or the taxonomy of its case (the case it was filed under or linked to).
 */
export async function walletHistory(knex: Knex, kind: SubjectKind, id: string, limit = 20): Promise<Array<{ wallet: string; taxonomy: string; source_kind: string; source_id: string }>> {
  const { rows } = (await knex.raw(
    `WITH mine AS (
       SELECT e.id, e.value FROM sightings s JOIN entities e ON e.id = s.entity_id
        WHERE s.source_kind = ? AND s.source_id = ? AND e.type = 'wallet'
     ), others AS (
       SELECT DISTINCT m.value AS wallet, o.source_kind, o.source_id FROM mine m JOIN sightings o ON o.entity_id = m.id
        WHERE NOT (o.source_kind = ? AND o.source_id = ?)
     )
     SELECT o.wallet, t.taxonomy, o.source_kind, o.source_id FROM others o
     JOIN LATERAL (
       SELECT c.taxonomy FROM classifications c WHERE c.subject_kind = o.source_kind AND c.subject_id = o.source_id AND c.taxonomy <> 'unclassified'
       UNION ALL SELECT k.taxonomy FROM investigations i JOIN cases k ON k.id = i.case_id WHERE o.source_kind = 'investigation' AND i.scan_id::text = o.source_id AND k.taxonomy IS NOT NULL
       UNION ALL SELECT k.taxonomy FROM intakes n JOIN cases k ON k.id = n.case_id WHERE o.source_kind = 'intake' AND n.id::text = o.source_id AND k.taxonomy IS NOT NULL
       UNION ALL SELECT k.taxonomy FROM case_links l JOIN cases k ON k.id = l.case_id WHERE l.target_type = o.source_kind AND l.target_id = o.source_id AND k.taxonomy IS NOT NULL
       UNION ALL SELECT k.taxonomy FROM cases k WHERE o.source_kind = 'case' AND k.id::text = o.source_id AND k.taxonomy IS NOT NULL
       LIMIT 1
     ) t ON true
     ORDER BY o.wallet, o.source_kind, o.source_id
     LIMIT ?`,
    [kind, id, kind, id, limit],
  )) as { rows: Array<{ wallet: string; taxonomy: string; source_kind: string; source_id: string }> };
  return rows;
}

/** The taxonomy of each given investigation: its classification (not `unclassified`) or its case's. */
export async function investigationTaxonomies(knex: Knex, scanIds: readonly string[]): Promise<Map<string, string>> {
  if (!scanIds.length) return new Map();
  const { rows } = (await knex.raw(
    `SELECT i.scan_id::text AS scan_id, COALESCE(
        (SELECT c.taxonomy FROM classifications c WHERE c.subject_kind = 'investigation' AND c.subject_id = i.scan_id::text AND c.taxonomy <> 'unclassified'),
        (SELECT k.taxonomy FROM cases k WHERE k.id = i.case_id),
        (SELECT k.taxonomy FROM case_links l JOIN cases k ON k.id = l.case_id WHERE l.target_type = 'investigation' AND l.target_id = i.scan_id::text AND k.taxonomy IS NOT NULL LIMIT 1)
      ) AS taxonomy
     FROM investigations i WHERE i.scan_id::text IN (${scanIds.map(() => '?').join(', ')})`,
    [...scanIds],
  )) as { rows: Array<{ scan_id: string; taxonomy: string | null }> };
  return new Map(rows.filter((r) => r.taxonomy).map((r) => [r.scan_id, r.taxonomy!]));
}
