// The per-finding provenance kept for ended investigations (table investigation_finding_provenance).
import type { Knex } from 'knex';

export interface FindingProvenanceRow {
  kind: string;
  value: string;
  provenance: Record<string, unknown> | null;
  reason: string | null;
}

export async function listFindingProvenance(knex: Knex, scanId: string): Promise<FindingProvenanceRow[]> {
  return (await knex('investigation_finding_provenance').where({ scan_id: scanId }).orderBy([{ column: 'kind' }, { column: 'value' }]).select('kind', 'value', 'provenance', 'reason')) as FindingProvenanceRow[];
}

/** Keeps a scan's computed provenance; a second computation (a concurrent first read) adds nothing. */
export async function saveFindingProvenance(knex: Knex, scanId: string, rows: ReadonlyArray<{ kind: string; value: string; provenance: object | null; reason: string | null }>): Promise<void> {
  if (!rows.length) return;
  await knex('investigation_finding_provenance')
    .insert(rows.map((r) => ({ scan_id: scanId, kind: r.kind, value: r.value, provenance: r.provenance === null ? null : JSON.stringify(r.provenance), reason: r.reason })))
    .onConflict(['scan_id', 'kind', 'value'])
    .ignore();
}
