// SSI playbooks: CRUD and a URL test. Patterns are globs (domain/investigations/url-glob.ts), never
// regular expressions. Analysts and admins (and investigations:write keys) write; investigations:read
// keys may also read. The use cases are services/investigations/playbook-service.ts; the schemas
// ./investigation-schemas.ts.
import type { z } from 'zod';
import { PlaybookInputSchema, type PlaybookInput } from '../../../domain/investigations/playbooks';
import type { Keyset } from '../../../domain/keyset';
import {
  createPlaybook,
  getPlaybook,
  listPlaybooks,
  removePlaybook,
  testPlaybookMatch,
  updatePlaybook,
  type PlaybookRow,
} from '../../../services/investigations/playbook-service';
import type { AccessPolicy } from '../../route-definition';
import { encodeCursor, pageSchema } from '../../pagination';
import { defineRoute } from '../../route-definition';
import { ErrorSchema, UuidParam } from '../../common-schemas';
import { PlaybookListQuery, PlaybookSchema, TestMatchResultSchema, TestMatchSchema } from './investigation-schemas';

const WRITE: AccessPolicy = { roles: ['admin', 'analyst'], scopes: ['investigations:write'] };
const READ: AccessPolicy = { roles: ['admin', 'analyst'], scopes: ['investigations:read', 'investigations:write'] };

function playbookView(r: PlaybookRow): z.infer<typeof PlaybookSchema> {
  return {
    id: r.id,
    name: r.name,
    url_patterns: r.url_patterns,
    steps: r.steps,
    enabled: r.enabled,
    created_by: r.created_by,
    created_at: r.created_at.toISOString(),
    updated_by: r.updated_by,
    updated_at: r.updated_at.toISOString(),
  };
}

export const playbookRoutes = [
  defineRoute<Record<string, never>, { enabled?: boolean; limit: number; cursor?: Keyset }>({
    method: 'get',
    path: '/playbooks/ssi',
    summary: 'List SSI playbooks, newest first',
    tags: ['playbooks'],
    access: READ,
    request: { query: PlaybookListQuery },
    responses: { 200: { description: 'A page of playbooks', schema: pageSchema(PlaybookSchema, 'PlaybookPage') } },
    handler: async ({ query, deps }) => {
      const page = await listPlaybooks(deps, { enabled: query.enabled, limit: query.limit, after: query.cursor });
      return { body: { items: page.rows.map(playbookView), next_cursor: encodeCursor(page.next) } };
    },
  }),
  defineRoute<Record<string, never>, Record<string, never>, PlaybookInput>({
    method: 'post',
    path: '/playbooks/ssi',
    summary: 'Create an SSI playbook: URL globs and the steps the agent runs on matching sites',
    tags: ['playbooks'],
    access: WRITE,
    request: { body: PlaybookInputSchema },
    responses: {
      201: { description: 'The playbook', schema: PlaybookSchema },
      400: { description: 'Invalid playbook; details name each field path (e.g. body.steps.2.selector)', schema: ErrorSchema },
    },
    handler: async ({ body, principal, deps }) => ({ status: 201, body: playbookView(await createPlaybook(deps, principal, body)) }),
  }),
  defineRoute<Record<string, never>, Record<string, never>, z.infer<typeof TestMatchSchema>>({
    method: 'post',
    path: '/playbooks/ssi/test-match',
    summary: 'Which enabled playbooks match a URL, with the pattern that matched each (oldest first)',
    tags: ['playbooks'],
    access: READ,
    request: { body: TestMatchSchema },
    responses: { 200: { description: 'The matching playbooks', schema: TestMatchResultSchema } },
    handler: async ({ body, deps }) => {
      const found = await testPlaybookMatch(deps, body.url);
      return {
        body: {
          url: found.url,
          subject: found.subject,
          matches: found.matches.map((m) => ({ playbook: playbookView(m.playbook), pattern: m.pattern })),
          selected_playbook_id: found.selectedPlaybookId,
        },
      };
    },
  }),
  defineRoute<{ id: string }>({
    method: 'get',
    path: '/playbooks/ssi/{id}',
    summary: 'One SSI playbook',
    tags: ['playbooks'],
    access: READ,
    request: { params: UuidParam },
    responses: { 200: { description: 'The playbook', schema: PlaybookSchema }, 404: { description: 'No such playbook', schema: ErrorSchema } },
    handler: async ({ params, deps }) => {
      return { body: playbookView(await getPlaybook(deps, params.id)) };
    },
  }),
  defineRoute<{ id: string }, Record<string, never>, PlaybookInput>({
    method: 'put',
    path: '/playbooks/ssi/{id}',
    summary: 'Replace an SSI playbook (name, url_patterns, steps, enabled)',
    tags: ['playbooks'],
    access: WRITE,
    request: { params: UuidParam, body: PlaybookInputSchema },
    responses: {
      200: { description: 'The updated playbook', schema: PlaybookSchema },
      400: { description: 'Invalid playbook; details name each field path', schema: ErrorSchema },
      404: { description: 'No such playbook', schema: ErrorSchema },
    },
    handler: async ({ params, body, principal, deps }) => {
      return { body: playbookView(await updatePlaybook(deps, principal, params.id, body)) };
    },
  }),
  defineRoute<{ id: string }>({
    method: 'delete',
    path: '/playbooks/ssi/{id}',
    summary: 'Delete an SSI playbook (investigations that used it keep their recorded steps)',
    tags: ['playbooks'],
    access: WRITE,
    request: { params: UuidParam },
    responses: { 204: { description: 'Deleted' }, 404: { description: 'No such playbook', schema: ErrorSchema } },
    handler: async ({ params, deps }) => {
      await removePlaybook(deps, params.id);
      return { status: 204 };
    },
  }),
];
