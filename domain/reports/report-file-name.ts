/** `wallet-activity-20261201-0800Z.xlsx`: template, due (or request) time in UTC, format. */
export function reportFileName(template: string, asOf: Date, format: string): string {
  const stamp = asOf.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  return `${template}-${stamp}Z.${format}`;
}
