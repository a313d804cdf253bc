// The change feed that keeps each API process's in-memory graph (services/intelligence/
// graph-projection.ts) equal to the relationships table, as indicators' write_xid does for feeds:
// - write_xid: the transaction that last wrote the row, set by a trigger so that every write path
//   (the graph's upserts, COPY, hand-written SQL) is covered. A reader that remembers the oldest
//   transaction still running at its last read (pg_snapshot_xmin) finds every row committed since
//   among those with write_xid >= that xmin: a transaction not yet visible then was running or
//   not yet started, so its id is at least that xmin.
// - relationship_resets: one row per statement that deleted or truncated edges (the platform never
//   does; an operator or a cascade from entities may). A reader that sees the count change
//   rebuilds its graph instead of patching it.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE relationships ADD COLUMN write_xid xid8 NOT NULL DEFAULT '0'::xid8");
  await knex.raw(`
    CREATE FUNCTION relationships_set_write_xid() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.write_xid := pg_current_xact_id();
      RETURN NEW;
    END $$`);
  await knex.raw(`
    CREATE TRIGGER relationships_write_xid BEFORE INSERT OR UPDATE ON relationships
    FOR EACH ROW EXECUTE FUNCTION relationships_set_write_xid()`);
  await knex.raw('CREATE INDEX relationships_write_xid_idx ON relationships (write_xid)');

  await knex.raw('CREATE TABLE relationship_resets (id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())');
  await knex.raw(`
    CREATE FUNCTION relationships_note_reset() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO relationship_resets DEFAULT VALUES;
      RETURN NULL;
    END $$`);
  await knex.raw(`
    CREATE TRIGGER relationships_deleted AFTER DELETE ON relationships
    FOR EACH STATEMENT EXECUTE FUNCTION relationships_note_reset()`);
  await knex.raw(`
    CREATE TRIGGER relationships_truncated AFTER TRUNCATE ON relationships
    FOR EACH STATEMENT EXECUTE FUNCTION relationships_note_reset()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER relationships_truncated ON relationships');
  await knex.raw('DROP TRIGGER relationships_deleted ON relationships');
  await knex.raw('DROP FUNCTION relationships_note_reset()');
  await knex.raw('DROP TABLE relationship_resets');
  await knex.raw('DROP TRIGGER relationships_write_xid ON relationships');
  await knex.raw('DROP FUNCTION relationships_set_write_xid()');
  await knex.raw('DROP INDEX relationships_write_xid_idx');
  await knex.raw('ALTER TABLE relationships DROP COLUMN write_xid');
}
