// List conventions: `limit` (default 50, at most 500) and an opaque `cursor`; answers
// {"items": [...], "next_cursor": "<opaque>" | null}.
import { z } from 'zod';
import type { Keyset } from '../domain/keyset';

function decodeCursor(cursor: string): Keyset | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === 'string' && typeof parsed[1] === 'string') {
      if (!Number.isNaN(Date.parse(parsed[0])) && /^[0-9a-f-]{36}$/i.test(parsed[1])) return { ts: parsed[0], id: parsed[1] };
    }
  } catch {
    // fall through
  }
  return null;
}

export function encodeCursor(key: Keyset | null): string | null {
  return key ? Buffer.from(JSON.stringify([key.ts, key.id]), 'utf8').toString('base64url') : null;
}

/** A `cursor` query parameter decoded by `decode`: absent or empty is the first page; a cursor it cannot decode is a 400. */
export function cursorParam<K>(decode: (cursor: string) => K | null) {
  return z
    .string()
    .optional()
    .describe('next_cursor of the previous page')
    .transform((c, ctx) => {
      if (c === undefined || c === '') return undefined;
      const key = decode(c);
      if (!key) {
        ctx.addIssue({ code: 'custom', message: 'not a cursor from this API' });
        return z.NEVER;
      }
      return key;
    });
}

export const pageQueryShape = {
  limit: z.coerce.number().int().min(1).max(500).default(50).describe('Page size (1-500, default 50)'),
  cursor: cursorParam(decodeCursor),
};

export function pageSchema<T extends z.ZodType>(item: T, id: string) {
  return z.object({ items: z.array(item), next_cursor: z.string().nullable() }).meta({ id });
}
