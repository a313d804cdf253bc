// Columns that hold ids as text (sightings.source_id, case_links.target_id) also hold ids that are
// not UUIDs (feeds, imports, external references). Casting such a column with `::uuid` fails the
// whole statement on the first of those, so a join or an IN on UUIDs casts through this guard: a
// value that is not a UUID becomes NULL and matches nothing.
const UUID_PATTERN = `'^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`;

/** SQL: the text column as a uuid, or NULL when it is not one. */
export const textAsUuid = (column: string): string => `(CASE WHEN ${column} ~* ${UUID_PATTERN} THEN ${column}::uuid END)`;
