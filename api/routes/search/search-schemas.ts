// Request and response schemas of the /reviews/search/* routes.
import { z } from 'zod';
import { stripUnsafeNameCharacters } from '../../../domain/text-safety';
import { SAVED_SEARCH_VISIBILITIES, SHARE_PERMISSIONS } from '../../../domain/search/saved-search-access';
import { SEARCH_FIELD_TYPES, SEARCH_OPERATORS, SEARCH_RECORD_TYPES, type SearchRecordType } from '../../../domain/search/search-fields';
import { ROLES } from '../../../domain/accounts/roles';
import type { SavedSearchRow, SavedSearchWithShares } from '../../../services/search/saved-search-service';
import { decodeSearchCursor } from '../../../services/search/search-service';
import { cursorParam, pageQueryShape } from '../../pagination';
import { EmailAddressSchema, storedText } from '../../common-schemas';

export const SearchRecordTypeSchema = z.enum(SEARCH_RECORD_TYPES);

export const QueryTextSchema = storedText(2000).describe('The query (see GET /reviews/search/schema and the README "Search" section); empty matches everything');

const FieldNameSchema = z.string().regex(/^[a-z_][a-z0-9_]{0,49}$/, 'a field name from GET /reviews/search/schema');
const FilterValueSchema = storedText(500).min(1);

export const FiltersSchema = z
  .record(FieldNameSchema, z.union([FilterValueSchema, z.array(FilterValueSchema).min(1).max(50)]))
  .refine((f) => Object.keys(f).length <= 20, 'at most 20 filters')
  .describe('field -> value or values (values of one field are OR-ed, fields AND-ed), in query syntax after the colon: {"status": ["open", "triage"], "loss": ">5000"}');

export const SearchSortSchema = z.enum(['relevance', 'newest']).describe('relevance (full-text rank; records without free-text terms rank equal) or newest first');

export const QueryBody = z
  .object({
    query: QueryTextSchema,
    types: z.array(SearchRecordTypeSchema).max(SEARCH_RECORD_TYPES.length).optional().describe('record types to search (default: all)'),
    filters: FiltersSchema.optional(),
    sort: SearchSortSchema.default('relevance'),
    limit: z.number().int().min(1).max(500).default(50),
    cursor: z.string().max(1000).optional().describe('next_cursor of the previous page (same query)'),
  })
  .strict();

export const LegacyQuery = z.object({
  q: QueryTextSchema.default(''),
  type: z
    .string()
    .max(200)
    .optional()
    .describe('a record type or a comma list (case, intake, investigation, entity, wallet, indicator)')
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      const types = v.split(',').map((t) => t.trim());
      const bad = types.find((t) => !(SEARCH_RECORD_TYPES as readonly string[]).includes(t));
      if (bad !== undefined) {
        ctx.addIssue({ code: 'custom', message: `unknown record type "${bad}"; one of ${SEARCH_RECORD_TYPES.join(', ')}` });
        return z.NEVER;
      }
      return types as SearchRecordType[];
    }),
  limit: pageQueryShape.limit,
  cursor: cursorParam(decodeSearchCursor),
});

export const SearchHitSchema = z
  .object({
    type: SearchRecordTypeSchema,
    id: z.string(),
    title: z.string(),
    snippet: z.string().describe('HTML-escaped text with the matched words in <mark> elements'),
    score: z.number(),
    matched_fields: z.array(z.string()).describe('fields of the query (outside NOT) that this record matches; "text" for free-text terms'),
    record: z.record(z.string(), z.unknown()).describe('the record\'s main fields (masked per role; intakes never carry contact data)'),
  })
  .meta({ id: 'SearchHit' });

export const SearchResultSchema = z
  .object({
    items: z.array(SearchHitSchema),
    next_cursor: z.string().nullable(),
    total_estimate: z.number().int().describe('matching records, counted exactly up to 1000 per record type'),
    total_capped: z.boolean().describe('true when a record type reached the 1000 cap (total_estimate is a lower bound)'),
    aggregates: z
      .array(z.object({ type: SearchRecordTypeSchema, count: z.number().int(), capped: z.boolean() }))
      .optional()
      .describe('researchers only: counts per record type (they get no records)'),
  })
  .meta({ id: 'SearchResult' });

