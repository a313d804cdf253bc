// The taxonomy's schemas live in analytics-schemas.ts (one schemas file per feature). This module
// only re-exports the path schema for the case routes, which still import it from here: once they
// import it from analytics-schemas.ts, delete this file.
export { TaxonomyPathSchema } from './analytics-schemas';
