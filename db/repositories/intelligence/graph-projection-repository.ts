// Reads of the relationships table for the in-memory graph (services/intelligence/graph-projection.ts):
// every edge at once, in PostgreSQL's binary COPY format (76 bytes an edge, no text to parse), and
// the edges and node fields written since a transaction horizon (the change feeds of migrations
// 20261122002700_relationship_change_feed and 20261123000100_entity_change_feed).
import type { Knex } from 'knex';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { RELATIONSHIP_KINDS, type RelationshipKind } from '../../../domain/intelligence/entity-types';
import type { GraphNodeRow } from './intel-read-repository';

export interface GraphFeedPosition {
  /** pg_snapshot_xmin of the read's snapshot, as text (xid8). */
  xmin: string;
  /** How many deletes or truncations of relationships the read's snapshot knows. */
  resets: number;
}

export interface ChangedEdge {
  id: string;
  src: string;
  dst: string;
  kind: RelationshipKind;
  weight: number;
}

const KINDS_ARRAY = `ARRAY[${RELATIONSHIP_KINDS.map((k) => `'${k}'`).join(', ')}]::text[]`;
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** One edge of the binary stream: ids as four big-endian words each, kind as its index in RELATIONSHIP_KINDS. */
export type EdgeSink = (id: number[], src: number[], dst: number[], kind: number, weight: number) => void;

/**
 * Every edge, in one REPEATABLE READ snapshot, handed to `sink` as it arrives; answers that
 * snapshot's feed position, from which graphChangesSince() continues.
 */
export async function loadAllEdges(knex: Knex, sink: EdgeSink): Promise<GraphFeedPosition & { edges: number }> {
  const conn = (await knex.client.acquireConnection()) as pg.PoolClient;
  let edges = 0;
  try {
    await conn.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows } = await conn.query<{ xmin: string; resets: string }>(
      'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin, (SELECT count(*) FROM relationship_resets) AS resets',
    );
    const stream = conn.query(
      copyTo(`COPY (SELECT id, src_entity_id, dst_entity_id, (array_position(${KINDS_ARRAY}, kind) - 1)::int2, weight FROM relationships) TO STDOUT (FORMAT binary)`),
    );
    let pending: Buffer = Buffer.alloc(0);
    let headerRead = false;
    const id = [0, 0, 0, 0];
    const src = [0, 0, 0, 0];
    const dst = [0, 0, 0, 0];
    const words = (b: Buffer, at: number, into: number[]) => {
      into[0] = b.readUInt32BE(at);
      into[1] = b.readUInt32BE(at + 4);
      into[2] = b.readUInt32BE(at + 8);
      into[3] = b.readUInt32BE(at + 12);
    };
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const b = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let at = 0;
      if (!headerRead) {
        if (b.length < 19) {
          pending = b;
          continue;
        }
        if (!b.subarray(0, 11).equals(SIGNATURE)) throw new Error('relationships COPY: not PostgreSQL binary COPY output');
        at = 19 + b.readUInt32BE(15);
        headerRead = true;
      }
      // A tuple: field count (int16), then per field its length (int32) and bytes. Every column is
      // NOT NULL and of fixed size: 2 + 3 x (4 + 16) + (4 + 2) + (4 + 4) = 76 bytes.
      while (b.length - at >= 2) {
        const fields = b.readInt16BE(at);
        if (fields === -1) {
          at += 2;
          break;
        }
        if (b.length - at < 76) break;
        if (fields !== 5 || b.readInt32BE(at + 2) !== 16 || b.readInt32BE(at + 62) !== 2 || b.readInt32BE(at + 68) !== 4) {
          throw new Error('relationships COPY: unexpected tuple layout');
        }
        words(b, at + 6, id);
        words(b, at + 26, src);
        words(b, at + 46, dst);
        sink(id, src, dst, b.readInt16BE(at + 66), b.readInt32BE(at + 72));
        edges++;
        at += 76;
      }
      pending = b.subarray(at);
    }
    await conn.query('COMMIT');
    return { xmin: rows[0]!.xmin, resets: Number(rows[0]!.resets), edges };
  } catch (err) {
    await conn.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await knex.client.releaseConnection(conn);
  }
}

const EDGES_SINCE = `WITH s AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin, (SELECT count(*)::int FROM relationship_resets) AS resets)
     SELECT s.xmin::text AS xmin, s.resets, 'edge' AS what, r.id, r.src_entity_id AS src, r.dst_entity_id AS dst, r.kind, r.weight,
            NULL::text AS type, NULL::text AS value, NULL::text AS display_value, NULL::int AS risk_score
       FROM s LEFT JOIN relationships r ON r.write_xid >= CAST(? AS xid8)`;
const NODES_SINCE = `
     UNION ALL
     SELECT s.xmin::text, s.resets, 'node', e.id, NULL, NULL, NULL, NULL, e.type, e.value, e.display_value, e.risk_score
       FROM s JOIN entities e ON e.write_xid >= CAST(? AS xid8)`;

/**
 * The edges written by transactions at or after `xmin` that this snapshot sees, the entities whose
 * node fields they wrote (migration 20261123000100_entity_change_feed; only when `withNodes`: a
 * reader that keeps no node fields does not read them), and this snapshot's position, in one
 * statement (so one snapshot).
 */
export async function graphChangesSince(knex: Knex, xmin: string, withNodes: boolean): Promise<GraphFeedPosition & { changes: ChangedEdge[]; nodes: GraphNodeRow[] }> {
  const { rows } = (await knex.raw(withNodes ? EDGES_SINCE + NODES_SINCE : EDGES_SINCE, withNodes ? [xmin, xmin] : [xmin])) as {
    rows: Array<{ xmin: string; resets: number; what: 'edge' | 'node'; id: string | null; src: string; dst: string; kind: RelationshipKind; weight: number } & Omit<GraphNodeRow, 'id'>>;
  };
  const first = rows[0]!;
  const changes: ChangedEdge[] = [];
  const nodes: GraphNodeRow[] = [];
  for (const r of rows) {
    if (r.id === null) continue;
    if (r.what === 'edge') changes.push({ id: r.id, src: r.src, dst: r.dst, kind: r.kind, weight: r.weight });
    else nodes.push({ id: r.id, type: r.type, value: r.value, display_value: r.display_value, risk_score: r.risk_score });
  }
  return { xmin: first.xmin, resets: first.resets, changes, nodes };
}
