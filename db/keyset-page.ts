// Keyset pagination, newest first, on (timestamp, id): stable under concurrent inserts and never
// skipping rows that share a timestamp. The key keeps PostgreSQL's microseconds (a JS Date would
// drop them and skip rows).
import type { Knex } from 'knex';
import type { Keyset, KeysetPage } from '../domain/keyset';

export type { Keyset, KeysetPage } from '../domain/keyset';

export async function keysetPage<T extends { id: string }>(
  knex: Knex,
  query: Knex.QueryBuilder,
  opts: { tsColumn: string; idColumn: string; limit: number; after?: Keyset },
): Promise<KeysetPage<T>> {
  const q = query
    .clone()
    .select(knex.raw(`to_char(${opts.tsColumn} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS _keyset_ts`))
    .orderBy([
      { column: opts.tsColumn, order: 'desc' },
      { column: opts.idColumn, order: 'desc' },
    ])
    .limit(opts.limit + 1);
  if (opts.after) q.whereRaw(`(${opts.tsColumn}, ${opts.idColumn}) < (?::timestamptz, ?::uuid)`, [opts.after.ts, opts.after.id]);
  const raw = (await q) as Array<T & { _keyset_ts: string }>;
  const more = raw.length > opts.limit;
  const page = raw.slice(0, opts.limit);
  const last = page[page.length - 1];
  const rows = page.map(({ _keyset_ts: _ts, ...row }) => row as unknown as T);
  return { rows, next: more && last ? { ts: last._keyset_ts, id: last.id } : null };
}