export const SearchSchemaSchema = z
  .object({
    record_types: z.array(SearchRecordTypeSchema),
    fields: z.array(
      z.object({
        name: z.string(),
        type: z.enum(SEARCH_FIELD_TYPES),
        description: z.string(),
        record_types: z.array(SearchRecordTypeSchema),
        operators: z.array(z.enum(SEARCH_OPERATORS)),
        values: z.array(z.string()).optional(),
        examples: z.array(z.string()),
      }),
    ),
    syntax: z.array(z.object({ form: z.string(), meaning: z.string(), example: z.string() })),
  })
  .meta({ id: 'SearchSchema' });

export const SearchHistoryEntrySchema = z
  .object({
    id: z.string().uuid(),
    query: z.string(),
    types: z.array(z.string()),
    filters: z.record(z.string(), z.unknown()),
    result_count: z.number().int(),
    searched_at: z.string(),
  })
  .meta({ id: 'SearchHistoryEntry' });

export const SearchHistoryQuery = z.object(pageQueryShape);

export const SearchHistoryClearedSchema = z.object({ deleted: z.number().int() });

const TAG_RULE = '1-50 letters, digits, space . _ : / - (starting with a letter or digit)';
/** The rule itself: Unicode letters and digits (`\p{L}`, `\p{N}`), checked in code. */
const TAG = /^[\p{L}\p{N}][\p{L}\p{N} ._:/-]{0,49}$/u;
/**
 * The pattern the OpenAPI document shows: the same rule for ASCII, any non-ASCII character allowed.
 * Python's `re`, Go's RE2 and JavaScript without the `u` flag cannot compile `\p{L}`; this one they
 * all can. It accepts every tag TAG accepts, so a client checking it never refuses a valid tag.
 */
// eslint-disable-next-line no-control-regex -- the ranges name the ASCII characters a tag cannot hold
const TAG_PORTABLE = /^[^\x00-\x2F\x3A-\x40\x5B-\x60\x7B-\x7F][^\x00-\x1F\x21-\x2C\x3B-\x40\x5B-\x5E\x60\x7B-\x7F]{0,49}$/;
export const TagSchema = z.string().regex(TAG_PORTABLE, { message: TAG_RULE, abort: true }).refine((s) => TAG.test(s), TAG_RULE);
export const TagsSchema = z.array(TagSchema).max(50);
export const SavedSearchNameSchema = storedText(200).overwrite(stripUnsafeNameCharacters).trim().min(1);

export const ShareSchema = z.object({
  grantee_kind: z.enum(['user', 'role']),
  grantee: z.string(),
  permission: z.enum(SHARE_PERMISSIONS),
  shared_by: z.string(),
  shared_at: z.string(),
});

export const SavedSearchListQuery = z.object({
  tag: z.string().max(50).optional().describe('only searches with this tag'),
  owner: z.string().max(320).optional().describe('only searches of this owner'),
  ...pageQueryShape,
});

export const SavedSearchSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    query: z.string(),
    types: z.array(SearchRecordTypeSchema),
    filters: z.record(z.string(), z.array(z.string())),
    sort: SearchSortSchema,
    tags: z.array(z.string()),
    owner: z.string(),
    visibility: z.enum(SAVED_SEARCH_VISIBILITIES),
    access: z.enum(['owner', 'editor', 'viewer']).describe('what the caller may do: owner (everything), editor (change), viewer (read, run, export)'),
    shares: z.array(ShareSchema).optional().describe('owners only'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'SavedSearch' });

export const SavedSearchInputSchema = z
  .object({
    name: SavedSearchNameSchema,
    query: QueryTextSchema,
    types: z.array(SearchRecordTypeSchema).max(SEARCH_RECORD_TYPES.length).default([]),
    filters: FiltersSchema.default({}),
    sort: SearchSortSchema.default('relevance'),
    tags: TagsSchema.default([]),
    visibility: z.enum(SAVED_SEARCH_VISIBILITIES).default('private').describe('private: the owner and those it is shared with; public: every search user can view it'),
  })
  .strict();

