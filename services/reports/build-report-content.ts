import type { Knex } from 'knex';
import { loadReportSections } from '../../db/repositories/reports/report-data-repository';
import type { ReportContent } from '../../domain/reports/report-content';
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

export async function buildReportContent(knex: Knex, req: ContentRequest, now: Date): Promise<ReportContent> {
  const template = findTemplate(req.template);
  if (!template) throw new Error(`unknown template ${req.template}`);
  const since = req.scope.since_days ? new Date(req.asOf.getTime() - req.scope.since_days * 86_400_000) : req.periodStart;
  const types = req.scope.entity_types.length ? req.scope.entity_types : template.defaultEntityTypes;
  const sections = await loadReportSections(
    knex,
    types,
    {
      since,
      until: req.asOf,
      networks: req.scope.networks,
      tokens: req.scope.tokens,
      minConfidence: req.scope.min_confidence,
      sources: req.scope.sources,
    },
    req.rowCap === undefined ? {} : { rowCap: req.rowCap },
  );
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
