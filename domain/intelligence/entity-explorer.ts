// The entity explorer's vocabulary: the orders of the entity list (every one descending, ties by id
// descending) with the keyset position a page stops at, and the buckets of an entity's activity.

export const INTEL_ENTITY_ORDERS = ['risk', 'loss', 'last_seen', 'sightings'] as const;
export type IntelEntityOrder = (typeof INTEL_ENTITY_ORDERS)[number];

/** Where the previous page stopped: the order's key (as text) and the id. */
export interface IntelEntityCursor {
  order: IntelEntityOrder;
  key: string;
  id: string;
}

export const ACTIVITY_BUCKETS = ['day', 'week', 'month'] as const;
export type ActivityBucket = (typeof ACTIVITY_BUCKETS)[number];
