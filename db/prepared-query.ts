// Named (prepared) statements for the platform's busiest reads. A query sent with a name is parsed
// and planned by PostgreSQL once per connection, and after five executions it may keep a generic
// plan: for the explorer's detail, planning cost three times the execution (1.5 ms of PostgreSQL
// CPU per request at a million entities, 0.5 ms named). The name is derived from the SQL text, so
// every distinct shape of a query (the list's filters and orders) gets its own statement and a
// name never meets a second text (node-postgres refuses that).
// Only for queries whose text takes a bounded number of shapes (no `whereIn` over a variable list:
// use `= ANY(?::uuid[])`) and that name their columns (a cached plan of `SELECT *` fails once the
// table gains a column).
//
// These queries run on every request, so naming one costs no compilation of its own where it can be
// helped: a raw query whose values are plain (no `??` identifier, no query among its values) has a
// final text that depends on its written SQL alone, and is named from that text without compiling
// it; a query builder is compiled to learn its text. Each text is hashed once per process.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

const names = new Map<string, string>();

function statementName(sql: string): string {
  let name = names.get(sql);
  if (name === undefined) {
    name = `fip_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    names.set(sql, name);
  }
  return name;
}

/** The written SQL of a raw query whose final text is a function of it alone; undefined otherwise. */
function plainRawSql(query: Knex.QueryBuilder | Knex.Raw): string | undefined {
  const raw = query as unknown as { isRawInstance?: boolean; sql?: unknown; bindings?: unknown };
  if (!raw.isRawInstance || typeof raw.sql !== 'string' || raw.sql.includes('??') || !Array.isArray(raw.bindings)) return undefined;
  const plain = raw.bindings.every((b: unknown) => b === null || typeof b !== 'object' || Array.isArray(b) || b instanceof Date || Buffer.isBuffer(b));
  return plain ? raw.sql : undefined;
}

export function prepared<T extends Knex.QueryBuilder | Knex.Raw>(query: T): T {
  return query.options({ name: statementName(plainRawSql(query) ?? query.toSQL().sql) }) as T;
}
