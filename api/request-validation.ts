import type { z } from 'zod';
import { ValidationError, type FieldIssue } from './errors';

/** Parses one part of a request (params, query or body) or throws a 400 with field paths. */
export function parsePart<T>(schema: z.ZodType<T> | undefined, value: unknown, where: 'params' | 'query' | 'body' | 'headers'): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues: FieldIssue[] = result.error.issues.map((i) => ({
    path: [where, ...i.path.map(String)].join('.'),
    message: i.message,
  }));
  throw new ValidationError(`invalid ${where}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
}
