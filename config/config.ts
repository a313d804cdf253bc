// Typed configuration, parsed once from the environment.
// Named variables (PORT, DATABASE_URL, TEMPORAL_ADDRESS, ...) plus every other setting under the
// SVC_ prefix with `__` for nesting: SVC_AUTH__TRUST_PROXY_HEADER -> auth.trust_proxy_header.
// A bad or unknown value stops start-up with a message naming the variable and the expected form.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { AllowListError, parseAllowList } from '../domain/investigations/egress-policy';

const bool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no'])])
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const port = int(1, 65535);
const csv = z
  .string()
  .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean));

const schema = z.strictObject({
  port: port.default(8080),
  database_url: z.string().url().optional(),
  temporal_address: z.string().regex(/^[^\s:]+:\d+$/, 'host:port').optional(),
  temporal_namespace: z.string().min(1).default('default'),
  temporal_cli_path: z.string().min(1).optional(),
  temporal_tls_cert: z.string().min(1).optional(),
  temporal_tls_key: z.string().min(1).optional(),
  temporal_tls_ca: z.string().min(1).optional(),
  temporal_tls_server_name: z.string().min(1).optional(),
  temporal_api_key: z.string().min(1).optional(),
  anthropic_api_key: z.string().min(1).optional(),
  anthropic_base_url: z.string().url().optional(),
  data_dir: z.string().min(1).default('./.data'),
  /** The SDK variant for clients in this environment (sdk/: 'core' = this platform's API); the platform itself only validates it. */
  api_kind: z.enum(['core', 'default']).optional(),
  log: z.strictObject({ level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info') }).prefault({}),
  temporal: z
    .strictObject({
      port: port.default(7233),
      ui_port: port.default(8233),
      ip: z.string().default('127.0.0.1'),
      task_queue: z.string().min(1).default('fip-main'),
      headless: bool.default(false),
    })
    .prefault({}),
  postgres: z
    .strictObject({
      port: port.default(54329),
      database: z.string().regex(/^[a-z_][a-z0-9_]*$/, 'a lowercase identifier').default('fip'),
      pool_max: int(1, 200).default(10),
      // The embedded cluster's shared_buffers in MB; unset, a quarter of the RAM (128 MB to 4 GB).
      shared_buffers_mb: int(16, 65_536).optional(),
    })
    .prefault({}),
  auth: z
    .strictObject({
      trust_proxy_header: bool.default(false),
      allow_unverified_header: bool.default(false),
      identity_header: z.string().min(1).default('x-goog-authenticated-user-email'),
      iap_audience: z.string().min(1).optional(),
      iap_jwks_url: z.string().url().optional(),
      iap_public_key: z.string().min(1).optional(),
      iap_issuer: z.string().min(1).default('https://cloud.google.com/iap'),
      bootstrap_admins: csv.pipe(z.array(z.string().email())).default([]),
    })
    .prefault({}),
  analytics: z
    .strictObject({
      scheduled_report_check_interval_minutes: int(1, 24 * 60).default(15),
      // How often the analytics-refresh Schedule refreshes the dashboards' materialized views.
      dashboard_refresh_interval_minutes: int(1, 24 * 60).default(5),
      // GET /intelligence/graph walks an in-memory copy of the relationships (built on first use,
      // kept fresh through a change feed: services/intelligence/graph-projection.ts); false: SQL only.
      graph_in_memory: bool.default(true),
      // Entities whose node fields (type, value, display_value, risk score) that copy keeps for its
      // answers, fresh through the entities' change feed; 0: read from PostgreSQL on every request.
      graph_node_cache: int(0, 10_000_000).default(100_000),
    })
    .prefault({}),
  smtp: z
    .strictObject({ url: z.string().url().optional(), from: z.string().min(3).default('fip-reports@localhost') })
    .prefault({}),
  ssi: z
    .strictObject({
      llm_model: z.string().min(1).default('claude-sonnet-4-5'),
      allowlist_path: z.string().min(1).default('config/wallet_allowlist.json'),
      // false: wallets are extracted only by the final sweep (the benchmark's baseline); default true.
      extract_on_transitions: bool.default(true),
      // Crawler egress exceptions: comma-separated host, host:port or CIDR (egress-policy.ts).
      allow_private_targets: z
        .string()
        .default('')
        .transform((value, ctx) => {
          try {
            return parseAllowList(value);
          } catch (err) {
            if (!(err instanceof AllowListError)) throw err;
            ctx.addIssue({ code: 'custom', message: err.message });
            return z.NEVER;
          }
        }),
    })
    .prefault({}),
  // Unset: Debian's /usr/bin/chromium, else the @sparticuz/chromium npm package (infra/chromium.ts).
  chromium: z.strictObject({ path: z.string().min(1).optional() }).prefault({}),
  api: z
    .strictObject({
      body_limit_mb: int(1, 1024).default(25),
      host: z.string().min(1).default('127.0.0.1'),
      trust_forwarded_headers: bool.default(false),
    })
    .prefault({}),
  db: z.strictObject({ migrate_on_start: bool.default(false) }).prefault({}),
  // Worker slots; unset, they follow SVC_POSTGRES__POOL_MAX (workerConcurrency() in
  // app/platform-runtime.ts explains the defaults).
  worker: z
    .strictObject({
      max_concurrent_activities: int(1, 1000).optional(),
      max_concurrent_local_activities: int(1, 1000).optional(),
      max_concurrent_workflow_tasks: int(2, 1000).optional(),
      // Names this worker's browser task queue (<task_queue>/browser/<instance>); default the host name.
      instance: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'letters, digits, dot, dash, underscore (1-100)').optional(),
      // host:port of a Prometheus endpoint (/metrics) for the Temporal SDK's worker metrics (task
      // latencies, slots, sticky cache); off unless set.
      metrics_bind: z.string().regex(/^(?:\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, 'host:port, for example 127.0.0.1:9464').optional(),
    })
    .prefault({}),
  // Intelligence search: tag presets offered by GET /reviews/search/tag-presets (comma list).
  search: z
    .strictObject({
      tag_presets: csv.pipe(z.array(z.string().regex(/^[\p{L}\p{N}][\p{L}\p{N} ._:/-]{0,49}$/u, 'tags of 1-50 letters, digits, space . _ : / -'))).default(['triage', 'high-loss', 'crypto', 'romance', 'phishing']),
    })
    .prefault({}),
  reports: z
    .strictObject({ row_cap: int(1, 1_000_000).default(10_000) })
    .prefault({}),
  intake: z
    .strictObject({
      max_file_mb: int(1, 1024).default(25),
      max_files: int(0, 1000).default(20),
      max_total_mb: int(1, 4096).default(100),
      auto_investigate: bool.default(false),
    })
    .prefault({}),
  // Unset: a keyring under <data_dir>/vault/keyring.json, created on first start (mode 0600).
  vault: z
    .strictObject({
      master_key: z.string().regex(/^[A-Za-z0-9+/]{43}=$/, '32 bytes in base64').optional(),
      previous_master_keys: csv.pipe(z.array(z.string().regex(/^[A-Za-z0-9+/]{43}=$/, '32 bytes in base64'))).default([]),
    })
    .prefault({}),
  // Evidence signing (infra/evidence-keyring.ts). Unset signing_key: a keyring created on first use
  // under <data_dir>/evidence/signing-keys.json (mode 0600). Values: a PEM, or the path of a PEM file.
  evidence: z
    .strictObject({
      signing_key: z.string().min(1).optional(),
      previous_public_keys: z
        .string()
        .transform((s) => (s.includes('-----BEGIN') ? (s.match(/-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/g) ?? []) : s.split(',').map((x) => x.trim()).filter(Boolean)))
        .default([]),
    })
    .prefault({}),
  // Where blobs live (infra/blob-store.ts): file:///path (default file://<data_dir>/blobs) or
  // s3://bucket/prefix with the S3 settings below (unset keys: the AWS SDK's default credentials).
  blobs: z
    .strictObject({
      url: z.string().refine(isBlobUrl, 'file:///absolute/path or s3://bucket/prefix').optional(),
      endpoint: z.string().url().optional(),
      region: z.string().min(1).default('us-east-1'),
      access_key_id: z.string().min(1).optional(),
      secret_access_key: z.string().min(1).optional(),
      force_path_style: bool.default(false),
    })
    .prefault({}),
  // Minutes, decimals allowed (0.05 = 3 s, for tests); at most a week.
  review: z
    .strictObject({ claim_ttl_minutes: z.coerce.number().positive().max(7 * 24 * 60).default(60) })
    .prefault({}),
  exports: z
    .strictObject({
      // Researcher exports suppress every aggregate group with fewer entities than this.
      min_group_size: z.coerce.number().int().min(1).max(1000).default(5),
    })
    .prefault({}),
});

function isBlobUrl(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.protocol === 'file:') return (url.host === '' || url.host === 'localhost') && url.pathname.length > 1;
    return url.protocol === 's3:' && /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(url.hostname) && !url.port && !url.search && !url.username;
  } catch {
    return false;
  }
}

