// Query text -> a validated search expression: the grammar (query-grammar.ts) gives the syntax
// tree, the field registry (search-fields.ts) checks every field, operator and value. The result
// is what the SQL builder compiles; every problem names its position.
import { findSearchField, operatorsOf, TEXT_FIELD, type SearchField, type SearchOperator } from './search-fields';
import { parseQueryText, type QueryNode } from './query-grammar';

export interface Bound {
  value: string;
  inclusive: boolean;
}

export type SearchExpr =
  | { kind: 'all' }
  | { kind: 'and'; children: SearchExpr[] }
  | { kind: 'or'; children: SearchExpr[] }
  | { kind: 'not'; child: SearchExpr }
  /** Full text: all the words, a phrase (words in order), or a word prefix. */
  | { kind: 'text'; mode: 'words' | 'phrase' | 'prefix'; value: string }
  /** A keyword field equal to a value (case-insensitive) or matching a LIKE pattern. */
  | { kind: 'keyword'; field: string; value: string; like: boolean }
  /** A number, money or date field against bounds (numbers as decimal text, dates as ISO timestamps). */
  | { kind: 'bounds'; field: string; from: Bound | null; to: Bound | null };

export interface QueryProblem {
  message: string;
  offset: number;
  line: number;
  column: number;
  expected?: string[];
  field?: string;
}

export type ParsedQuery = { ok: true; expr: SearchExpr } | { ok: false; kind: 'syntax' | 'invalid'; problems: QueryProblem[] };

const NUMBER = /^-?\d{1,18}(\.\d{1,6})?$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
/** Most leaf terms one query may hold. */
export const MAX_QUERY_TERMS = 64;

function positionOf(text: string, offset: number): { line: number; column: number } {
  const lines = text.slice(0, offset).split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/** Escapes LIKE metacharacters and turns `*` into `%`. */
export function likePattern(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
}

function validDay(v: string): boolean {
  return DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
}

function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString();
}

/** A scalar value of a number/money/date field: normalized text, or null when it is not one. */
function scalar(field: SearchField, raw: string): string | null {
  if (field.type === 'date') {
    if (validDay(raw)) return `${raw}T00:00:00.000Z`;
    if (DATETIME.test(raw) && !Number.isNaN(Date.parse(raw))) return new Date(raw).toISOString();
    return null;
  }
  return NUMBER.test(raw) ? raw : null;
}

const expectedForm = (field: SearchField) => (field.type === 'date' ? 'a date (YYYY-MM-DD) or an ISO 8601 time' : 'a number (e.g. 5000 or 1250.50)');

