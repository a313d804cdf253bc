// Builds the OpenAPI 3.1 document from the route table: every registered route, with its access
// policy, parameters, request body and response schemas (zod -> JSON Schema 2020-12).
import { z } from 'zod';
import type { ResponseSpec, RouteDef } from './route-definition';
import { ErrorSchema, standardErrorResponses } from './common-schemas';

type JsonSchema = Record<string, unknown>;

/** Named schemas (zod `.meta({ id })`) are hoisted into `components` (components.schemas) and referenced. */
function toSchema(schema: z.ZodType, io: 'input' | 'output', components: Record<string, JsonSchema>): JsonSchema {
  const raw = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
  const json = JSON.parse(JSON.stringify(raw).replace(/"#\/\$defs\/([^"]+)"/g, '"#/components/schemas/$1"')) as JsonSchema;
  delete json.$schema;
  const defs = json.$defs as Record<string, JsonSchema> | undefined;
  delete json.$defs;
  for (const [name, def] of Object.entries(defs ?? {})) components[name] = def;
  return json;
}

/** `idempotency-key` -> `Idempotency-Key` (header names are case-insensitive; this is how they are written). */
const headerName = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query' | 'header', components: Record<string, JsonSchema>): unknown[] {
  if (!schema) return [];
  const json = toSchema(schema, 'input', components);
  const props = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, s]) => ({
    name: where === 'header' ? headerName(name) : name,
    in: where,
    required: where === 'path' || required.has(name),
    ...(typeof s.description === 'string' ? { description: s.description } : {}),
    schema: s,
  }));
}

function describeAccess(route: RouteDef): string {
  const a = route.access;
  if ('public' in a) return 'Access: public.';
  if ('authenticated' in a) return 'Access: any authenticated caller.';
  const roles = a.roles?.length ? `roles ${a.roles.join(', ')}` : '';
  const scopes = a.scopes?.length ? `API-key scopes ${a.scopes.join(', ')}` : '';
  return `Access: ${[roles, scopes].filter(Boolean).join('; or ')}.`;
}

/**
 * The error answers the shared layers give on their own (register-routes.ts, request-validation.ts),
 * documented on every route they can happen on; a route's own entry for a status wins.
 */
function sharedErrorResponses(route: RouteDef): Record<number, ResponseSpec> {
  const out: Record<number, ResponseSpec> = {};
  const { params, query, body } = route.request ?? {};
  if (params || query || body) out[400] = standardErrorResponses[400];
  if (!('public' in route.access)) {
    out[401] = standardErrorResponses[401];
    if (!('authenticated' in route.access)) out[403] = standardErrorResponses[403];
  }
  if (body) {
    out[413] = { description: 'Request body over the size limit', schema: ErrorSchema };
    out[415] = { description: 'Request body that is not application/json', schema: ErrorSchema };
  }
  return out;
}

const isJsonMediaType = (type: string) => /^application\/(?:[\w.-]+\+)?json\b/i.test(type);

/**
 * A file answer (a download, a page, an asset): bytes, `type: string, format: binary`, which client
 * generators turn into a file or blob. A JSON file is JSON (any value); a byte range of it (206) is
 * not, so that media type documents no schema rather than tell a client or fuzzer to parse a slice.
 */
function fileMedia(type: string, status: string): Record<string, unknown> {
  if (!isJsonMediaType(type)) return { schema: { type: 'string', format: 'binary' } };
  return status === '206' ? {} : { schema: {} };
}

export function buildOpenApiDocument(routes: RouteDef[]): Record<string, unknown> {
  const components: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const responses: Record<string, unknown> = {};
    for (const [status, spec] of Object.entries({ ...sharedErrorResponses(route), ...route.responses })) {
      const contentTypes = spec.contentType === undefined ? ['application/json'] : [spec.contentType].flat();
      const schema = spec.schema ? toSchema(spec.schema, 'output', components) : null;
      const media = (type: string) => (schema ? { schema } : fileMedia(type, status));
      responses[status] = {
        description: spec.description,
        ...(spec.schema || spec.contentType
          ? { content: { ...Object.fromEntries(contentTypes.map((type) => [type, media(type)])), ...Object.fromEntries((spec.otherContentTypes ?? []).map((type) => [type, fileMedia(type, status)])) } }
          : {}),
      };
    }
    const op: Record<string, unknown> = {
      // `/intakes` and `/intakes/` are two routes: the trailing slash is part of the id, which must be unique.
      operationId: `${route.method}${route.path.replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}${route.path.length > 1 && route.path.endsWith('/') ? 'Slash' : ''}`,
      summary: route.summary,
      description: describeAccess(route),
      tags: route.tags,
      parameters: [
        ...parameters(route.request?.params, 'path', components),
        ...parameters(route.request?.query, 'query', components),
        ...parameters(route.request?.headers, 'header', components),
      ],
      responses,
      ...('public' in route.access ? { security: [] } : {}),
    };
    if (route.request?.body) {
      op.requestBody = { required: true, content: { 'application/json': { schema: toSchema(route.request.body, 'input', components) } } };
    }
    if (route.request?.multipart) {
      op.requestBody = { required: true, content: { 'multipart/form-data': { schema: toSchema(route.request.multipart, 'input', components) } } };
    }
    (paths[route.path] ??= {})[route.method] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Fraud Intelligence Platform API',
      version: '0.1.0',
      description:
        'Core API of the fraud-intelligence platform. People authenticate through an identity-aware proxy ' +
        '(X-Goog-Authenticated-User-Email, optionally with X-Goog-IAP-JWT-Assertion); trusted services send X-API-KEY. ' +
        'Errors are {"error": {"code", "message", "details"?}}. Lists answer {"items", "next_cursor"} and take limit and cursor.',
    },
    servers: [{ url: '/' }],
    components: {
      schemas: components,
      securitySchemes: {
        proxyIdentity: { type: 'apiKey', in: 'header', name: 'X-Goog-Authenticated-User-Email' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
      },
    },
    security: [{ proxyIdentity: [] }, { apiKey: [] }],
    paths,
  };
}
