// Shapes and formatting shared by the dashboards and the taxonomy browser (keys as the SDK
// camelCases them).
export interface Amount {
  currency: string;
  /** An exact decimal string (numeric(20,2)); never parsed into a float for display. */
  amount: string;
}

export interface KpiCard {
  id: string;
  label: string;
  value: number | null;
  amounts?: Amount[];
}

export interface LossItem {
  taxonomy: string;
  label: string;
  depth: number;
  parent: string | null;
  cases: number | null;
  losses: Amount[];
}

/** "EUR 12,345.60": thousands grouped on the decimal string itself (exact, no float). */
export function formatMoney(a: Amount): string {
  const [int, frac] = a.amount.split('.');
  const neg = int.startsWith('-');
  const digits = neg ? int.slice(1) : int;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${a.currency} ${neg ? '-' : ''}${grouped}${frac !== undefined ? `.${frac}` : ''}`;
}
