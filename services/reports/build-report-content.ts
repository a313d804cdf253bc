// A report's content: its sections read for the period and scope, in the view every role but
// analyst gets (a report file travels: it is e-mailed and downloaded with report keys): bank
// details inside intake and case text masked (the search's masking of free text), and never an
// intake's contact data (sealed in the vault, never read here).
import type { Knex } from 'knex';
import { loadReportSections, loadStatusCountSections } from '../../db/repositories/reports/report-data-repository';
import type { ReportContent, ReportSection } from '../../domain/reports/report-content';
import { maskBankDetailsInText } from '../../domain/search/bank-detail-mask';
import type { ReportOptions, ReportScope } from '../../domain/reports/report-request';
import { findTemplate } from '../../domain/reports/report-templates';

export interface ContentRequest {
  template: string;
  scope: ReportScope;
  options: ReportOptions;
  asOf: Date;
  /**
   * Start of the period the report covers, [periodStart, asOf): for a scheduled run the previous
   * due time (its last completed run, or one cadence step back for the first); null (all time) for
   * one-off reports. scope.since_days overrides it.
   */
  periodStart: Date | null;
  /** Most rows per section (default: the repository's cap). */
  rowCap?: number;
}

/** Kinds whose rows carry people's free text (intake summaries, case titles). */
const FREE_TEXT_KINDS = new Set(['intake', 'case']);

function masked(section: ReportSection): ReportSection {
  if (!FREE_TEXT_KINDS.has(section.entityType)) return section;
  return { ...section, rows: section.rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' ? maskBankDetailsInText(v) : v]))) };
}

export async function buildReportContent(knex: Knex, req: ContentRequest, now: Date): Promise<ReportContent> {
  const template = findTemplate(req.template);
  if (!template) throw new Error(`unknown template ${req.template}`);
  const since = req.scope.since_days ? new Date(req.asOf.getTime() - req.scope.since_days * 86_400_000) : req.periodStart;
  const types = req.scope.entity_types.length ? req.scope.entity_types : template.defaultEntityTypes;
  const filter = {
    since,
    until: req.asOf,
    networks: req.scope.networks,
    tokens: req.scope.tokens,
    minConfidence: req.scope.min_confidence,
    sources: req.scope.sources,
  };
  const counted = (template.statusCounts ?? []).filter((t) => types.includes(t));
  const sections = [
    ...(await loadStatusCountSections(knex, counted, filter)),
    ...(await loadReportSections(knex, types, filter, req.rowCap === undefined ? {} : { rowCap: req.rowCap })).map(masked),
  ];
  const scopeParts = [
    `entities: ${types.join(', ')}`,
    since ? `from ${since.toISOString()}` : 'all time',
    `until ${req.asOf.toISOString()}`,
    ...(req.scope.networks?.length ? [`networks: ${req.scope.networks.join(', ')}`] : []),
    ...(req.scope.tokens?.length ? [`tokens: ${req.scope.tokens.join(', ')}`] : []),
    ...(req.scope.min_confidence ? [`confidence ≥ ${req.scope.min_confidence}`] : []),
    ...(req.scope.sources?.length ? [`sources: ${req.scope.sources.join(', ')}`] : []),
  ];
  return {
    template: template.name,
    title: req.options.title ?? template.title,
    asOf: req.asOf.toISOString(),
    generatedAt: now.toISOString(),
    scopeSummary: scopeParts.join('; '),
    sections,
  };
}
