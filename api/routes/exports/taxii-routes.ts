// A read-only TAXII 2.1 server (OASIS TAXII 2.1, sections 4 and 5): discovery, one API root, the
// collections indicators, wallets and campaigns, their objects (added_after, limit, next,
// match[type|id|version|spec_version]), manifests, Get An Object and Get Object Versions
// (services/exports/taxii-service.ts). Answers in application/taxii+json;version=2.1; an Accept
// that admits no TAXII 2.1 is a 406. Errors under /taxii2/ are TAXII error messages, and a 401
// challenges for HTTP Basic (the API key as the password): api/app.ts.
import type Koa from 'koa';
import type { z } from 'zod';
import { STIX_MEDIA_TYPE } from '../../../domain/exports/stix-objects';
import { TAXII_MEDIA_TYPE, acceptsTaxii, encodeTaxiiNext, objectVersion } from '../../../domain/exports/taxii';
import {
  taxiiApiRoot,
  taxiiCollection,
  taxiiCollections,
  taxiiDiscovery,
  taxiiManifest,
  taxiiObject,
  taxiiObjectVersions,
  taxiiObjects,
  type TaxiiAdded,
  type TaxiiPage,
} from '../../../services/exports/taxii-service';
import { ApiError } from '../../errors';
import { defineRoute, type ResponseSpec } from '../../route-definition';
import {
  TaxiiApiRootSchema,
  TaxiiCollectionParams,
  TaxiiCollectionSchema,
  TaxiiCollectionsSchema,
  TaxiiDiscoverySchema,
  TaxiiEnvelopeSchema,
  TaxiiErrorSchema,
  TaxiiManifestSchema,
  TaxiiObjectParams,
  TaxiiObjectQuerySchema,
  TaxiiObjectsQuerySchema,
  TaxiiVersionsQuerySchema,
  TaxiiVersionsSchema,
} from './export-schemas';

type ObjectsQueryT = z.infer<typeof TaxiiObjectsQuerySchema>;
type ObjectQueryT = z.infer<typeof TaxiiObjectQuerySchema>;
type VersionsQueryT = z.infer<typeof TaxiiVersionsQuerySchema>;
type ObjectParamsT = z.infer<typeof TaxiiObjectParams>;

const ACCESS = { roles: ['admin', 'analyst'], scopes: ['taxii:read'] } as const;

const taxiiError = (description: string): ResponseSpec => ({ description, schema: TaxiiErrorSchema, contentType: TAXII_MEDIA_TYPE });

function taxii(ctx: Koa.Context): void {
  if (!acceptsTaxii(ctx.get('accept') || undefined)) {
    throw new ApiError(406, 'not_acceptable', `this TAXII server answers ${TAXII_MEDIA_TYPE}; the Accept header admits none`, { accept: ctx.get('accept') });
  }
  ctx.set('Content-Type', TAXII_MEDIA_TYPE);
}

/**
 * X-TAXII-Date-Added-First/-Last: the earliest and the latest date_added of the page (the page's
 * first and last objects but when a transaction that started earlier committed later); the latest
 * passed as added_after returns nothing of this page again.
 */
function dateHeaders(ctx: Koa.Context, items: TaxiiAdded[]): void {
  if (!items.length) return;
  const dates = items.map((i) => i.date_added).sort();
  ctx.set('X-TAXII-Date-Added-First', dates[0]!);
  ctx.set('X-TAXII-Date-Added-Last', dates[dates.length - 1]!);
}

const nextOf = (page: TaxiiPage) => (page.next ? { next: encodeTaxiiNext(page.next) } : {});
const envelope = (page: TaxiiPage) => ({ more: page.more, ...nextOf(page), objects: page.items.map((i) => i.object) });

/** The answers every TAXII route documents: its 200, and its errors as TAXII error messages. */
const taxiiResponses = (schema: z.ZodType, description: string, extra: Record<number, ResponseSpec> = {}) => ({
  200: { description, schema, contentType: TAXII_MEDIA_TYPE },
  401: taxiiError('No credentials, or an invalid API key (X-API-KEY, or HTTP Basic with the key as password); WWW-Authenticate: Basic'),
  403: taxiiError('The key lacks the taxii:read scope, or the role may not read TAXII'),
  406: taxiiError(`The Accept header admits no ${TAXII_MEDIA_TYPE}`),
  ...extra,
});
const invalidQuery = taxiiError('Invalid parameters (details name each one)');
const noCollection = taxiiError('No such collection');

