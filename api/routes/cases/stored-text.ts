// Text fields stored in PostgreSQL, used by the case, review, campaign and search schemas. A file of
// its own so that review-schemas.ts can use it while case-schemas.ts uses the review schemas (the
// two schema files would otherwise import each other).
import { z } from 'zod';

/** Text stored in PostgreSQL, which refuses the NUL character: refused here as a 400 instead. */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
export const NO_NUL = /^[^\u0000]*$/;
export const storedText = (max: number) => z.string().max(max).regex(NO_NUL, 'must not contain NUL characters');
