// The playbook an investigation follows: the one named in the request, else (when the request did
// not say `playbook_id: null`) the first enabled playbook whose URL pattern matches the site. Its
// steps are copied into the workflow (the playbook may change or go away later) and the choice is an
// agent action.
import type { Knex } from 'knex';
import { appendActions, setInvestigationState } from '../../db/repositories/investigations/investigation-repository';
import { findMatchingPlaybook, findPlaybook } from '../../db/repositories/investigations/playbook-repository';
import type { PlaybookStep } from '../../domain/investigations/playbooks';

export interface ResolvedPlaybook {
  id: string;
  name: string;
  pattern: string | null;
  steps: PlaybookStep[];
}

export function createPlaybookActivities(deps: { knex: Knex }) {
  const { knex } = deps;
  return {
    async resolveInvestigationPlaybook(input: { scanId: string; url: string; playbookId: string | null; auto: boolean }): Promise<ResolvedPlaybook | null> {
      let chosen: ResolvedPlaybook | null = null;
      if (input.playbookId) {
        const row = await findPlaybook(knex, input.playbookId);
        if (row) chosen = { id: row.id, name: row.name, pattern: null, steps: row.steps };
      } else if (input.auto) {
        const match = await findMatchingPlaybook(knex, input.url);
        if (match) chosen = { id: match.playbook.id, name: match.playbook.name, pattern: match.pattern, steps: match.playbook.steps };
      }
      const outcome = chosen
        ? `${chosen.name} (${chosen.id})${chosen.pattern ? `, pattern ${chosen.pattern}` : ', named in the request'}: ${chosen.steps.length} step(s)`
        : input.playbookId ? 'the requested playbook no longer exists' : 'no playbook';
      await appendActions(knex, input.scanId, [{ key: 'playbook', state: 'QUEUED', action: 'select_playbook', target: input.url, outcome }]);
      if (chosen) await setInvestigationState(knex, input.scanId, { state: 'QUEUED', status: 'running', playbookId: chosen.id });
      return chosen;
    },
  };
}
