// Who may read a dossier's shared-storage folder: derived from the case team (creator, assignee,
// reviewers of the case's reviews) and the LEA referral's recipient, plus explicit grants and
// revocations by admins. Pure: the caller reads the rows.

export const DRIVE_ACL_ROLES = ['reader', 'writer', 'owner'] as const;
export type DriveAclRole = (typeof DRIVE_ACL_ROLES)[number];

/** Why a principal is on the list: its part in the case, the referral, the dossier, or an explicit grant. */
export const DRIVE_ACL_SOURCES = ['case_creator', 'case_assignee', 'case_reviewer', 'lea_referral', 'dossier_creator', 'grant'] as const;
export type DriveAclSource = (typeof DRIVE_ACL_SOURCES)[number];

export interface DriveAclEntry {
  principal: string;
  role: DriveAclRole;
  granted_by: string;
  granted_at: string;
  expires_at: string | null;
  source: DriveAclSource;
}

export interface DriveAclInputs {
  dossier: { created_by: string; created_at: Date };
  case: { id: string; created_by: string; assignee: string | null; created_at: Date; updated_at: Date } | null;
  reviews: ReadonlyArray<{ claimed_by: string | null; decided_by: string | null; claimed_at: Date | null; decided_at: Date | null }>;
  referral: { agency: string | null; contact: string | null; created_by: string; created_at: Date } | null;
  grants: ReadonlyArray<{ principal: string; role: string; revoked: boolean; granted_by: string; granted_at: Date; expires_at: Date | null }>;
}

const RANK: Record<DriveAclRole, number> = { reader: 1, writer: 2, owner: 3 };

/** The principal that stands for an LEA referral's recipient: its contact address, else the agency. */
export function referralPrincipal(r: { agency: string | null; contact: string | null }): string | null {
  const contact = r.contact?.trim();
  if (contact) return contact.toLowerCase();
  const agency = r.agency?.trim();
  return agency ? `agency:${agency}` : null;
}

/**
 * The access list at `now`: the strongest derived entry per principal, then explicit grants
 * (which replace a derived entry of the same principal) and revocations (which remove it).
 * Expired grants are left out. Sorted by principal.
 */
export function deriveDriveAcl(input: DriveAclInputs, now: Date): DriveAclEntry[] {
  const byPrincipal = new Map<string, DriveAclEntry>();
  const add = (e: DriveAclEntry) => {
    const have = byPrincipal.get(e.principal);
    if (!have || RANK[e.role] > RANK[have.role]) byPrincipal.set(e.principal, e);
  };
  const iso = (d: Date) => d.toISOString();
  add({ principal: input.dossier.created_by, role: 'owner', granted_by: input.dossier.created_by, granted_at: iso(input.dossier.created_at), expires_at: null, source: 'dossier_creator' });
  if (input.case) {
    const c = input.case;
    add({ principal: c.created_by, role: 'owner', granted_by: `case:${c.id}`, granted_at: iso(c.created_at), expires_at: null, source: 'case_creator' });
    if (c.assignee) add({ principal: c.assignee, role: 'writer', granted_by: `case:${c.id}`, granted_at: iso(c.updated_at), expires_at: null, source: 'case_assignee' });
    for (const r of input.reviews) {
      for (const [who, at] of [[r.claimed_by, r.claimed_at], [r.decided_by, r.decided_at]] as const) {
        if (who) add({ principal: who, role: 'reader', granted_by: `case:${c.id}`, granted_at: iso(at ?? c.created_at), expires_at: null, source: 'case_reviewer' });
      }
    }
  }
  if (input.referral) {
    const p = referralPrincipal(input.referral);
    if (p) add({ principal: p, role: 'reader', granted_by: input.referral.created_by, granted_at: iso(input.referral.created_at), expires_at: null, source: 'lea_referral' });
  }
  for (const g of input.grants) {
    if (g.revoked) {
      byPrincipal.delete(g.principal);
      continue;
    }
    if (g.expires_at && g.expires_at.getTime() <= now.getTime()) {
      byPrincipal.delete(g.principal);
      continue;
    }
    byPrincipal.set(g.principal, {
      principal: g.principal,
      role: g.role as DriveAclRole,
      granted_by: g.granted_by,
      granted_at: iso(g.granted_at),
      expires_at: g.expires_at ? iso(g.expires_at) : null,
      source: 'grant',
    });
  }
  return [...byPrincipal.values()].sort((a, b) => (a.principal < b.principal ? -1 : a.principal > b.principal ? 1 : 0));
}
