// The graph traversal reads each node's heaviest edges with ties by edge id (so that the SQL walk
// and the in-memory walk answer the same): the indexes carry the id in their order, so that
// `ORDER BY weight DESC, id LIMIT n` stops after n entries instead of sorting a hub's whole top
// weight. They replace the (src|dst, weight DESC) indexes, which they also serve.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX relationships_src_weight_id_idx ON relationships (src_entity_id, weight DESC, id) INCLUDE (dst_entity_id, kind)');
  await knex.raw('CREATE INDEX relationships_dst_weight_id_idx ON relationships (dst_entity_id, weight DESC, id) INCLUDE (src_entity_id, kind)');
  await knex.raw('DROP INDEX relationships_src_weight_idx');
  await knex.raw('DROP INDEX relationships_dst_weight_idx');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX relationships_src_weight_idx ON relationships (src_entity_id, weight DESC) INCLUDE (dst_entity_id, kind, id)');
  await knex.raw('CREATE INDEX relationships_dst_weight_idx ON relationships (dst_entity_id, weight DESC) INCLUDE (src_entity_id, kind, id)');
  await knex.raw('DROP INDEX relationships_src_weight_id_idx');
  await knex.raw('DROP INDEX relationships_dst_weight_id_idx');
}
