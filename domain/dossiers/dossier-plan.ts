// A dossier's plan (POST /reports/dossiers) and its states. Pure: no I/O.
//
//   queued ──> collecting ──> signing ──> ready
//      └───────────┴─────────────┴──────> failed
import { z } from 'zod';
import { nameText } from '../text-safety';

export const DOSSIER_STATUSES = ['queued', 'collecting', 'signing', 'ready', 'failed'] as const;
export type DossierStatus = (typeof DOSSIER_STATUSES)[number];

/** What a dossier may hold; a plan without `sections` holds every section its sources have. */
export const DOSSIER_SECTIONS = ['case', 'intakes', 'investigations', 'graph'] as const;
export type DossierSection = (typeof DOSSIER_SECTIONS)[number];

export const MAX_PLAN_SCANS = 50;
export const MAX_PLAN_ENTITIES = 500;

export const DossierPlanSchema = z
  .object({
    title: nameText(300),
    case_id: z.string().uuid().optional(),
    scan_ids: z.array(z.string().uuid()).max(MAX_PLAN_SCANS).optional(),
    entity_ids: z.array(z.string().uuid()).max(MAX_PLAN_ENTITIES).optional(),
    sections: z.array(z.enum(DOSSIER_SECTIONS)).min(1).optional().describe('Default: every section'),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.case_id && !v.scan_ids?.length && !v.entity_ids?.length) {
      ctx.addIssue({ code: 'custom', path: ['case_id'], message: 'a dossier needs at least one of case_id, scan_ids or entity_ids' });
    }
  });

export type DossierPlan = z.infer<typeof DossierPlanSchema>;

/** One source the workflow collects, in order: a case, an intake, a scan, the graph extract. */
export interface DossierSource {
  kind: 'case' | 'intake' | 'investigation' | 'graph';
  id: string;
}

const SECTION_OF: Record<DossierSource['kind'], DossierSection> = {
  case: 'case',
  intake: 'intakes',
  investigation: 'investigations',
  graph: 'graph',
};

/**
 * The sources of a plan, given what its case links to: the case itself, its intakes, the plan's
 * scans plus the case's investigations, and one graph extract of the
 * plan's entities plus the case's. (Generated reports carry no link to a case yet, so none is
 * collected.) Deduplicated, in a stable order, filtered by `sections`.
 */
export function planSources(
  plan: DossierPlan,
  linked: { intakeIds: readonly string[]; scanIds: readonly string[]; entityIds: readonly string[] },
): DossierSource[] {
  const uniq = (ids: readonly string[]) => [...new Set(ids)];
  const out: DossierSource[] = [];
  if (plan.case_id) out.push({ kind: 'case', id: plan.case_id });
  for (const id of uniq(linked.intakeIds)) out.push({ kind: 'intake', id });
  for (const id of uniq([...(plan.scan_ids ?? []), ...linked.scanIds])) out.push({ kind: 'investigation', id });
  if (plan.entity_ids?.length || linked.entityIds.length) out.push({ kind: 'graph', id: 'entities' });
  const sections = new Set<DossierSection>(plan.sections ?? DOSSIER_SECTIONS);
  return out.filter((s) => sections.has(SECTION_OF[s.kind]));
}
