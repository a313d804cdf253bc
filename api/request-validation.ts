import type { z } from 'zod';
import { ValidationError, type FieldIssue } from './errors';

/**
 * The path of the first string (key or value) that holds a NUL character, or null. PostgreSQL
 * text and jsonb cannot store U+0000, so such input is refused up front as a 400 naming where it
 * is, before any route can try to store it (found by the fuzz run: it answered 500).
 */
function firstNul(value: unknown, path: string[]): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = firstNul(value[i], [...path, String(i)]);
      if (hit) return hit;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes('\u0000')) return [...path, k.split('\u0000').join('\\u0000')];
      const hit = firstNul(v, [...path, k]);
      if (hit) return hit;
    }
  }
  return null;
}

/** Parses one part of a request (params, query or body) or throws a 400 with field paths. */
export function parsePart<T>(schema: z.ZodType<T> | undefined, value: unknown, where: 'params' | 'query' | 'body' | 'headers'): T {
  if (!schema) return undefined as T;
  const nul = firstNul(value, [where]);
  if (nul) {
    const path = nul.join('.');
    throw new ValidationError(`invalid ${where}: ${path}: must not contain the NUL character (U+0000)`, [{ path, message: 'must not contain the NUL character (U+0000)' }]);
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues: FieldIssue[] = result.error.issues.map((i) => ({
    path: [where, ...i.path.map(String)].join('.'),
    message: i.message,
  }));
  throw new ValidationError(`invalid ${where}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
}
