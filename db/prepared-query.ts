// Named (prepared) statements for the platform's busiest reads. A query sent with a name is parsed
// and planned by PostgreSQL once per connection, and after five executions it may keep a generic
// plan: for the explorer's detail, planning cost three times the execution (1.5 ms of PostgreSQL
// CPU per request at a million entities, 0.5 ms named). The name is derived from the SQL text, so
// every distinct shape of a query (the list's filters and orders) gets its own statement and a
// name never meets a second text (node-postgres refuses that).
// Only for queries whose text takes a bounded number of shapes (no `whereIn` over a variable list:
// use `= ANY(?::uuid[])`) and that name their columns (a cached plan of `SELECT *` fails once the
// table gains a column).
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

export function prepared<T extends Knex.QueryBuilder | Knex.Raw>(query: T): T {
  const name = `fip_${createHash('sha1').update(query.toSQL().sql).digest('hex').slice(0, 24)}`;
  return query.options({ name }) as T;
}
