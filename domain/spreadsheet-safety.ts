// Spreadsheet formula injection: a cell that starts with = + - @ tab or CR is taken as a formula
// by Excel, LibreOffice and Sheets. Prefixing an apostrophe makes it text (OWASP CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** Cells of any type: only strings can carry a formula. */
export function safeCell<T>(value: T): T | string {
  return typeof value === 'string' ? neutralizeFormula(value) : value;
}
