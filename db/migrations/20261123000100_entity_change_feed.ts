// The change feed of the graph's node fields, so that each API process's in-memory graph can keep
// the fields it answers per node (type, value, display_value, risk_score) instead of reading 500
// entities per request (services/intelligence/graph-projection.ts). The same horizon as the
// relationships' feed (migration 20261122002700):
// - write_xid: the transaction that inserted the row or last changed one of those four fields. The
//   platform's upserts rewrite an entity on every sighting (last_seen_at, sighting_count): those
//   leave write_xid alone, so the feed holds only what a reader of the node fields must see.
// - a delete or truncation of entities (the platform does neither) counts as a reset of the graph,
//   as one of relationships does: readers rebuild rather than patch.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE entities ADD COLUMN write_xid xid8 NOT NULL DEFAULT '0'::xid8");
  await knex.raw(`
    CREATE FUNCTION entities_set_write_xid() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.write_xid := pg_current_xact_id();
      RETURN NEW;
    END $$`);
  await knex.raw(`
    CREATE TRIGGER entities_write_xid_insert BEFORE INSERT ON entities
    FOR EACH ROW EXECUTE FUNCTION entities_set_write_xid()`);
  await knex.raw(`
    CREATE TRIGGER entities_write_xid_update BEFORE UPDATE ON entities
    FOR EACH ROW WHEN (OLD.type IS DISTINCT FROM NEW.type OR OLD.value IS DISTINCT FROM NEW.value
                       OR OLD.display_value IS DISTINCT FROM NEW.display_value OR OLD.risk_score IS DISTINCT FROM NEW.risk_score)
    EXECUTE FUNCTION entities_set_write_xid()`);
  await knex.raw('CREATE INDEX entities_write_xid_idx ON entities (write_xid)');
  await knex.raw(`
    CREATE TRIGGER entities_deleted AFTER DELETE ON entities
    FOR EACH STATEMENT EXECUTE FUNCTION relationships_note_reset()`);
  await knex.raw(`
    CREATE TRIGGER entities_truncated AFTER TRUNCATE ON entities
    FOR EACH STATEMENT EXECUTE FUNCTION relationships_note_reset()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER entities_truncated ON entities');
  await knex.raw('DROP TRIGGER entities_deleted ON entities');
  await knex.raw('DROP INDEX entities_write_xid_idx');
  await knex.raw('DROP TRIGGER entities_write_xid_update ON entities');
  await knex.raw('DROP TRIGGER entities_write_xid_insert ON entities');
  await knex.raw('DROP FUNCTION entities_set_write_xid()');
  await knex.raw('ALTER TABLE entities DROP COLUMN write_xid');
}