export const SavedSearchPatchSchema = z
  .object({
    name: SavedSearchNameSchema.optional(),
    query: QueryTextSchema.optional(),
    types: z.array(SearchRecordTypeSchema).max(SEARCH_RECORD_TYPES.length).optional(),
    filters: FiltersSchema.optional(),
    sort: SearchSortSchema.optional(),
    tags: TagsSchema.optional(),
    visibility: z.enum(SAVED_SEARCH_VISIBILITIES).optional().describe('owner only'),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, 'give at least one field to change');

const GranteeSchema = z.union([
  z.object({ user: EmailAddressSchema.transform((e) => e.toLowerCase()) }).strict(),
  z.object({ role: z.enum(ROLES) }).strict(),
]);

export const ShareRequestSchema = z
  .object({
    grant: z.array(z.intersection(GranteeSchema, z.object({ permission: z.enum(SHARE_PERMISSIONS) }))).max(100).default([]),
    revoke: z.array(GranteeSchema).max(100).default([]),
  })
  .strict()
  .refine((b) => b.grant.length + b.revoke.length > 0, 'grant or revoke at least one user or role');

/** The versioned export document (format and version are checked on import). */
export const SAVED_SEARCH_FORMAT = 'fip-saved-search';
export const SAVED_SEARCH_FORMAT_VERSION = 1;

export const SavedSearchDocumentSchema = z
  .object({
    format: z.literal(SAVED_SEARCH_FORMAT),
    version: z.literal(SAVED_SEARCH_FORMAT_VERSION),
    exported_at: z.string().optional(),
    exported_by: z.string().optional(),
    saved_search: z
      .object({
        name: SavedSearchNameSchema,
        query: QueryTextSchema,
        types: z.array(SearchRecordTypeSchema).max(SEARCH_RECORD_TYPES.length).default([]),
        filters: FiltersSchema.default({}),
        sort: SearchSortSchema.default('relevance'),
        tags: TagsSchema.default([]),
      })
      .strict(),
  })
  .meta({ id: 'SavedSearchDocument' });

export const ImportRequestSchema = z
  .object({
    documents: z.array(z.unknown()).min(1).max(100).describe('export documents ({"format": "fip-saved-search", "version": 1, ...}); each is validated on its own'),
    atomic: z
      .boolean()
      .default(false)
      .describe('true: all or nothing: one invalid document writes none (400 validation_failed, details naming every problem as body.documents.<index>...); false: the valid ones are created, the rest reported as rejected'),
  })
  .strict();

export const ImportResultSchema = z
  .object({
    results: z.array(
      z.object({
        index: z.number().int(),
        status: z.enum(['created', 'renamed', 'rejected']),
        id: z.string().uuid().optional(),
        name: z.string().optional(),
        original_name: z.string().optional(),
        errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
      }),
    ),
    created: z.number().int(),
    renamed: z.number().int(),
    rejected: z.number().int(),
  })
  .meta({ id: 'SavedSearchImportResult' });

export const BulkTagsRequestSchema = z
  .object({
    ids: z.array(z.string().uuid()).min(1).max(500),
    add: TagsSchema.default([]),
    remove: TagsSchema.default([]),
  })
  .strict()
  .refine((b) => b.add.length + b.remove.length > 0, 'add or remove at least one tag');

export const BulkTagsResultSchema = z
  .object({
    updated: z.array(z.string().uuid()),
    skipped: z.array(z.object({ id: z.string().uuid(), reason: z.enum(['not_found', 'not_editable']) })),
  })
  .meta({ id: 'SavedSearchBulkTagsResult' });

export const TagPresetsSchema = z
  .object({
    presets: z.array(z.string()).describe('configured (SVC_SEARCH__TAG_PRESETS)'),
    in_use: z.array(z.object({ tag: z.string(), count: z.number().int() })).describe('tags on the saved searches the caller can see, most used first'),
  })
  .meta({ id: 'SearchTagPresets' });

export const SearchPresetsSchema = z
  .object({
    items: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        description: z.string(),
        query: z.string().describe('in the query language; relative dates already resolved against the time of the request'),
        types: z.array(SearchRecordTypeSchema),
        sort: SearchSortSchema,
      }),
    ),
  })
  .meta({ id: 'SearchPresets' });

export function savedSearchView(row: SavedSearchRow | SavedSearchWithShares, access: 'owner' | 'editor' | 'viewer') {
  const shares = 'shares' in row && access === 'owner' ? row.shares.map((s) => ({ ...s, shared_at: new Date(s.shared_at).toISOString() })) : undefined;
  return {
    id: row.id,
    name: row.name,
    query: row.query,
    types: row.types,
    filters: row.filters,
    sort: row.sort,
    tags: row.tags,
    owner: row.owner,
    visibility: row.visibility,
    access,
    ...(shares ? { shares } : {}),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