export const taxiiRoutes = [
  defineRoute({
    method: 'get',
    path: '/taxii2/',
    summary: 'TAXII 2.1 discovery',
    tags: ['taxii'],
    access: ACCESS,
    responses: taxiiResponses(TaxiiDiscoverySchema, 'The discovery resource'),
    handler: async ({ ctx }) => {
      taxii(ctx);
      return { body: taxiiDiscovery(`${ctx.protocol}://${ctx.host}`) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/taxii2/api/',
    summary: 'TAXII 2.1 API root',
    tags: ['taxii'],
    access: ACCESS,
    responses: taxiiResponses(TaxiiApiRootSchema, 'The API root'),
    handler: async ({ ctx, deps }) => {
      taxii(ctx);
      return { body: taxiiApiRoot(deps) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/taxii2/api/collections/',
    summary: 'TAXII 2.1 collections',
    tags: ['taxii'],
    access: ACCESS,
    responses: taxiiResponses(TaxiiCollectionsSchema, 'The collections'),
    handler: async ({ ctx }) => {
      taxii(ctx);
      return { body: taxiiCollections() };
    },
  }),
  defineRoute<{ id: string }>({
    method: 'get',
    path: '/taxii2/api/collections/{id}/',
    summary: 'One TAXII 2.1 collection',
    tags: ['taxii'],
    access: ACCESS,
    request: { params: TaxiiCollectionParams },
    responses: taxiiResponses(TaxiiCollectionSchema, 'The collection', { 400: invalidQuery, 404: noCollection }),
    handler: async ({ ctx, params }) => {
      taxii(ctx);
      return { body: taxiiCollection(params.id) };
    },
  }),
  defineRoute<{ id: string }, ObjectsQueryT>({
    method: 'get',
    path: '/taxii2/api/collections/{id}/objects/',
    summary: 'Objects of a TAXII 2.1 collection (envelope with more/next; X-TAXII-Date-Added-First/-Last); filters apply before paging',
    tags: ['taxii'],
    access: ACCESS,
    request: { params: TaxiiCollectionParams, query: TaxiiObjectsQuerySchema },
    responses: taxiiResponses(TaxiiEnvelopeSchema, 'An envelope of STIX 2.1 objects', { 400: invalidQuery, 404: noCollection }),
    handler: async ({ ctx, deps, principal, params, query }) => {
      taxii(ctx);
      const page = await taxiiObjects(deps, principal, params.id, query);
      dateHeaders(ctx, page.items);
      return { body: envelope(page) };
    },
  }),
  defineRoute<ObjectParamsT, ObjectQueryT>({
    method: 'get',
    path: '/taxii2/api/collections/{id}/objects/{object_id}/',
    summary: 'Get An Object: the versions of one object that match (each object keeps its current version), as an envelope',
    tags: ['taxii'],
    access: ACCESS,
    request: { params: TaxiiObjectParams, query: TaxiiObjectQuerySchema },
    responses: taxiiResponses(TaxiiEnvelopeSchema, 'An envelope holding the object', { 400: invalidQuery, 404: taxiiError('No such collection, or no such object in it') }),
    handler: async ({ ctx, deps, principal, params, query }) => {
      taxii(ctx);
      const page = await taxiiObject(deps, principal, params.id, params.object_id, query);
      dateHeaders(ctx, page.items);
      return { body: envelope(page) };
    },
  }),
  defineRoute<ObjectParamsT, VersionsQueryT>({
    method: 'get',
    path: '/taxii2/api/collections/{id}/objects/{object_id}/versions/',
    summary: 'Get Object Versions: the version timestamps of one object',
    tags: ['taxii'],
    access: ACCESS,
    request: { params: TaxiiObjectParams, query: TaxiiVersionsQuerySchema },
    responses: taxiiResponses(TaxiiVersionsSchema, 'The versions resource', { 400: invalidQuery, 404: taxiiError('No such collection, or no such object in it') }),
    handler: async ({ ctx, deps, principal, params, query }) => {
      taxii(ctx);
      const page = await taxiiObjectVersions(deps, principal, params.id, params.object_id, query);
      dateHeaders(ctx, page.items);
      return { body: { more: page.more, ...nextOf(page), versions: page.versions } };
    },
  }),
  defineRoute<{ id: string }, ObjectsQueryT>({
    method: 'get',
    path: '/taxii2/api/collections/{id}/manifest/',
    summary: 'Manifest of a TAXII 2.1 collection (id, date_added, version, media_type per object); the same stream and filters as its objects',
    tags: ['taxii'],
    access: ACCESS,
    request: { params: TaxiiCollectionParams, query: TaxiiObjectsQuerySchema },
    responses: taxiiResponses(TaxiiManifestSchema, 'The manifest page', { 400: invalidQuery, 404: noCollection }),
    handler: async ({ ctx, deps, principal, params, query }) => {
      taxii(ctx);
      const page = await taxiiManifest(deps, principal, params.id, query);
      dateHeaders(ctx, page.items);
      return {
        body: {
          more: page.more,
          ...nextOf(page),
          objects: page.items.map((i) => ({ id: i.object.id, date_added: i.date_added, version: objectVersion(i.object, i.date_added), media_type: STIX_MEDIA_TYPE })),
        },
      };
    },
  }),
];
