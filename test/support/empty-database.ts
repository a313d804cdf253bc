// A new, empty database on the test run's PostgreSQL server (for migration tests); dropped by `drop`.
import { randomUUID } from 'node:crypto';
import pg from 'pg';

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function emptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `fip_mig_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined) };
}
