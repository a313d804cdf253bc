// Similar sites of an investigation (GET /investigations/ssi/{scan_id}/similar): kit, DOM, files,
// favicon, screenshot, shared wallets and contacts, infrastructure. The use case is
// services/similarity/similar-sites-service.ts; scores and thresholds are documented in
// docs/intelligence-automation.md.
import { similarSites } from '../../../services/similarity/similar-sites-service';
import { LINK_THRESHOLD } from '../../../domain/similarity/site-similarity';
import { defineRoute } from '../../route-definition';
import { ErrorSchema } from '../../common-schemas';
import { ScanParam } from './investigation-schemas';
import { SimilarQuery, SimilarSitesSchema, type SimilarQueryT } from './similar-site-schemas';

const READ = { roles: ['admin', 'analyst'], scopes: ['investigations:read', 'investigations:write'] } as const;

export const similarSiteRoutes = [
  defineRoute<{ scan_id: string }, SimilarQueryT>({
    method: 'get',
    path: '/investigations/ssi/{scan_id}/similar',
    summary: 'Sites like this one, best first: score 0..1 (0.5 or more: linked; below: a lead) and the reasons (kit, dom, assets, favicon, screenshot, shared_wallet, shared_contact, infrastructure)',
    tags: ['investigations'],
    access: READ,
    request: { params: ScanParam, query: SimilarQuery },
    responses: { 200: { description: 'The similar sites', schema: SimilarSitesSchema }, 404: { description: 'No such investigation', schema: ErrorSchema } },
    handler: async ({ params, query, deps }) => {
      const answer = await similarSites(deps, params.scan_id, query.limit);
      return {
        body: {
          fingerprinted: answer.fingerprinted,
          link_threshold: LINK_THRESHOLD,
          items: answer.items.map((i) => ({ scan_id: i.scanId, score: i.score, linked: i.score >= LINK_THRESHOLD, reasons: i.reasons })),
        },
      };
    },
  }),
];
