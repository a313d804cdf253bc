// The intelligence graph of docs/data-model.md: entities (unique per type and normalized value),
// sightings (which source mentioned which entity: the provenance of everything else), and
// relationships (edges, each with the sources that evidence it, so that weights count sources once
// however often an activity is retried).
import type { Knex } from 'knex';
import { GRAPH_ENTITY_TYPES, RELATIONSHIP_KINDS, SOURCE_KINDS } from '../../domain/intelligence/entity-types';

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('entities', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('type').notNullable();
    t.text('value').notNullable();
    t.text('display_value').notNullable();
    t.jsonb('attributes').notNullable().defaultTo('{}');
    t.timestamp('first_seen_at', { useTz: true }).notNullable();
    t.timestamp('last_seen_at', { useTz: true }).notNullable();
    t.integer('sighting_count').notNullable().defaultTo(0);
    t.smallint('risk_score');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['type', 'value'], { indexName: 'entities_type_value_uq' });
    t.index(['last_seen_at', 'id'], 'entities_last_seen_idx');
  });
  await knex.raw(`ALTER TABLE entities ADD CONSTRAINT entities_type_check CHECK (type IN (${list(GRAPH_ENTITY_TYPES)}))`);

  await knex.schema.createTable('sightings', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('entity_id').notNullable().references('entities.id').onDelete('CASCADE');
    t.text('source_kind').notNullable();
    t.text('source_id').notNullable();
    t.timestamp('observed_at', { useTz: true }).notNullable();
    t.jsonb('context').notNullable().defaultTo('{}');
    t.unique(['entity_id', 'source_kind', 'source_id'], { indexName: 'sightings_entity_source_uq' });
    t.index(['source_kind', 'source_id'], 'sightings_source_idx');
  });
  await knex.raw(`ALTER TABLE sightings ADD CONSTRAINT sightings_source_kind_check CHECK (source_kind IN (${list(SOURCE_KINDS)}))`);

  await knex.schema.createTable('relationships', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('src_entity_id').notNullable().references('entities.id').onDelete('CASCADE');
    t.uuid('dst_entity_id').notNullable().references('entities.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.integer('weight').notNullable().defaultTo(0);
    t.timestamp('first_seen_at', { useTz: true }).notNullable();
    t.timestamp('last_seen_at', { useTz: true }).notNullable();
    t.unique(['src_entity_id', 'dst_entity_id', 'kind'], { indexName: 'relationships_edge_uq' });
    t.index(['dst_entity_id'], 'relationships_dst_idx');
  });
  await knex.raw(`ALTER TABLE relationships ADD CONSTRAINT relationships_kind_check CHECK (kind IN (${list(RELATIONSHIP_KINDS)}))`);
  await knex.raw(`ALTER TABLE relationships ADD CONSTRAINT relationships_no_loop CHECK (src_entity_id <> dst_entity_id)`);
  // An undirected edge is stored once, with ordered ids.
  await knex.raw(`ALTER TABLE relationships ADD CONSTRAINT relationships_undirected_ordered CHECK (kind <> 'co_occurs' OR src_entity_id < dst_entity_id)`);

  await knex.schema.createTable('relationship_evidence', (t) => {
    t.uuid('relationship_id').notNullable().references('relationships.id').onDelete('CASCADE');
    t.text('source_kind').notNullable();
    t.text('source_id').notNullable();
    t.timestamp('observed_at', { useTz: true }).notNullable();
    t.primary(['relationship_id', 'source_kind', 'source_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('relationship_evidence');
  await knex.schema.dropTableIfExists('relationships');
  await knex.schema.dropTableIfExists('sightings');
  await knex.schema.dropTableIfExists('entities');
}