export function parseSearchQuery(text: string): ParsedQuery {
  const parsed = parseQueryText(text);
  if (!parsed.ok) {
    const { location, expected, message } = parsed.error;
    return { ok: false, kind: 'syntax', problems: [{ message: `syntax error at line ${location.line}, column ${location.column}: ${message}`, offset: location.offset, line: location.line, column: location.column, expected }] };
  }
  const problems: QueryProblem[] = [];
  let leaves = 0;
  const problem = (offset: number, message: string, field?: string) => problems.push({ message, offset, ...positionOf(text, offset), ...(field ? { field } : {}) });

  const fieldFor = (name: string, offset: number, op: SearchOperator): SearchField | null => {
    const field = findSearchField(name);
    if (!field) {
      problem(offset, `unknown field "${name}" (GET /reviews/search/schema lists the fields)`, name);
      return null;
    }
    if (!operatorsOf(field.type).includes(op)) {
      problem(offset, `field "${field.name}" (${field.type}) does not take ${op === 'range' ? 'a range' : op === 'wildcard' ? 'wildcards' : op === 'phrase' ? 'a phrase' : `the operator ${op}`}; it takes ${operatorsOf(field.type).join(' ')}`, field.name);
      return null;
    }
    return field;
  };

  const textTerm = (value: string, phrase: boolean, wildcard: boolean, offset: number): SearchExpr | null => {
    if (phrase) {
      if (!/[\p{L}\p{N}]/u.test(value)) {
        problem(offset, 'the phrase has no words');
        return null;
      }
      return { kind: 'text', mode: 'phrase', value };
    }
    if (wildcard) {
      const stem = value.slice(0, -1);
      if (!value.endsWith('*') || stem.includes('*') || !/^[\p{L}\p{N}]+$/u.test(stem)) {
        problem(offset, `free-text wildcards are a word followed by * (like invest*); "${value}" is not: use a field such as wallet:, domain: or url: for substring matches`);
        return null;
      }
      return { kind: 'text', mode: 'prefix', value: stem };
    }
    if (!/[\p{L}\p{N}]/u.test(value)) {
      problem(offset, `"${value}" has no letters or digits to search for`);
      return null;
    }
    return { kind: 'text', mode: 'words', value };
  };

  const walk = (node: QueryNode): SearchExpr | null => {
    switch (node.kind) {
      case 'all':
        return { kind: 'all' };
      case 'and':
      case 'or': {
        const children = node.children.map(walk);
        return children.every((c): c is SearchExpr => c !== null) ? { kind: node.kind, children } : null;
      }
      case 'not': {
        const child = walk(node.child);
        return child ? { kind: 'not', child } : null;
      }
      case 'term': {
        leaves++;
        if (node.field === null || node.field.toLowerCase() === TEXT_FIELD) {
          if (node.field !== null && !findSearchField(TEXT_FIELD)) return null;
          return textTerm(node.value, node.phrase, node.wildcard, node.offset);
        }
        const field = fieldFor(node.field, node.offset, node.wildcard ? 'wildcard' : node.phrase ? 'phrase' : ':');
        if (!field) return null;
        if (field.type === 'keyword') {
          if (node.wildcard && !node.value.replace(/\*/g, '')) {
            problem(node.offset, `"${field.name}:${node.value}" matches everything: give some characters`, field.name);
            return null;
          }
          if (field.values && !node.wildcard && !field.values.includes(node.value.toLowerCase())) {
            problem(node.offset, `field "${field.name}" takes one of ${field.values.join(', ')}`, field.name);
            return null;
          }
          return node.wildcard ? { kind: 'keyword', field: field.name, value: likePattern(node.value), like: true } : { kind: 'keyword', field: field.name, value: node.value, like: false };
        }
        // number, money, date: `field:value` is equality (a bare date: that whole UTC day)
        const v = scalar(field, node.value);
        if (v === null) {
          problem(node.offset, `field "${field.name}" takes ${expectedForm(field)}, not "${node.value}"`, field.name);
          return null;
        }
        if (field.type === 'date' && validDay(node.value)) return { kind: 'bounds', field: field.name, from: { value: v, inclusive: true }, to: { value: nextDay(node.value), inclusive: false } };
        return { kind: 'bounds', field: field.name, from: { value: v, inclusive: true }, to: { value: v, inclusive: true } };
      }
      case 'compare': {
        leaves++;
        const field = fieldFor(node.field, node.offset, node.op);
        if (!field) return null;
        const v = scalar(field, node.value);
        if (v === null) {
          problem(node.offset, `field "${field.name}" takes ${expectedForm(field)}, not "${node.value}"`, field.name);
          return null;
        }
        const day = field.type === 'date' && validDay(node.value);
        switch (node.op) {
          case '>':
            return { kind: 'bounds', field: field.name, from: day ? { value: nextDay(node.value), inclusive: true } : { value: v, inclusive: false }, to: null };
          case '>=':
            return { kind: 'bounds', field: field.name, from: { value: v, inclusive: true }, to: null };
          case '<':
            return { kind: 'bounds', field: field.name, from: null, to: { value: v, inclusive: false } };
          case '<=':
            return { kind: 'bounds', field: field.name, from: null, to: day ? { value: nextDay(node.value), inclusive: false } : { value: v, inclusive: true } };
          default:
            return day
              ? { kind: 'bounds', field: field.name, from: { value: v, inclusive: true }, to: { value: nextDay(node.value), inclusive: false } }
              : { kind: 'bounds', field: field.name, from: { value: v, inclusive: true }, to: { value: v, inclusive: true } };
        }
      }
      case 'range': {
        leaves++;
        const field = fieldFor(node.field, node.offset, 'range');
        if (!field) return null;
        const from = node.from === null ? null : scalar(field, node.from);
        const to = node.to === null ? null : scalar(field, node.to);
        if ((node.from !== null && from === null) || (node.to !== null && to === null)) {
          problem(node.offset, `range bounds of field "${field.name}" are ${expectedForm(field)} or *`, field.name);
          return null;
        }
        const toDay = node.to !== null && field.type === 'date' && validDay(node.to);
        return {
          kind: 'bounds',
          field: field.name,
          from: from === null ? null : { value: from, inclusive: true },
          to: to === null ? null : toDay ? { value: nextDay(node.to as string), inclusive: false } : { value: to, inclusive: true },
        };
      }
    }
  };

  const expr = walk(parsed.ast);
  if (leaves > MAX_QUERY_TERMS) problem(0, `the query has ${leaves} terms; at most ${MAX_QUERY_TERMS} are allowed`);
  if (!expr || problems.length > 0) return { ok: false, kind: 'invalid', problems };
  return { ok: true, expr };
}

/** Field names a query uses outside NOT (what the records it finds matched on). */
export function positiveFields(expr: SearchExpr, negated = false, out = new Set<string>()): Set<string> {
  switch (expr.kind) {
    case 'and':
    case 'or':
      for (const c of expr.children) positiveFields(c, negated, out);
      break;
    case 'not':
      positiveFields(expr.child, !negated, out);
      break;
    case 'text':
      if (!negated) out.add(TEXT_FIELD);
      break;
    case 'keyword':
    case 'bounds':
      if (!negated) out.add(expr.field);
      break;
    default:
      break;
  }
  return out;
}
