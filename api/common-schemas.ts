// Schemas every feature's routes share: the error body, an id parameter, the standard error
// responses, text that PostgreSQL can store, an e-mail address as people are named.
import { z } from 'zod';

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: 'Error' });

export const UuidParam = z.object({ id: z.string().uuid() });

/** Responses every protected route can give, added to each route's own. */
export const standardErrorResponses = {
  400: { description: 'Invalid input: details lists each field path and problem', schema: ErrorSchema },
  401: { description: 'No identity, or an invalid one', schema: ErrorSchema },
  403: { description: 'The caller\'s roles or scopes do not allow this route', schema: ErrorSchema },
  500: { description: 'Internal error (no internals are returned)', schema: ErrorSchema },
} as const;

/**
 * Text stored in PostgreSQL, which refuses the NUL character: refused here as a 400 instead. Written
 * `\x00`, which every regex engine a client may check the documented pattern with reads (Go's RE2
 * has no `\u` escape).
 */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
export const NO_NUL = /^[^\x00]*$/;
export const storedText = (max: number) => z.string().max(max).regex(NO_NUL, 'must not contain NUL characters');

export const EmailAddressSchema = z
  .string()
  .max(254)
  .regex(/^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/, 'an e-mail address (at most 64 characters before the @)');
