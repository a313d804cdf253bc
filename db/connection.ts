import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

// timestamptz columns come back as Date (default); bigint counts come back as numbers when safe.
pg.types.setTypeParser(pg.types.builtins.INT8, (v: string) => {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
});

/** A Knex instance on a PostgreSQL connection string. The only place Knex is configured. */
export function createKnex(databaseUrl: string, poolMax = 10): Knex {
  return knexFactory({
    client: 'pg',
    connection: databaseUrl,
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: 30_000,
  });
}
