// The playbook an investigation follows: the one named in the request, else the first enabled
// playbook whose URL pattern matches the site.
import type { Knex } from 'knex';
import type { PlaybookStepInput } from '../../domain/investigations/investigation-request';

export interface ResolvedPlaybook {
  id: string;
  name: string;
  pattern: string | null;
  steps: PlaybookStepInput[];
}

export function createPlaybookActivities(_deps: { knex: Knex }) {
  return {
    async resolveInvestigationPlaybook(_input: { scanId: string; url: string; playbookId: string | null }): Promise<ResolvedPlaybook | null> {
      return null;
    },
  };
}
