// The shape of a report request (template, scope, options), shared by schedules and one-off reports,
// validated the same way everywhere.
import { z } from 'zod';
import { nameText } from '../text-safety';
import { REPORT_FORMATS } from './report-content';
import { ENTITY_TYPES, REPORT_TEMPLATES, findTemplate } from './report-templates';

const templateNames = REPORT_TEMPLATES.map((t) => t.name);

export const ReportScopeSchema = z
  .object({
    entity_types: z.array(z.enum(ENTITY_TYPES)).min(1).max(ENTITY_TYPES.length).describe(`Entity kinds: ${ENTITY_TYPES.join(', ')}`),
    since_days: z.number().int().min(1).max(3650).optional(),
    networks: z.array(z.string().min(1).max(64)).max(100).optional(),
    tokens: z.array(z.string().min(1).max(32)).max(100).optional(),
    min_confidence: z.enum(['low', 'medium', 'high']).optional(),
    sources: z.array(z.string().min(1).max(64)).max(100).optional(),
  })
  .strict()
  .meta({ id: 'ReportScope' });

export const ReportOptionsSchema = z
  .object({
    format: z.enum(REPORT_FORMATS),
    title: nameText(200).optional(),
  })
  .strict()
  .meta({ id: 'ReportOptions' });

export type ReportScope = z.infer<typeof ReportScopeSchema>;
export type ReportOptions = z.infer<typeof ReportOptionsSchema>;

/** An enum (not a refined string), so the OpenAPI document lists the names clients may send. */
export const TemplateNameSchema = z.enum(templateNames as [string, ...string[]], {
  error: () => `unknown template; one of: ${templateNames.join(', ')}`,
});

/** Scope keys other than entity_types must be ones the template understands. */
export function checkScopeAgainstTemplate(template: string, scope: ReportScope, ctx: z.RefinementCtx, at: PropertyKey[]): void {
  const t = findTemplate(template);
  if (!t) return;
  const known = new Set(t.scopeKeys.map((k) => k.key));
  for (const key of Object.keys(scope)) {
    if (!known.has(key)) {
      ctx.addIssue({ code: 'custom', path: [...at, key], message: `template ${template} does not use scope key ${key}; it takes: ${[...known].join(', ')}` });
    }
  }
}

export const RecipientsSchema = z
  .array(z.email())
  .min(1)
  .max(50)
  .refine((list) => new Set(list.map((e) => e.toLowerCase())).size === list.length, { message: 'recipients must not repeat' });

/** A stored report request (a schedule's template, scope and options), validated as on creation. */
export const StoredReportRequestSchema = z
  .object({ template: TemplateNameSchema, scope: ReportScopeSchema, options: ReportOptionsSchema })
  .superRefine((v, ctx) => checkScopeAgainstTemplate(v.template, v.scope, ctx, ['scope']));

export type StoredReportRequest = z.infer<typeof StoredReportRequestSchema>;

/** Validates a stored request; the error names every invalid field (`scope.networks: ...`). */
export function parseStoredReportRequest(stored: { template: unknown; scope: unknown; options: unknown }): { ok: true; value: StoredReportRequest } | { ok: false; error: string } {
  const parsed = StoredReportRequestSchema.safeParse(stored);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: parsed.error.issues.map((i) => `${i.path.map(String).join('.') || '(request)'}: ${i.message}`).join('; ') };
}
