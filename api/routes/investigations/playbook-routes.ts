// SSI playbooks: CRUD and a URL test. Patterns are globs (domain/investigations/url-glob.ts), never
// regular expressions. Analysts and admins (and investigations:write keys) write; investigations:read
// keys may also read.
import { z } from 'zod';
import {
  deletePlaybook,
  findMatchingPlaybooks,
  findPlaybook,
  insertPlaybook,
  listPlaybooks,
  replacePlaybook,
  type PlaybookRow,
} from '../../../db/repositories/investigations/playbook-repository';
import { PlaybookInputSchema, PlaybookStepSchema, type PlaybookInput } from '../../../domain/investigations/playbooks';
import type { Keyset } from '../../../domain/keyset';
import type { AccessPolicy } from '../../route-definition';
import { NotFoundError } from '../../errors';
import { encodeCursor, pageQueryShape, pageSchema } from '../../pagination';
import { principalName } from '../../../domain/accounts/principal-name';
import { defineRoute } from '../../route-definition';
import { ErrorSchema, UuidParam } from '../../common-schemas';

const WRITE: AccessPolicy = { roles: ['admin', 'analyst'], scopes: ['investigations:write'] };
const READ: AccessPolicy = { roles: ['admin', 'analyst'], scopes: ['investigations:read', 'investigations:write'] };

export const PlaybookSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    url_patterns: z.array(z.string()),
    steps: z.array(PlaybookStepSchema),
    enabled: z.boolean(),
    created_by: z.string(),
    created_at: z.string().describe('ISO 8601 UTC'),
    updated_by: z.string(),
    updated_at: z.string().describe('ISO 8601 UTC'),
  })
  .meta({ id: 'Playbook' });

export function playbookView(r: PlaybookRow): z.infer<typeof PlaybookSchema> {
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

const TestMatchSchema = z
  .strictObject({ url: z.url({ protocol: /^https?$/ }).max(2048).describe('An http(s) URL') })
  .meta({ id: 'PlaybookTestMatchInput' });

const TestMatchResultSchema = z
  .object({
    url: z.string(),
    subject: z.string().describe('What the patterns were matched against: host + path, lower case'),
    matches: z.array(z.object({ playbook: PlaybookSchema, pattern: z.string().describe('The first pattern of this playbook that matched') })),
    selected_playbook_id: z
      .string()
      .uuid()
      .nullable()
      .describe('The playbook an investigation of this URL without playbook_id would use (the oldest enabled match)'),
  })
  .meta({ id: 'PlaybookTestMatchResult' });

const notFound = (id: string) => new NotFoundError(`no playbook ${id}`);

export const playbookRoutes = [
  defineRoute<Record<string, never>, { enabled?: boolean; limit: number; cursor?: Keyset }>({
    method: 'get',
    path: '/playbooks/ssi',
    summary: 'List SSI playbooks, newest first',
    tags: ['playbooks'],
    access: READ,
    request: {
      query: z.object({
        enabled: z
          .enum(['true', 'false'])
          .optional()
          .transform((v) => (v === undefined ? undefined : v === 'true'))
          .describe('Only enabled (true) or disabled (false) playbooks'),
        ...pageQueryShape,
      }),
    },
    responses: { 200: { description: 'A page of playbooks', schema: pageSchema(PlaybookSchema, 'PlaybookPage') } },
    handler: async ({ query, deps }) => {
      const page = await listPlaybooks(deps.knex, { enabled: query.enabled, limit: query.limit, after: query.cursor });
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
    handler: async ({ body, principal, deps }) => ({ status: 201, body: playbookView(await insertPlaybook(deps.knex, body, principalName(principal))) }),
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
      const matches = await findMatchingPlaybooks(deps.knex, body.url);
      const u = new URL(body.url);
      return {
        body: {
          url: u.href,
          subject: `${u.hostname}${u.pathname}`.toLowerCase(),
          matches: matches.map((m) => ({ playbook: playbookView(m.playbook), pattern: m.pattern })),
          selected_playbook_id: matches[0]?.playbook.id ?? null,
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
      const row = await findPlaybook(deps.knex, params.id);
      if (!row) throw notFound(params.id);
      return { body: playbookView(row) };
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
      const row = await replacePlaybook(deps.knex, params.id, body, principalName(principal));
      if (!row) throw notFound(params.id);
      return { body: playbookView(row) };
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
      if (!(await deletePlaybook(deps.knex, params.id))) throw notFound(params.id);
      return { status: 204 };
    },
  }),
];
