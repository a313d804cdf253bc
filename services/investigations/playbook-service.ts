// SSI playbooks as use cases (the rules are domain/investigations/playbooks.ts):
//   listPlaybooks      a page of playbooks, newest first, optionally only enabled or disabled ones
//   createPlaybook     store a new playbook, written by the caller
//   getPlaybook        one playbook (404 when unknown)
//   updatePlaybook     replace a playbook's name, patterns, steps and enabled flag (404 when unknown)
//   removePlaybook     delete a playbook (404 when unknown); investigations that used it keep their steps
//   testPlaybookMatch  which enabled playbooks match a URL, and the one an investigation would follow
import {
  deletePlaybook,
  findMatchingPlaybooks,
  findPlaybook,
  insertPlaybook,
  listPlaybooks as listPlaybookRows,
  replacePlaybook,
  type PlaybookRow,
} from '../../db/repositories/investigations/playbook-repository';
import { principalName } from '../../domain/accounts/principal-name';
import type { Principal } from '../../domain/accounts/roles';
import type { PlaybookInput, PlaybookMatch } from '../../domain/investigations/playbooks';
import type { Keyset, KeysetPage } from '../../domain/keyset';
import { NotFoundError } from '../errors';
import type { ServiceDeps } from '../service-deps';

export type { PlaybookRow } from '../../db/repositories/investigations/playbook-repository';

const notFound = (id: string) => new NotFoundError(`no playbook ${id}`);

export async function listPlaybooks(deps: Pick<ServiceDeps, 'knex'>, filter: { enabled?: boolean; limit: number; after?: Keyset }): Promise<KeysetPage<PlaybookRow>> {
  return listPlaybookRows(deps.knex, filter);
}

export async function createPlaybook(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, input: PlaybookInput): Promise<PlaybookRow> {
  return insertPlaybook(deps.knex, input, principalName(principal));
}

export async function getPlaybook(deps: Pick<ServiceDeps, 'knex'>, id: string): Promise<PlaybookRow> {
  const row = await findPlaybook(deps.knex, id);
  if (!row) throw notFound(id);
  return row;
}

export async function updatePlaybook(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, id: string, input: PlaybookInput): Promise<PlaybookRow> {
  const row = await replacePlaybook(deps.knex, id, input, principalName(principal));
  if (!row) throw notFound(id);
  return row;
}

export async function removePlaybook(deps: Pick<ServiceDeps, 'knex'>, id: string): Promise<void> {
  if (!(await deletePlaybook(deps.knex, id))) throw notFound(id);
}

export interface PlaybookTestMatch {
  /** The URL as parsed (normalized). */
  url: string;
  /** What the patterns were matched against: host + path, lower case. */
  subject: string;
  /** Every enabled playbook that matches, oldest first, with the first of its patterns that matched. */
  matches: Array<PlaybookMatch<PlaybookRow>>;
  /** The playbook an investigation of this URL without playbook_id would follow (the oldest match). */
  selectedPlaybookId: string | null;
}

export async function testPlaybookMatch(deps: Pick<ServiceDeps, 'knex'>, url: string): Promise<PlaybookTestMatch> {
  const matches = await findMatchingPlaybooks(deps.knex, url);
  const u = new URL(url);
  return { url: u.href, subject: `${u.hostname}${u.pathname}`.toLowerCase(), matches, selectedPlaybookId: matches[0]?.playbook.id ?? null };
}
