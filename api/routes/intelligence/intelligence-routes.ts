// Intelligence analytics: the entity explorer (list, detail by id and by natural key, activity
// sparkline, one-hop neighbours), indicators, the relationship graph and its PNG, and the quick
// search. The use cases: services/intelligence/intelligence-service.ts; masking and researcher
// rules: services/intelligence/intelligence-views.ts.
import type { z } from 'zod';
import {
  entityActivitySeries,
  entityNeighbourhood,
  getEntity,
  getEntityByKey,
  getIndicatorView,
  listEntities,
  listIndicatorPage,
  quickSearch,
  relationshipGraph,
  relationshipGraphPng,
} from '../../../services/intelligence/intelligence-service';
import { pageSchema } from '../../pagination';
import { defineRoute } from '../../route-definition';
import { ErrorSchema } from '../../common-schemas';
import {
  ActivityQuery,
  ActivitySchema,
  EntityDetailSchema,
  EntityListQuery,
  EntitySchema,
  GraphPngQuery,
  GraphQuery,
  GraphSchema,
  IdParam,
  IndicatorListQuery,
  IndicatorSchema,
  KeyParam,
  NeighborsQuery,
  NeighborsSchema,
  SearchQuery,
  SearchSchema,
} from './intelligence-schemas';

/**
 * Every role reads the explorer (researchers with masked values). Every route that takes an
 * entity's natural key (type and value) excludes researchers: answering 200 or 404 for a value
 * would tell them whether it exists, one guess at a time. So does indicator detail.
 */
export const INTEL_READERS = ['admin', 'analyst', 'researcher', 'reviewer'] as const;
export const INTEL_DETAIL_READERS = ['admin', 'analyst', 'reviewer'] as const;

const notFound = { description: 'No such entity', schema: ErrorSchema };
const seedForbidden = { description: 'A researcher gave a type:value seed (researchers seed by entity id only)', schema: ErrorSchema };

