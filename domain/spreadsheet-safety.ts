// Spreadsheet formula injection through CSV: a CSV field has no type, so Excel, LibreOffice and
// Sheets take one that starts with = + - @ tab or CR as a formula (and some readers drop a leading
// NUL before they look). Prefixing an apostrophe makes it text (OWASP CSV injection).
// XLSX needs none of this: its string cells are typed text and never a formula, so the XLSX writers
// store values unchanged (a TON address such as `-1:…` must come out exactly as it went in).
const FORMULA_START = /^[=+\-@\t\r\0]/;

/** A CSV field that no spreadsheet takes as a formula. */
export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** CSV cells of any type: only strings can carry a formula. */
export function safeCell<T>(value: T): T | string {
  return typeof value === 'string' ? neutralizeFormula(value) : value;
}
