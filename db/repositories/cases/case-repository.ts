// Cases and their links (to intakes, investigations and graph entities). The only SQL for cases.
// createCase / linkToCase take a transaction (or knex) so that callers such as
// POST /intakes/{id}/case can create or attach in the same transaction as their own writes.
import type { Knex } from 'knex';
import {
  allowedCaseTransitions,
  canMoveCase,
  type CaseLinkType,
  type CasePriority,
  type CaseStatus,
} from '../../../domain/cases/case-states';
import { keysetPage, type Keyset, type KeysetPage } from '../../keyset-page';

export interface CaseRow {
  id: string;
  title: string;
  description: string;
  status: CaseStatus;
  priority: CasePriority;
  assignee: string | null;
  campaign_id: string | null;
  /** A path of the scam taxonomy (domain/analytics/scam-taxonomy.ts), or null. */
  taxonomy: string | null;
  /** numeric(20,2) as PostgreSQL prints it ("1234.50"), never a float. */
  loss_amount: string | null;
  loss_currency: string | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

export interface NewCase {
  title: string;
  description?: string;
  priority?: CasePriority;
  assignee?: string | null;
  campaign_id?: string | null;
  taxonomy?: string | null;
  /** A decimal string with at most 2 decimals ("1234.5"), with its ISO 4217 currency. */
  loss_amount?: string | null;
  loss_currency?: string | null;
}

export interface CaseLinkRow {
  case_id: string;
  target_type: CaseLinkType;
  target_id: string;
  linked_by: string;
  linked_at: Date;
}

export interface CaseLinkTarget {
  type: CaseLinkType;
  id: string;
}

export async function createCase(trx: Knex | Knex.Transaction, input: NewCase, createdBy: string): Promise<CaseRow> {
  const [row] = await trx('cases')
    .insert({
      title: input.title,
      description: input.description ?? '',
      priority: input.priority ?? 'medium',
      assignee: input.assignee ?? null,
      campaign_id: input.campaign_id ?? null,
      loss_amount: input.loss_amount ?? null,
      loss_currency: input.loss_currency ?? null,
      created_by: createdBy,
      created_at: trx.raw('clock_timestamp()'),
      updated_at: trx.raw('clock_timestamp()'),
    })
    .returning('*');
  return row as CaseRow;
}

export async function findCase(knex: Knex | Knex.Transaction, id: string): Promise<CaseRow | undefined> {
  return knex<CaseRow>('cases').where({ id }).first();
}

/**
 * Links a target to a case; idempotent (a repeated link keeps the first linked_by/at).
 * Returns null when the case does not exist, else whether this call added the link.
 */
export async function linkToCase(
  trx: Knex | Knex.Transaction,
  caseId: string,
  target: CaseLinkTarget,
  by: string,
): Promise<{ linked: boolean; link: CaseLinkRow } | null> {
  const found = await trx('cases').where({ id: caseId }).first('id');
  if (!found) return null;
  const [inserted] = await trx('case_links')
    .insert({ case_id: caseId, target_type: target.type, target_id: target.id, linked_by: by })
    .onConflict(['case_id', 'target_type', 'target_id'])
    .ignore()
    .returning('*');
  if (inserted) {
    await trx('cases').where({ id: caseId }).update({ updated_at: trx.raw('clock_timestamp()') });
    return { linked: true, link: inserted as CaseLinkRow };
  }
  const link = await trx<CaseLinkRow>('case_links').where({ case_id: caseId, target_type: target.type, target_id: target.id }).first();
  return { linked: false, link: link as CaseLinkRow };
}

/** Removes a target's link to a case; answers whether there was one. */
export async function unlinkFromCase(trx: Knex | Knex.Transaction, caseId: string, target: CaseLinkTarget): Promise<boolean> {
  const removed = await trx('case_links').where({ case_id: caseId, target_type: target.type, target_id: target.id }).delete();
  if (removed) await trx('cases').where({ id: caseId }).update({ updated_at: trx.raw('clock_timestamp()') });
  return removed > 0;
}

export async function listCaseLinks(knex: Knex | Knex.Transaction, caseId: string): Promise<CaseLinkRow[]> {
  return knex<CaseLinkRow>('case_links').where({ case_id: caseId }).orderBy([{ column: 'linked_at' }, { column: 'target_type' }, { column: 'target_id' }]);
}

/** The cases a target is linked to (for example the case of an intake). */
export async function casesLinkedTo(knex: Knex | Knex.Transaction, target: CaseLinkTarget): Promise<CaseLinkRow[]> {
  return knex<CaseLinkRow>('case_links').where({ target_type: target.type, target_id: target.id }).orderBy('linked_at');
}

export interface CaseFilters {
  status?: CaseStatus;
  priority?: CasePriority;
  assignee?: string;
  campaign_id?: string;
  /** Case-insensitive substring of title or description. */
  q?: string;
  /** `q` matches the text with bank details masked (fip_mask_bank_details), for callers who see them only masked. */
  maskedText?: boolean;
}

export async function listCases(knex: Knex, filters: CaseFilters, page: { limit: number; after?: Keyset }): Promise<KeysetPage<CaseRow>> {
  const query = knex('cases').select('cases.*');
  if (filters.status) query.where('status', filters.status);
  if (filters.priority) query.where('priority', filters.priority);
  if (filters.assignee) query.where('assignee', filters.assignee.toLowerCase());
  if (filters.campaign_id) query.where('campaign_id', filters.campaign_id);
  if (filters.q) {
    const like = `%${filters.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    if (filters.maskedText) query.where((w) => w.whereRaw('fip_mask_bank_details(title) ILIKE ?', [like]).orWhereRaw('fip_mask_bank_details(description) ILIKE ?', [like]));
    else query.where((w) => w.whereILike('title', like).orWhereILike('description', like));
  }
  return keysetPage<CaseRow>(knex, query, { tsColumn: 'cases.created_at', idColumn: 'cases.id', limit: page.limit, after: page.after });
}

export type CasePatch = Partial<Omit<NewCase, 'title'>> & { title?: string; status?: CaseStatus };

export type CaseUpdateResult =
  | { ok: true; row: CaseRow; previousStatus: CaseStatus }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'illegal_transition'; from: CaseStatus; to: CaseStatus; allowed: readonly CaseStatus[] };

/**
 * Updates a case under a row lock; a status change must follow the case machine
 * (domain/cases/case-states.ts). Setting the current status again is not a move and is allowed.
 */
export async function updateCase(knex: Knex, id: string, patch: CasePatch): Promise<CaseUpdateResult> {
  return knex.transaction(async (trx) => {
    const current = await trx<CaseRow>('cases').where({ id }).forUpdate().first();
    if (!current) return { ok: false, reason: 'not_found' } as const;
    if (patch.status !== undefined && patch.status !== current.status && !canMoveCase(current.status, patch.status)) {
      return { ok: false, reason: 'illegal_transition', from: current.status, to: patch.status, allowed: allowedCaseTransitions(current.status) } as const;
    }
    const changes: Record<string, unknown> = { updated_at: trx.raw('clock_timestamp()') };
    for (const key of ['title', 'description', 'status', 'priority', 'assignee', 'campaign_id', 'taxonomy', 'loss_amount', 'loss_currency'] as const) {
      if (patch[key] !== undefined) changes[key] = patch[key];
    }
    const [row] = await trx('cases').where({ id }).update(changes).returning('*');
    return { ok: true, row: row as CaseRow, previousStatus: current.status } as const;
  });
}

/**
 * Moves a case to `to` when the machine allows it from its current status; otherwise leaves it.
 * Used by side effects (enqueueing a review, a decision) that must not fail on a case elsewhere.
 */
export async function moveCaseIfAllowed(trx: Knex | Knex.Transaction, id: string, to: CaseStatus): Promise<boolean> {
  const current = await trx<CaseRow>('cases').where({ id }).forUpdate().first();
  if (!current || current.status === to || !canMoveCase(current.status, to)) return false;
  await trx('cases').where({ id }).update({ status: to, updated_at: trx.raw('clock_timestamp()') });
  return true;
}

export interface LossTotal {
  currency: string;
  /** Sum as a decimal string (numeric arithmetic in PostgreSQL, never floats). */
  amount: string;
}

/**
 * Total loss per currency of a case: its own recorded loss plus the losses of its linked intakes
 * (intakes.loss_amount numeric + intakes.loss_currency). Works before the intakes table exists:
 * then only the case's own loss counts.
 */
export async function caseLossTotals(knex: Knex | Knex.Transaction, caseId: string): Promise<LossTotal[]> {
  const exists = await knex.raw<{ rows: Array<{ t: string | null }> }>(`SELECT to_regclass('intakes')::text AS t`);
  const withIntakes = exists.rows[0]?.t != null;
  const parts = [`SELECT loss_currency AS currency, loss_amount AS amount FROM cases WHERE id = :caseId AND loss_amount IS NOT NULL`];
  if (withIntakes) {
    parts.push(
      `SELECT i.loss_currency AS currency, i.loss_amount AS amount
         FROM case_links cl JOIN intakes i ON i.id::text = cl.target_id
        WHERE cl.case_id = :caseId AND cl.target_type = 'intake' AND i.loss_amount IS NOT NULL AND i.loss_currency IS NOT NULL`,
    );
  }
  const result = await knex.raw<{ rows: Array<{ currency: string; amount: string }> }>(
    `SELECT currency, SUM(amount)::numeric(38,2)::text AS amount
       FROM (${parts.join(' UNION ALL ')}) losses GROUP BY currency ORDER BY currency`,
    { caseId },
  );
  return result.rows.map((r) => ({ currency: r.currency.trim(), amount: r.amount }));
}

export interface CaseEntity {
  id: string;
  type: string;
  value: string;
  display_value: string;
  risk_score: number | null;
  /** How the entity reaches the case: linked to it, sighted in it, or sighted in a linked intake or investigation. */
  via: Array<'link' | 'case' | 'intake' | 'investigation'>;
}

/**
 * The entities of a case: linked directly (case_links), sighted with the case as source, and
 * sighted in its linked intakes and investigations (sightings only: no join on the intakes or
 * investigations tables, so it works whichever of them exist). At most `limit`, by type and value.
 */
export async function caseEntities(knex: Knex | Knex.Transaction, caseId: string, limit = 1000): Promise<CaseEntity[]> {
  const result = await knex.raw<{ rows: CaseEntity[] }>(
    `WITH found AS (
       SELECT e.id, 'link' AS via FROM case_links cl JOIN entities e ON e.id::text = cl.target_id
        WHERE cl.case_id = :caseId AND cl.target_type = 'entity'
       UNION
       SELECT s.entity_id, 'case' FROM sightings s WHERE s.source_kind = 'case' AND s.source_id = :caseId
       UNION
       SELECT s.entity_id, cl.target_type FROM case_links cl
         JOIN sightings s ON s.source_kind = cl.target_type AND s.source_id = cl.target_id
        WHERE cl.case_id = :caseId AND cl.target_type IN ('intake', 'investigation')
     )
     SELECT e.id, e.type, e.value, e.display_value, e.risk_score, array_agg(DISTINCT f.via ORDER BY f.via) AS via
       FROM found f JOIN entities e ON e.id = f.id
      GROUP BY e.id
      ORDER BY e.type, e.value
      LIMIT :limit`,
    { caseId, limit },
  );
  return result.rows;
}
