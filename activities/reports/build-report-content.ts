import type { Knex } from 'knex';
import { loadReportSections } from '../../db/repositories/report-data-repository';
import type { Cadence } from '../../domain/reports/cadence';
import type { ReportContent } from '../../domain/reports/report-content';
import type { ReportOptions, ReportScope } from '../../domain/reports/report-request';
import { findTemplate } from '../../domain/reports/report-templates';

const PERIOD_DAYS: Record<Cadence, number> = { daily: 1, weekly: 7, monthly: 31 };

export interface ContentRequest {
  template: string;
  scope: ReportScope;
  options: ReportOptions;
  asOf: Date;
  /** Scheduled reports cover one cadence period by default; one-off reports all time. */
  cadence?: Cadence;
}

export async function buildReportContent(knex: Knex, req: ContentRequest, now: Date): Promise<ReportContent> {
  const template = findTemplate(req.template);
  if (!template) throw new Error(`unknown template ${req.template}`);
  const days = req.scope.since_days ?? (req.cadence ? PERIOD_DAYS[req.cadence] : undefined);
  const since = days ? new Date(req.asOf.getTime() - days * 86_400_000) : null;
  const types = req.scope.entity_types.length ? req.scope.entity_types : template.defaultEntityTypes;
  const sections = await loadReportSections(knex, types, {
    since,
    until: req.asOf,
    networks: req.scope.networks,
    tokens: req.scope.tokens,
    minConfidence: req.scope.min_confidence,
    sources: req.scope.sources,
  });
  const scopeParts = [
    `entities: ${types.join(', ')}`,
    since ? `from ${since.toISOString()}` : 'all time',
    `until ${req.asOf.toISOString()}`,
    ...(req.scope.networks?.length ? [`networks: ${req.scope.networks.join(', ')}`] : []),
    ...(req.scope.tokens?.length ? [`tokens: ${req.scope.tokens.join(', ')}`] : []),
    ...(req.scope.min_confidence ? [`confidence ≥ ${req.scope.min_confidence}`] : []),
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
