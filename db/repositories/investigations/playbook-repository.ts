// SSI playbooks: create, read, replace, delete, list (newest first, keyset) and the lookup the
// investigation workflow uses (the first enabled playbook whose pattern matches a URL).
import type { Knex } from 'knex';
import { firstMatchingPlaybook, matchingPlaybooks, type PlaybookInput, type PlaybookMatch, type PlaybookStep } from '../../../domain/investigations/playbooks';
import { keysetPage, type Keyset, type KeysetPage } from '../../keyset-page';

export interface PlaybookRow {
  id: string;
  name: string;
  url_patterns: string[];
  steps: PlaybookStep[];
  enabled: boolean;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  updated_by: string;
}

const TABLE = 'ssi_playbooks';

export async function insertPlaybook(knex: Knex, input: PlaybookInput, by: string): Promise<PlaybookRow> {
  const [row] = await knex(TABLE)
    .insert({ name: input.name, url_patterns: input.url_patterns, steps: JSON.stringify(input.steps), enabled: input.enabled, created_by: by, updated_by: by })
    .returning('*');
  return row as PlaybookRow;
}

export async function findPlaybook(knex: Knex, id: string): Promise<PlaybookRow | undefined> {
  return knex<PlaybookRow>(TABLE).where({ id }).first();
}

/** Replaces name, patterns, steps and enabled; undefined when there is no such playbook. */
export async function replacePlaybook(knex: Knex, id: string, input: PlaybookInput, by: string): Promise<PlaybookRow | undefined> {
  const [row] = await knex(TABLE)
    .where({ id })
    .update({ name: input.name, url_patterns: input.url_patterns, steps: JSON.stringify(input.steps), enabled: input.enabled, updated_at: knex.fn.now(), updated_by: by })
    .returning('*');
  return row as PlaybookRow | undefined;
}

/** Deletes; false when there was no such playbook. */
export async function deletePlaybook(knex: Knex, id: string): Promise<boolean> {
  return (await knex(TABLE).where({ id }).delete()) > 0;
}

export async function listPlaybooks(knex: Knex, filter: { enabled?: boolean; limit: number; after?: Keyset }): Promise<KeysetPage<PlaybookRow>> {
  const q = knex(TABLE).select(`${TABLE}.*`);
  if (filter.enabled !== undefined) q.where('enabled', filter.enabled);
  return keysetPage<PlaybookRow>(knex, q, { tsColumn: 'created_at', idColumn: 'id', limit: filter.limit, after: filter.after });
}

/** Enabled playbooks in matching order: oldest first. */
export async function listEnabledPlaybooks(knex: Knex): Promise<PlaybookRow[]> {
  return knex<PlaybookRow>(TABLE).where({ enabled: true }).orderBy([{ column: 'created_at', order: 'asc' }, { column: 'id', order: 'asc' }]);
}

/** Every enabled playbook matching `url` (oldest first) with the pattern that matched. */
export async function findMatchingPlaybooks(knex: Knex, url: string): Promise<Array<PlaybookMatch<PlaybookRow>>> {
  return matchingPlaybooks(await listEnabledPlaybooks(knex), url);
}

/** The playbook an investigation without playbook_id uses (first enabled match, oldest first), or null. */
export async function findMatchingPlaybook(knex: Knex, url: string): Promise<PlaybookMatch<PlaybookRow> | null> {
  return firstMatchingPlaybook(await listEnabledPlaybooks(knex), url);
}
