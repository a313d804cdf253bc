// Exports (spec "Exports"): entity and indicator spreadsheets (CSV, XLSX), indicator STIX 2.1
// bundles, and the researchers' anonymized aggregates. Downloads stream (services/exports) and are
// audited when the stream ends. Researchers may use only the aggregate export.
import { stringify } from 'csv-stringify/sync';
import { z } from 'zod';
import { researcherAggregate } from '../../../db/repositories/exports/export-repository';
import { GRAPH_ENTITY_TYPES, type GraphEntityType } from '../../../domain/intelligence/entity-types';
import { INTEL_ENTITY_ORDERS } from '../../../db/repositories/intelligence/intel-entity-repository';
import { seesBankDetails } from '../../../domain/intelligence/entity-masking';
import { recordAuditEvent } from '../../../db/repositories/audit/audit-event-repository';
import { neutralizeFormula } from '../../../domain/spreadsheet-safety';
import { EXPORT_CONTENT_TYPES } from '../../../services/exports/export-writers';
import { streamDownload, writeEntityExport, writeIndicatorSpreadsheet, writeIndicatorStix } from '../../../services/exports/export-service';
import { principalName } from '../../../domain/accounts/principal-name';
import { defineRoute } from '../../route-definition';

const since = z.iso.datetime({ offset: true }).optional().describe('ISO 8601 time: only rows seen/changed at or after it');

const EntityExportQuery = z.object({
  fmt: z.enum(['csv', 'xlsx']).default('csv').describe('csv (UTF-8, header row, formula-safe) or xlsx'),
  entity_type: z.enum(GRAPH_ENTITY_TYPES).optional(),
  min_loss: z.string().regex(/^\d{1,18}(\.\d{1,2})?$/, 'a decimal amount such as 1000 or 1000.50').optional().describe('as the entity list: largest per-currency loss at least this'),
  order_by: z.enum(INTEL_ENTITY_ORDERS).default('risk').describe('as the entity list (descending)'),
  since,
});

const IndicatorExportQuery = z.object({
  fmt: z.enum(['csv', 'xlsx', 'stix']).default('csv').describe('csv, xlsx, or stix (a STIX 2.1 bundle)'),
  category: z.string().min(1).max(100).optional(),
  min_confidence: z.coerce.number().int().min(0).max(100).optional(),
  since,
});

const ResearcherQuery = z.object({
  fmt: z.enum(['json', 'csv']).default('json'),
  entity_type: z.enum(GRAPH_ENTITY_TYPES).optional(),
});

const ResearcherGroupSchema = z.object({
  entity_type: z.string(),
  network: z.string().describe('wallet network, empty for other types'),
  taxonomy: z.string().describe('scam-taxonomy path of the cases that mention the entities, empty when none'),
  country: z.string().describe('ISO 3166 country (phones, IBANs), empty when unknown'),
  month: z.string().describe('YYYY-MM the entities were first seen'),
  entity_count: z.number().int(),
  losses: z.array(z.object({ currency: z.string(), amount: z.string().describe('decimal') })).describe('losses reported by the intakes and cases mentioning them, each source once'),
});

const ResearcherExportSchema = z
  .object({
    min_group_size: z.number().int(),
    suppressed_groups: z.number().int().describe('groups left out: fewer entities than min_group_size'),
    groups: z.array(ResearcherGroupSchema),
  })
  .meta({ id: 'ResearcherExport' });

const stamp = () => new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
/** Service keys hold no role: they get the non-analyst view (bank details masked). */
const clearBankDetails = (p: Parameters<typeof principalName>[0]) => seesBankDetails(p?.kind === 'user' ? p.roles : []);

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
      const filter = { entityType: query.entity_type as GraphEntityType | undefined, minLoss: query.min_loss, orderBy: query.order_by, since: query.since ? new Date(query.since) : undefined };
      const clear = clearBankDetails(principal);
      streamDownload(ctx, deps.knex, {
        actor: principalName(principal),
        action: 'export.entities',
        format: query.fmt,
        filters: { entity_type: query.entity_type ?? null, min_loss: query.min_loss ?? null, order_by: query.order_by, since: query.since ?? null, bank_details: clear ? 'clear' : 'masked' },
        contentType: EXPORT_CONTENT_TYPES[query.fmt],
        fileName: `entities-${stamp()}.${query.fmt}`,
        write: (out, signal) => writeEntityExport(deps.knex, query.fmt, filter, clear, out, signal),
      }, deps.log);
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
      const filter = { category: query.category, min_confidence: query.min_confidence, since: query.since ? new Date(query.since) : undefined };
      const clear = clearBankDetails(principal);
      const fmt = query.fmt;
      streamDownload(ctx, deps.knex, {
        actor: principalName(principal),
        action: 'export.indicators',
        format: fmt,
        filters: { category: query.category ?? null, min_confidence: query.min_confidence ?? null, since: query.since ?? null },
        contentType: EXPORT_CONTENT_TYPES[fmt],
        fileName: `indicators-${stamp()}.${fmt === 'stix' ? 'stix.json' : fmt}`,
        write: async (out, signal) => (fmt === 'stix' ? (await writeIndicatorStix(deps.knex, filter, out, signal)).indicators : writeIndicatorSpreadsheet(deps.knex, fmt, filter, clear, out, signal)),
      }, deps.log);
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
        description: 'JSON (ResearcherExport), or CSV with one row per group and loss currency (entity_type, network, taxonomy, country, month, entity_count, loss_currency, loss_amount)',
        schema: ResearcherExportSchema,
        otherContentTypes: [EXPORT_CONTENT_TYPES.csv],
      },
    },
    handler: async ({ query, principal, deps, ctx }) => {
      const minGroupSize = deps.config.exports.min_group_size;
      const agg = await researcherAggregate(deps.knex, { minGroupSize, entityType: query.entity_type as GraphEntityType | undefined });
      await recordAuditEvent(deps.knex, {
        actor: principalName(principal),
        action: 'export.researcher_entities',
        target_type: 'export',
        target_id: 'researcher/entities',
        details: { format: query.fmt, filters: { entity_type: query.entity_type ?? null }, rows: agg.groups.length, suppressed_groups: agg.suppressed_groups, min_group_size: minGroupSize, outcome: 'complete' },
      });
      if (query.fmt === 'json') return { body: { min_group_size: minGroupSize, ...agg } };
      const rows = agg.groups.flatMap((g) =>
        (g.losses.length ? g.losses : [{ currency: '', amount: '' }]).map((l) => ({ ...g, losses: undefined, loss_currency: l.currency, loss_amount: l.amount })),
      );
      const columns = ['entity_type', 'network', 'taxonomy', 'country', 'month', 'entity_count', 'loss_currency', 'loss_amount'];
      ctx.type = EXPORT_CONTENT_TYPES.csv;
      ctx.attachment(`researcher-entities-${stamp()}.csv`);
      const csv = stringify(rows.map((r) => Object.fromEntries(columns.map((c) => [c, typeof r[c as keyof typeof r] === 'string' ? neutralizeFormula(r[c as keyof typeof r] as string) : r[c as keyof typeof r]]))), { header: true, columns });
      return { body: csv };
    },
  }),
];
