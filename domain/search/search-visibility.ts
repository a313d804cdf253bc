// What a caller who sees every value masked (a researcher: aggregates only) may count by. A count
// over values would read them one character at a time (`wallet:TQ5*`, then `wallet:TQ5K*`...), so
// such a caller counts by the records' other fields and whole words only: no value field (wallet,
// domain, url, assignee) and no free-text prefix.
import type { SearchExpr } from './parse-query';

/** Keyword fields whose values are entity values or people. */
export const VALUE_FIELDS: ReadonlySet<string> = new Set(['wallet', 'domain', 'url', 'assignee']);

/** The terms of `expr` a masked-values caller may not count by, as `field:` or `word*` (empty: none). */
export function valueTermsOf(expr: SearchExpr, out: string[] = []): string[] {
  switch (expr.kind) {
    case 'and':
    case 'or':
      for (const c of expr.children) valueTermsOf(c, out);
      break;
    case 'not':
      valueTermsOf(expr.child, out);
      break;
    case 'keyword':
      if (VALUE_FIELDS.has(expr.field)) out.push(`${expr.field}:`);
      break;
    case 'text':
      if (expr.mode === 'prefix') out.push(`${expr.value}*`);
      break;
    default:
      break;
  }
  return [...new Set(out)];
}
