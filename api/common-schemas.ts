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
