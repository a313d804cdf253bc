// Who sees which values in clear (docs/security.md, "Who sees what"): the one place that decides it.
// Every answer that can carry a masked kind passes through the policy of its caller, whatever the
// route: details, lists, free text (intake details, notes, case descriptions, record text), search
// titles and snippets, the graph, dashboards, exports and feeds.
//
// - Bank details (`bank_account` entities, IBANs and account numbers in free text) are masked for
//   every caller but an analyst (service keys included): `DE89 **** **** **** 3000`.
// - Researchers (aggregate-only) additionally get every entity value masked (`d1****le`).
//
// maskingFor(caller) is the entry point; the shapes of the masks are in bank-details.ts.
import type { Principal, Role } from '../accounts/roles';
import { maskBankAccount, maskBankDetailsInSnippet, maskBankDetailsInText } from './bank-details';

export { FRAGMENT_DELIMITER, HIGHLIGHT_END, HIGHLIGHT_START, maskBankAccount, maskBankDetailsInSnippet, maskBankDetailsInText } from './bank-details';

/** The kinds of value some callers see only masked. */
export const MASKED_KINDS = ['bank_account'] as const;
export type MaskedKind = (typeof MASKED_KINDS)[number];

/** Who sees each masked kind in clear (no other role, and no service key). */
const CLEAR_FOR: Record<MaskedKind, readonly Role[]> = { bank_account: ['analyst'] };

/** A caller: a principal (null for nobody), or the roles of one (empty: a service key). */
export type Viewer = Principal | null | readonly Role[];

export interface MaskingPolicy {
  /** Whether this caller sees values of `kind` in clear. */
  sees(kind: MaskedKind): boolean;
  /** Researchers without a role that sees more: every value masked, aggregates only. */
  readonly aggregateOnly: boolean;
  /** An entity's value (or display value) as this caller may see it. */
  value(type: string, value: string): string;
  /** An entity's attributes: none of a masked one (its bank name, holder...), none for researchers. */
  attributes(type: string, attributes: Record<string, unknown>): Record<string, unknown>;
  /** An entity-like record (`type` and `value`, maybe `display_value`, `label`, `attributes`) as this caller may see it. */
  entity<T extends { type: string; value: string }>(e: T): T;
  /** Complete free text (a description, a note, an intake's details). */
  text(text: string): string;
  text(text: string | null): string | null;
  /** Text that may have been cut (a snippet, a preview): bank-detail runs at its cut edges are hidden whole. */
  snippet(text: string): string;
  /** Any JSON value (notes' details, stored documents): every string as free text, every entity-like object as an entity. */
  json<T>(value: T): T;
}

function rolesOf(viewer: Viewer): readonly Role[] {
  if (viewer === null) return [];
  if (Array.isArray(viewer)) return viewer as readonly Role[];
  const p = viewer as Principal;
  return p.kind === 'user' ? p.roles : [];
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

const isMaskedKind = (type: string): type is MaskedKind => (MASKED_KINDS as readonly string[]).includes(type);

/** The masking policy of one caller: the single entry point of every answer's masking. */
export function maskingFor(viewer: Viewer): MaskingPolicy {
  const roles = rolesOf(viewer);
  const clear = new Set(MASKED_KINDS.filter((k) => CLEAR_FOR[k].some((r) => roles.includes(r))));
  const aggregateOnly = roles.includes('researcher') && !roles.some((r) => r === 'admin' || r === 'analyst' || r === 'reviewer');
  const bankClear = clear.has('bank_account');
  const value = (type: string, v: string): string => {
    if (isMaskedKind(type) && !clear.has(type)) return maskBankAccount(v);
    if (aggregateOnly) return maskOpaque(v);
    return v;
  };
  const text = ((t: string | null) => (t === null || bankClear ? t : maskBankDetailsInText(t))) as MaskingPolicy['text'];
  const attributes = (type: string, attrs: Record<string, unknown>) => (aggregateOnly || (isMaskedKind(type) && !clear.has(type)) ? {} : attrs);
  const entity = <T extends { type: string; value: string }>(e: T): T => {
    const out: Record<string, unknown> = { ...e, value: value(e.type, e.value) };
    const rec = e as Record<string, unknown>;
    for (const k of ['display_value', 'label', 'title'] as const) {
      if (typeof rec[k] === 'string') out[k] = value(e.type, rec[k]);
    }
    if (rec.attributes && typeof rec.attributes === 'object') out.attributes = attributes(e.type, rec.attributes as Record<string, unknown>);
    return out as T;
  };
  const json = <T>(v: T): T => {
    if (bankClear && !aggregateOnly) return v;
    if (typeof v === 'string') return text(v) as T;
    if (Array.isArray(v)) return v.map((x) => json(x)) as T;
    if (v && typeof v === 'object' && !(v instanceof Date) && !ArrayBuffer.isView(v)) {
      const o = v as Record<string, unknown>;
      const walked = Object.fromEntries(Object.entries(o).map(([k, x]) => [k, json(x)]));
      return (typeof o.type === 'string' && typeof o.value === 'string' ? entity({ ...walked, type: o.type, value: o.value }) : walked) as T;
    }
    return v;
  };
  return {
    sees: (kind) => clear.has(kind),
    aggregateOnly,
    value,
    attributes,
    entity,
    text,
    snippet: (t) => (bankClear ? t : maskBankDetailsInSnippet(t)),
    json,
  };
}
