// A position in a list paged newest first on (timestamp, id), and one page of such a list. The
// timestamp is PostgreSQL's text with its microseconds (a JS Date would drop them and skip rows
// that share a millisecond). The API turns a Keyset into an opaque cursor (api/pagination.ts).

export interface Keyset {
  ts: string;
  id: string;
}

export interface KeysetPage<T> {
  rows: T[];
  next: Keyset | null;
}
