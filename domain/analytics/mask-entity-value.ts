// Bank details are masked for every role but analyst (shared/DATA-MODEL.md, "Who sees what").
import type { Role } from '../auth/roles';

/** `GB82WEST12345698765432` -> `GB82**************5432`: country and check digits, then the last four. */
export function maskBankAccount(value: string): string {
  if (value.length <= 8) return '*'.repeat(value.length);
  return `${value.slice(0, 4)}${'*'.repeat(value.length - 8)}${value.slice(-4)}`;
}

export function seesBankDetails(roles: readonly Role[]): boolean {
  return roles.includes('analyst');
}

/** The value (and display value) a caller with `roles` may see. */
export function visibleEntityValue(type: string, value: string, roles: readonly Role[]): string {
  return type === 'bank_account' && !seesBankDetails(roles) ? maskBankAccount(value.replace(/\s+/g, '')) : value;
}
