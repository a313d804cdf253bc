// Feeds and TAXII page through indicators while writers add them. A revision taken from a sequence
// is allocated when the row is written but becomes visible only at commit, so "revision > cursor"
// alone skips a revision whose transaction commits after a later one was read. Each row therefore
// records the id of the transaction that last wrote it (write_xid, set by a trigger, so every write
// path is covered), and readers page on (write_xid, revision) over rows whose transaction is older
// than the oldest one still running (pg_snapshot_xmin): those are final, and every transaction
// that commits later has a larger id than anything already read. See db/repositories/exports/feed-repository.ts.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE indicators ADD COLUMN write_xid xid8 NOT NULL DEFAULT '0'::xid8");
  await knex.raw(`
    CREATE FUNCTION indicators_set_write_xid() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.write_xid := pg_current_xact_id();
      RETURN NEW;
    END $$`);
  await knex.raw(`
    CREATE TRIGGER indicators_write_xid BEFORE INSERT OR UPDATE ON indicators
    FOR EACH ROW EXECUTE FUNCTION indicators_set_write_xid()`);
  await knex.raw('CREATE INDEX indicators_feed_order_idx ON indicators (write_xid, revision)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER indicators_write_xid ON indicators');
  await knex.raw('DROP FUNCTION indicators_set_write_xid()');
  await knex.raw('DROP INDEX indicators_feed_order_idx');
  await knex.raw('ALTER TABLE indicators DROP COLUMN write_xid');
}
