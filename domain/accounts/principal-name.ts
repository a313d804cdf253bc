import type { Principal } from './roles';

/** How a caller is recorded in audit fields (created_by, deactivated_by, requested_by). */
export function principalName(p: Principal | null): string {
  if (!p) return 'anonymous';
  return p.kind === 'user' ? p.email : `service:${p.name}`;
}
