// Who may do what with a saved search. Owners do everything; editors (shared to them or to one of
// their roles) change the query, name, types, filters, sort and tags; viewers (or anyone when the
// search is public) read, run and export it; admins read every saved search. Only the owner
// shares, changes visibility or deletes.
import type { Role } from '../accounts/roles';

export const SHARE_PERMISSIONS = ['viewer', 'editor'] as const;
export type SharePermission = (typeof SHARE_PERMISSIONS)[number];

export const SAVED_SEARCH_VISIBILITIES = ['private', 'public'] as const;
export type SavedSearchVisibility = (typeof SAVED_SEARCH_VISIBILITIES)[number];

export interface SavedSearchShare {
  grantee_kind: 'user' | 'role';
  grantee: string;
  permission: SharePermission;
}

export type SavedSearchAccess = 'owner' | 'editor' | 'viewer' | null;

export function savedSearchAccess(
  search: { owner: string; visibility: SavedSearchVisibility },
  shares: readonly SavedSearchShare[],
  caller: { email: string; roles: readonly Role[] },
): SavedSearchAccess {
  if (search.owner === caller.email) return 'owner';
  const mine = shares.filter((s) => (s.grantee_kind === 'user' ? s.grantee === caller.email : (caller.roles as readonly string[]).includes(s.grantee)));
  if (mine.some((s) => s.permission === 'editor')) return 'editor';
  if (mine.length > 0 || search.visibility === 'public' || caller.roles.includes('admin')) return 'viewer';
  return null;
}

export const canEdit = (a: SavedSearchAccess) => a === 'owner' || a === 'editor';

/** `name` or, when taken, `name (2)`, `name (3)`, ... (the first free one). */
export function freeName(name: string, taken: ReadonlySet<string>, maxLength = 200): string {
  const lower = (s: string) => s.toLowerCase();
  const takenLower = new Set([...taken].map(lower));
  if (!takenLower.has(lower(name))) return name;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const candidate = `${name.slice(0, maxLength - suffix.length)}${suffix}`;
    if (!takenLower.has(lower(candidate))) return candidate;
  }
}