export const intelligenceRoutes = [
  defineRoute<Record<string, never>, z.infer<typeof EntityListQuery>>({
    method: 'get',
    path: '/intelligence/entities',
    summary: 'Entity explorer: entities by risk, loss, last sighting or sightings (filters entity_type, min_loss)',
    tags: ['intelligence'],
    access: { roles: INTEL_READERS },
    request: { query: EntityListQuery },
    responses: { 200: { description: 'A page of entities (values masked per role)', schema: pageSchema(EntitySchema, 'IntelEntityPage') } },
    handler: async ({ query, principal, deps }) => ({ body: await listEntities(deps, principal, query) }),
  }),
  defineRoute<z.infer<typeof IdParam>>({
    method: 'get',
    path: '/intelligence/entities/{id}',
    summary: 'Entity detail: risk score explained factor by factor, linked cases, sightings per source kind, loss per currency',
    tags: ['intelligence'],
    access: { roles: INTEL_READERS },
    request: { params: IdParam },
    responses: { 200: { description: 'The entity', schema: EntityDetailSchema }, 404: notFound },
    handler: async ({ params, principal, deps }) => ({ body: await getEntity(deps, principal, params.id) }),
  }),
  defineRoute<z.infer<typeof KeyParam>, z.infer<typeof ActivityQuery>>({
    method: 'get',
    path: '/intelligence/entities/{type}/{value}/activity',
    summary: 'Sightings of an entity per day, week or month (sparkline points, zeros included); 403 for researchers',
    tags: ['intelligence'],
    access: { roles: INTEL_DETAIL_READERS },
    request: { params: KeyParam, query: ActivityQuery },
    responses: { 200: { description: 'Sparkline points', schema: ActivitySchema }, 404: notFound },
    handler: async ({ params, query, deps }) => ({ body: await entityActivitySeries(deps, params, query) }),
  }),
  defineRoute<z.infer<typeof KeyParam>, z.infer<typeof NeighborsQuery>>({
    method: 'get',
    path: '/intelligence/entities/{type}/{value}/neighbors',
    summary: 'One-hop graph of an entity: its heaviest edges (any kind, both directions) and the entities at their other ends; 403 for researchers',
    tags: ['intelligence'],
    access: { roles: INTEL_DETAIL_READERS },
    request: { params: KeyParam, query: NeighborsQuery },
    responses: { 200: { description: 'The entity, its neighbours and the edges with weights', schema: NeighborsSchema }, 404: notFound },
    handler: async ({ params, query, principal, deps }) => ({ body: await entityNeighbourhood(deps, principal, params, query.limit) }),
  }),
  defineRoute<z.infer<typeof KeyParam>>({
    method: 'get',
    path: '/intelligence/entities/{type}/{value}',
    summary: 'Entity detail by natural key (value normalized as the graph stores it); 403 for researchers',
    tags: ['intelligence'],
    access: { roles: INTEL_DETAIL_READERS },
    request: { params: KeyParam },
    responses: { 200: { description: 'The entity', schema: EntityDetailSchema }, 404: notFound },
    handler: async ({ params, principal, deps }) => ({ body: await getEntityByKey(deps, principal, params) }),
  }),
  defineRoute<Record<string, never>, z.infer<typeof IndicatorListQuery>>({
    method: 'get',
    path: '/intelligence/indicators',
    summary: 'Indicator registry (url, domain, ip, email, wallet), highest confidence first (filters category, min_confidence)',
    tags: ['intelligence'],
    access: { roles: INTEL_READERS },
    request: { query: IndicatorListQuery },
    responses: { 200: { description: 'A page of indicators', schema: pageSchema(IndicatorSchema, 'IndicatorPage') } },
    handler: async ({ query, principal, deps }) => ({ body: await listIndicatorPage(deps, principal, query) }),
  }),
  defineRoute<z.infer<typeof IdParam>>({
    method: 'get',
    path: '/intelligence/indicators/{id}',
    summary: 'One indicator (id = its entity id); 403 for researchers',
    tags: ['intelligence'],
    access: { roles: INTEL_DETAIL_READERS },
    request: { params: IdParam },
    responses: { 200: { description: 'The indicator', schema: IndicatorSchema }, 404: { description: 'No such indicator', schema: ErrorSchema } },
    handler: async ({ params, principal, deps }) => ({ body: await getIndicatorView(deps, principal, params.id) }),
  }),
  defineRoute<Record<string, never>, z.infer<typeof GraphQuery>>({
    method: 'get',
    path: '/intelligence/graph',
    summary: 'Relationship graph by breadth-first traversal from seeds (depth 1-4, capped at max_nodes; truncated when a cap cut it); researchers seed by entity id only (403 for type:value)',
    tags: ['intelligence'],
    access: { roles: INTEL_READERS },
    request: { query: GraphQuery },
    responses: { 200: { description: 'Nodes and edges with the depth at which each was reached', schema: GraphSchema }, 403: seedForbidden, 404: { description: 'A seed names no entity', schema: ErrorSchema } },
    handler: async ({ query, principal, deps }) => ({ body: await relationshipGraph(deps, principal, query) }),
  }),
  defineRoute<Record<string, never>, z.infer<typeof GraphPngQuery>>({
    method: 'get',
    path: '/intelligence/graph.png',
    summary: 'The graph of GET /intelligence/graph as a PNG: force layout, colours per entity type with a legend, labels, edge weight as width',
    tags: ['intelligence'],
    access: { roles: INTEL_READERS },
    request: { query: GraphPngQuery },
    responses: { 200: { description: 'The picture', contentType: 'image/png' }, 403: seedForbidden, 404: { description: 'A seed names no entity', schema: ErrorSchema } },
    handler: async ({ query, principal, deps, ctx }) => {
      const { png, truncated } = await relationshipGraphPng(deps, principal, query);
      ctx.type = 'image/png';
      ctx.set('X-Graph-Truncated', String(truncated));
      return { body: png };
    },
  }),
  defineRoute<Record<string, never>, z.infer<typeof SearchQuery>>({
    method: 'get',
    path: '/discovery/search',
    summary: 'Quick search over entity values (exact, then prefix, then substring); bank accounts only for analysts; researchers match the masked values they see',
    tags: ['intelligence'],
    access: { roles: INTEL_READERS },
    request: { query: SearchQuery },
    responses: { 200: { description: 'Matching entities', schema: SearchSchema } },
    handler: async ({ query, principal, deps }) => ({ body: await quickSearch(deps, principal, query) }),
  }),
];
