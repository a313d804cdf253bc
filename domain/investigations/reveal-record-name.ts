// The names of after-reveal records (services/investigations/reveal-records.ts): `reveal-<n>-<step>`
// with `.png`, `.html` or `.har`, and `late-<hash>.har`; what the API accepts as a record name.
export const REVEAL_RECORD_NAME = /^(?:reveal-\d{4}-[a-z0-9-]{1,40}\.(?:png|html|har)|late-[0-9a-f]{12}\.har)$/;
