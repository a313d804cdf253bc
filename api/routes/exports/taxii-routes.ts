// A read-only TAXII 2.1 server (OASIS TAXII 2.1, as the reference server medallion answers):
// discovery, one API root, the collections indicators, wallets and campaigns, their objects
// (added_after, limit, next, match[type|id|version|spec_version]) and manifests
// (services/exports/taxii-service.ts). Answers in application/taxii+json;version=2.1; an Accept
// that admits no TAXII 2.1 is a 406.
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
  taxiiObjects,
  type TaxiiAdded,
  type TaxiiPage,
} from '../../../services/exports/taxii-service';
import { ApiError } from '../../errors';
import { defineRoute } from '../../route-definition';
import { ErrorSchema } from '../../common-schemas';
import {
  TaxiiApiRootSchema,
  TaxiiCollectionParams,
  TaxiiCollectionSchema,
  TaxiiCollectionsSchema,
  TaxiiDiscoverySchema,
  TaxiiEnvelopeSchema,
  TaxiiManifestSchema,
  TaxiiObjectsQuerySchema,
} from './export-schemas';

type ObjectsQueryT = z.infer<typeof TaxiiObjectsQuerySchema>;

const ACCESS = { roles: ['admin', 'analyst'], scopes: ['taxii:read'] } as const;
const notAcceptable = { description: `The Accept header admits no ${TAXII_MEDIA_TYPE}`, schema: ErrorSchema };

function taxii(ctx: Koa.Context): void {
  if (!acceptsTaxii(ctx.get('accept') || undefined)) {
    throw new ApiError(406, 'not_acceptable', `this TAXII server answers ${TAXII_MEDIA_TYPE}; the Accept header admits none`, { accept: ctx.get('accept') });
  }
  ctx.set('Content-Type', TAXII_MEDIA_TYPE);
}

function dateHeaders(ctx: Koa.Context, items: TaxiiAdded[]): void {
  if (!items.length) return;
  const dates = items.map((i) => i.date_added).sort();
  ctx.set('X-TAXII-Date-Added-First', dates[0]!);
  ctx.set('X-TAXII-Date-Added-Last', dates[dates.length - 1]!);
}

const nextOf = (page: TaxiiPage) => (page.next ? { next: encodeTaxiiNext(page.next) } : {});

const taxiiResponses = (schema: z.ZodType, description: string) => ({
  200: { description, schema, contentType: TAXII_MEDIA_TYPE },
  406: notAcceptable,
});

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
    responses: { ...taxiiResponses(TaxiiCollectionSchema, 'The collection'), 404: { description: 'No such collection', schema: ErrorSchema } },
    handler: async ({ ctx, params }) => {
      taxii(ctx);
      return { body: taxiiCollection(params.id) };
    },
  }),
  defineRoute<{ id: string }, ObjectsQueryT>({
    method: 'get',
    path: '/taxii2/api/collections/{id}/objects/',
    summary: 'Objects of a TAXII 2.1 collection (envelope with more/next; X-TAXII-Date-Added-First/-Last)',
    tags: ['taxii'],
    access: ACCESS,
    request: { params: TaxiiCollectionParams, query: TaxiiObjectsQuerySchema },
    responses: { ...taxiiResponses(TaxiiEnvelopeSchema, 'An envelope of STIX 2.1 objects'), 404: { description: 'No such collection', schema: ErrorSchema } },
    handler: async ({ ctx, deps, principal, params, query }) => {
      taxii(ctx);
      const page = await taxiiObjects(deps, principal, params.id, query);
      dateHeaders(ctx, page.items);
      return { body: { more: page.more, ...nextOf(page), objects: page.items.map((i) => i.object) } };
    },
  }),
  defineRoute<{ id: string }, ObjectsQueryT>({
    method: 'get',
    path: '/taxii2/api/collections/{id}/manifest/',
    summary: 'Manifest of a TAXII 2.1 collection (id, date_added, version, media_type per object)',
    tags: ['taxii'],
    access: ACCESS,
    request: { params: TaxiiCollectionParams, query: TaxiiObjectsQuerySchema },
    responses: { ...taxiiResponses(TaxiiManifestSchema, 'The manifest page'), 404: { description: 'No such collection', schema: ErrorSchema } },
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