export type AppConfig = z.infer<typeof schema>;

/** Top-level variables that are not under SVC_, mapped to their config key. */
const NAMED: Record<string, string> = {
  PORT: 'port',
  DATABASE_URL: 'database_url',
  TEMPORAL_ADDRESS: 'temporal_address',
  TEMPORAL_NAMESPACE: 'temporal_namespace',
  TEMPORAL_CLI_PATH: 'temporal_cli_path',
  TEMPORAL_TLS_CERT: 'temporal_tls_cert',
  TEMPORAL_TLS_KEY: 'temporal_tls_key',
  TEMPORAL_TLS_CA: 'temporal_tls_ca',
  TEMPORAL_TLS_SERVER_NAME: 'temporal_tls_server_name',
  TEMPORAL_API_KEY: 'temporal_api_key',
  ANTHROPIC_API_KEY: 'anthropic_api_key',
  ANTHROPIC_BASE_URL: 'anthropic_base_url',
  SVC_DATA_DIR: 'data_dir',
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The environment variable that sets a config path, for error messages. */
export function envNameFor(pathParts: ReadonlyArray<PropertyKey>): string {
  const key = pathParts.map(String).join('.');
  const named = Object.entries(NAMED).find(([, v]) => v === key);
  if (named) return named[0];
  return `SVC_${pathParts.map((p) => String(p).toUpperCase()).join('__')}`;
}

function toRaw(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value === '') continue;
    if (NAMED[name]) {
      raw[NAMED[name]] = value;
      continue;
    }
    if (!name.startsWith('SVC_')) continue;
    const parts = name.slice(4).toLowerCase().split('__');
    let node = raw;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      if (typeof next !== 'object' || next === null) node[part] = {};
      node = node[part] as Record<string, unknown>;
    }
    node[parts[parts.length - 1]] = value;
  }
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = schema.safeParse(toRaw(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      if (issue.code === 'unrecognized_keys') {
        return issue.keys.map((k) => `${envNameFor([...issue.path, k])}: unknown setting`).join('\n');
      }
      return `${envNameFor(issue.path)}: ${issue.message}`;
    });
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  if (Boolean(config.temporal_tls_cert) !== Boolean(config.temporal_tls_key)) {
    throw new ConfigError(
      'invalid configuration:\nTEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY: set both (the client certificate and its private key) or neither',
    );
  }
  if (Boolean(config.blobs.access_key_id) !== Boolean(config.blobs.secret_access_key)) {
    throw new ConfigError('invalid configuration:\nSVC_BLOBS__ACCESS_KEY_ID and SVC_BLOBS__SECRET_ACCESS_KEY: set both or neither');
  }
  config.data_dir = path.resolve(config.data_dir);
  config.blobs.url ??= pathToFileURL(path.join(config.data_dir, 'blobs')).href;
  return config;
}
