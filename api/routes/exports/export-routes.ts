// Exports (spec "Exports"): entity and indicator spreadsheets (CSV, XLSX), indicator STIX 2.1
// bundles, and the researchers' anonymized aggregates. Downloads stream (export-download.ts) and are
// audited when the stream ends (services/exports/export-service.ts). Researchers may use only the
// aggregate export.
import { stringify } from 'csv-stringify/sync';
import type { z } from 'zod';
import { neutralizeFormula } from '../../../domain/spreadsheet-safety';
import { EXPORT_CONTENT_TYPES } from '../../../services/exports/export-writers';
import { exportEntities, exportIndicators, exportResearcherAggregate } from '../../../services/exports/export-service';
import { defineRoute } from '../../route-definition';
import { streamDownload } from './export-download';
import { EntityExportQuery, IndicatorExportQuery, ResearcherExportSchema, ResearcherQuery } from './export-schemas';

const stamp = () => new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');

export const exportRoutes = [
  defineRoute<Record<string, never>, z.infer<typeof EntityExportQuery>>({
    method: 'get',
    path: '/exports/entities',
    summary: 'Export entities as CSV or XLSX (streamed; bank details masked for every role but analyst; audited)',
    tags: ['exports'],
    access: { roles: ['admin', 'analyst', 'reviewer'] },
    request: { query: EntityExportQuery },
    responses: { 200: { description: `The entities; columns: id, type, value, display_value, network, token, country, first_seen_at, last_seen_at, sighting_count, risk_score, loss (EUR 1200.00; USD 5.00), victim_count`, contentType: [EXPORT_CONTENT_TYPES.csv, EXPORT_CONTENT_TYPES.xlsx] } },
    handler: async ({ query, principal, deps, ctx }) => {
      const download = exportEntities(deps, principal, query);
      streamDownload(ctx, download, { contentType: EXPORT_CONTENT_TYPES[query.fmt], fileName: `entities-${stamp()}.${query.fmt}` }, deps.log);
    },
  }),
  defineRoute<Record<string, never>, z.infer<typeof IndicatorExportQuery>>({
    method: 'get',
    path: '/exports/indicators',
    summary: 'Export indicators as CSV, XLSX or a STIX 2.1 bundle (streamed; audited)',
    tags: ['exports'],
    access: { roles: ['admin', 'analyst', 'reviewer'] },
    request: { query: IndicatorExportQuery },
    responses: {
      200: {
        description: 'The indicators (CSV/XLSX columns: id, type, value, category, confidence, tlp, valid_from, created_at, updated_at), or a STIX 2.1 bundle',
        contentType: [EXPORT_CONTENT_TYPES.csv, EXPORT_CONTENT_TYPES.xlsx, EXPORT_CONTENT_TYPES.stix],
      },
    },
    handler: async ({ query, principal, deps, ctx }) => {
      const fmt = query.fmt;
      const download = exportIndicators(deps, principal, query);
      streamDownload(ctx, download, { contentType: EXPORT_CONTENT_TYPES[fmt], fileName: `indicators-${stamp()}.${fmt === 'stix' ? 'stix.json' : fmt}` }, deps.log);
    },
  }),
  defineRoute<Record<string, never>, z.infer<typeof ResearcherQuery>>({
    method: 'get',
    path: '/exports/researcher/entities',
    summary: 'Anonymized, aggregate-only entity export: counts and losses by type, network, taxonomy, country and month; small groups suppressed; audited',
    tags: ['exports'],
    access: { roles: ['admin', 'analyst', 'researcher'] },
    request: { query: ResearcherQuery },
    responses: {
      200: {
        description: 'JSON (ResearcherExport), or CSV with one row per group and loss currency (entity_type, network, taxonomy, country, month, entity_count, victim_count, loss_currency, loss_amount)',
        schema: ResearcherExportSchema,
        otherContentTypes: [EXPORT_CONTENT_TYPES.csv],
      },
    },
    handler: async ({ query, principal, deps, ctx }) => {
      const agg = await exportResearcherAggregate(deps, principal, query);
      if (query.fmt === 'json') return { body: agg };
      const rows = agg.groups.flatMap((g) =>
        (g.losses.length ? g.losses : [{ currency: '', amount: '' }]).map((l) => ({ ...g, losses: undefined, loss_currency: l.currency, loss_amount: l.amount })),
      );
      const columns = ['entity_type', 'network', 'taxonomy', 'country', 'month', 'entity_count', 'victim_count', 'loss_currency', 'loss_amount'];
      ctx.type = EXPORT_CONTENT_TYPES.csv;
      ctx.attachment(`researcher-entities-${stamp()}.csv`);
      const csv = stringify(rows.map((r) => Object.fromEntries(columns.map((c) => [c, typeof r[c as keyof typeof r] === 'string' ? neutralizeFormula(r[c as keyof typeof r] as string) : r[c as keyof typeof r]]))), { header: true, columns });
      return { body: csv };
    },
  }),
];
