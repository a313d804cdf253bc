// Response and request schemas of the system routes: health, readiness, the OpenAPI document and
// the files of its viewers.
import { z } from 'zod';

export const HealthSchema = z.object({ status: z.literal('ok') });
const CheckSchema = z.enum(['ok', 'unavailable']);
export const ReadySchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.object({ database: CheckSchema, temporal: CheckSchema }),
});

export const OpenApiDocumentSchema = z.record(z.string(), z.unknown());

/** The files the viewers load: swagger-init.js is written here, the others come from the swagger-ui-dist and redoc packages. */
export const DOCS_ASSET_FILES = ['swagger-init.js', 'swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png', 'redoc.standalone.js'] as const;
export type DocsAssetFile = (typeof DOCS_ASSET_FILES)[number];
export const DocsAssetParams = z.object({ file: z.enum(DOCS_ASSET_FILES) });
