// The vocabulary of the intelligence graph (docs/data-model.md): what an entity can be, who can
// mention one, and which edges connect them.

export const GRAPH_ENTITY_TYPES = [
  'wallet',
  'domain',
  'url',
  'ip',
  'email',
  'phone',
  'bank_account',
  'person',
  'organization',
  'social_handle',
] as const;
export type GraphEntityType = (typeof GRAPH_ENTITY_TYPES)[number];

/** Who mentions an entity: the provenance of every sighting, edge and score. */
export const SOURCE_KINDS = ['intake', 'investigation', 'case', 'manual'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/**
 * Edge kinds. `co_occurs` is undirected (two entities sighted in the same source) and stored once
 * with ordered ids; the others are directed facts a capture knows (a domain hosts a URL, a domain
 * resolves to an IP, a page pays to a wallet, an entity is a member of an organization).
 */
export const RELATIONSHIP_KINDS = ['co_occurs', 'hosts', 'resolves_to', 'pays_to', 'member_of', 'links_to'] as const;
export type RelationshipKind = (typeof RELATIONSHIP_KINDS)[number];

export function isUndirected(kind: RelationshipKind): boolean {
  return kind === 'co_occurs';
}

/**
 * At most this many entities of one source take part in co-occurrence edges (the first ones given):
 * n entities make n(n-1)/2 edges, and a page listing thousands of addresses says little about
 * each pair. Sightings are recorded for every entity regardless.
 */
export const MAX_COOCCURRING_ENTITIES_PER_SOURCE = 200;
