// camelCase <-> snake_case key translation for the platform variant: keys only, never values, and
// never inside the opaque fields (free-form maps the platform stores and returns as given).

/**
 * Fields whose VALUE is passed through untouched in both directions (the key itself is still
 * translated: `response_headers` <-> `responseHeaders`). Snake-case names; matched at any depth.
 * - `scope`: a report's or scheduled report's scope (its keys are the report template's, e.g. `entity_types`).
 * - `options`: an investigation's or report's options.
 * - `attributes`, `context`: entity mentions' free-form maps.
 * - `details` (audit events, review actions), `detail` (task progress), `result` (a task's result).
 * - `tls`, `response_headers`: what a crawled page answered.
 * - `plan`, `filters`, `stix`, `stix_bundle`, `objects`: query plans, saved filters and STIX content.
 */
export const OPAQUE_FIELDS: readonly string[] = Object.freeze([
  'scope',
  'options',
  'attributes',
  'context',
  'details',
  'detail',
  'result',
  'tls',
  'response_headers',
  'plan',
  'filters',
  'stix',
  'stix_bundle',
  'objects',
]);

/**
 * Only identifiers are translated: a key that is not one (a path template such as
 * `/investigations/ssi/{scan_id}`, a header name, a MIME type, `_id`) is data and passes unchanged,
 * so the keys of a map of paths keep their path parameters' names.
 */
const SNAKE_IDENTIFIER = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
const CAMEL_IDENTIFIER = /^[a-z][a-zA-Z0-9]*$/;

/** `campaign_id` -> `campaignId`, `timeout_s` -> `timeoutS`; a key without `_x`, or that is no snake_case identifier, is unchanged. */
export function snakeToCamel(key: string): string {
  if (!SNAKE_IDENTIFIER.test(key)) return key;
  return key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** `campaignId` -> `campaign_id`; a key without capitals, or that is no camelCase identifier, is unchanged. */
export function camelToSnake(key: string): string {
  if (!CAMEL_IDENTIFIER.test(key)) return key;
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function translate(value: unknown, rename: (key: string) => string, isOpaque: (key: string) => boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => translate(v, rename, isOpaque));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[rename(key)] = isOpaque(key) ? v : translate(v, rename, isOpaque);
  }
  return out;
}

export interface KeyTranslator {
  /** Request side: camelCase keys -> snake_case. */
  toWire(value: unknown): unknown;
  /** Response side: snake_case keys -> camelCase. */
  fromWire(value: unknown): unknown;
  /** `body.campaign_id` -> `body.campaignId` (segments after an opaque field stay as they are). */
  pathFromWire(path: string): string;
  /** A query parameter name: camelCase -> snake_case (path parameters are never renamed). */
  nameToWire(name: string): string;
}

/** The platform variant's translator (snake_case on the wire). */
export function snakeCaseTranslator(extraOpaque: readonly string[] = []): KeyTranslator {
  const opaque = new Set([...OPAQUE_FIELDS, ...extraOpaque.map(camelToSnake)]);
  return {
    toWire: (value) => translate(value, camelToSnake, (key) => opaque.has(camelToSnake(key))),
    fromWire: (value) => translate(value, snakeToCamel, (key) => opaque.has(key)),
    pathFromWire: (path) => {
      let inOpaque = false;
      return path
        .split('.')
        .map((segment) => {
          if (inOpaque) return segment;
          if (opaque.has(segment)) inOpaque = true;
          return snakeToCamel(segment);
        })
        .join('.');
    },
    nameToWire: camelToSnake,
  };
}

/** The default variant's translator: the external API speaks camelCase already. */
export const identityTranslator: KeyTranslator = {
  toWire: (value) => value,
  fromWire: (value) => value,
  pathFromWire: (path) => path,
  nameToWire: (name) => name,
};
