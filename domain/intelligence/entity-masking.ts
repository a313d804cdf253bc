// Who sees which entity values (docs/data-model.md, "Who sees what"): bank details are masked for
// every role but analyst, everywhere an entity value leaves the API (lists, detail, graph, PNG,
// search, exports). Researchers see aggregates: in the entity list and the graph every value they
// get is masked, whatever its type (the list stays useful for counts, risk and loss; the natural key
// is withheld).
import type { Role } from '../accounts/roles';

/**
 * `DE89370400440532013000` → `DE89 **** **** **** 3000`: an IBAN keeps its country code, check
 * digits and last four characters, in groups of four; any other account number keeps its last four
 * (`**** 6789`). The one masking of bank details: search, intelligence, dashboards and exports.
 */
export function maskBankAccount(value: string): string {
  const compact = value.replace(/[\s-]/g, '').toUpperCase();
  if (/^[A-Z]{2}\d{2}[A-Z0-9]{8,30}$/.test(compact)) {
    const groups = Math.max(1, Math.floor((compact.length - 8) / 4));
    return [compact.slice(0, 4), ...Array.from({ length: groups }, () => '****'), compact.slice(-4)].join(' ');
  }
  return compact.length <= 4 ? '****' : `**** ${compact.slice(-4)}`;
}

/**
 * Any other value for a researcher: its first two and last two characters around a fixed mask,
 * counted in code points (as PostgreSQL counts characters: the researchers' quick search matches
 * this same rendering in SQL, db/repositories/intelligence/masked-search-repository.ts).
 */
export function maskOpaque(value: string): string {
  const chars = Array.from(value);
  if (chars.length <= 6) return '****';
  return `${chars.slice(0, 2).join('')}****${chars.slice(-2).join('')}`;
}

/** Whether this caller may see bank details in clear: analysts only. */
export function seesBankDetails(roles: readonly Role[]): boolean {
  return roles.includes('analyst');
}

/** Researchers without a role that sees more: values withheld (masked) in every answer. */
export function isAggregateOnly(roles: readonly Role[]): boolean {
  return roles.includes('researcher') && !roles.some((r) => r === 'admin' || r === 'analyst' || r === 'reviewer');
}

/**
 * The value of an entity as this caller may see it. `roles` empty means a service key: it gets the
 * non-analyst view (bank details masked).
 */
export function visibleEntityValue(type: string, value: string, roles: readonly Role[]): string {
  if (type === 'bank_account' && !seesBankDetails(roles)) return maskBankAccount(value);
  if (isAggregateOnly(roles)) return maskOpaque(value);
  return value;
}
