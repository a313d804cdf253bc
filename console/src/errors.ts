// Human-readable errors: the API answers errors as {"error": {"code", "message", "details"}} (the SDK
// raises them as FipApiError); the console never shows that JSON. describeError turns one into a
// sentence that says what went wrong and where (which field, which line and column of a query).
import { ApiError } from './api';

export interface Described {
  /** One sentence for a person. */
  sentence: string;
  /** Where: a field, or a line and column of a query; null when the API did not say. */
  where: string | null;
}

interface Issue {
  path?: unknown;
  message?: unknown;
  line?: unknown;
  column?: unknown;
  expected?: unknown;
  field?: unknown;
}

/** "body.query" → "the query"; "query.min_loss" → "min loss" */
export function fieldName(path: string): string {
  const last = path.replace(/^(body|query|params|path)\./, '').replace(/\.\d+$/, '').replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[._]/g, ' ').toLowerCase();
  return last === 'query' || last === 'q' ? 'the query' : last;
}

function capital(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

function sentenceEnd(s: string): string {
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

const BY_STATUS: Record<number, string> = {
  401: 'You are not signed in.',
  403: 'Your roles do not allow this.',
  404: 'This was not found: it may have been deleted, or the link is wrong.',
  409: 'This conflicts with a change made meanwhile; reload and try again.',
  413: 'This is too large for the platform.',
  429: 'Too many requests: wait a moment and try again.',
};

export function describeError(error: unknown): Described {
  if (!(error instanceof ApiError)) {
    const m = error instanceof Error ? error.message : String(error);
    if (/fetch|network/i.test(m)) return { sentence: 'The platform could not be reached. Check the connection and try again.', where: null };
    return { sentence: sentenceEnd(capital(m)), where: null };
  }
  const issues: Issue[] = Array.isArray(error.details) ? (error.details as Issue[]) : [];
  const first = issues[0];
  if (error.status === 400 || error.status === 422) {
    if (first && typeof first.message === 'string') {
      const path = typeof first.path === 'string' ? first.path : '';
      const at = typeof first.line === 'number' && typeof first.column === 'number' ? `line ${first.line}, column ${first.column}` : null;
      const field = typeof first.field === 'string' ? first.field : null;
      const what = error.code === 'query_syntax'
        ? `The query could not be read${at ? ` at ${at}` : ''}: ${first.message}`
        : error.code === 'invalid_query' && at
          ? `The query is not valid at ${at}${field ? ` (field ${field})` : ''}: ${first.message}`
          : `${capital(path ? fieldName(path) : 'the request')} is not valid: ${first.message}`;
      const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
      return { sentence: sentenceEnd(what) + more, where: at ?? (path ? fieldName(path) : null) };
    }
    return { sentence: sentenceEnd(`The request was not accepted: ${error.message}`), where: null };
  }
  const base = BY_STATUS[error.status];
  if (base) return { sentence: base, where: null };
  if (error.status >= 500) return { sentence: 'The platform failed to answer (a server error). Try again in a moment; if it persists, tell an administrator.', where: null };
  return { sentence: sentenceEnd(capital(error.message)), where: null };
}
