// Generates docs/configuration.md from the configuration schema (config/config.ts): every setting
// with its variable, default, accepted values and meaning, plus the few environment variables that
// live outside the typed configuration (tool resolution, the CLI, tests and benches).
// `npm run docs:config` writes it; `--check` writes nothing and exits 1 naming the first difference
// when the committed page is stale (a test runs the same check).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { configSchema, envNameFor } from '../config/config';
import { firstDifference } from './generate-sdk-types';

export const CONFIG_REFERENCE_PATH = path.join(__dirname, '..', 'docs', 'configuration.md');

type JsonSchema = {
  type?: string | string[];
  description?: string;
  default?: unknown;
  default_text?: string;
  accepted?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  format?: string;
  properties?: Record<string, JsonSchema>;
};

/** The title of each group of settings (an object of the schema); a new group needs one here. */
const GROUP_TITLES: Record<string, string> = {
  api: 'The API',
  auth: 'Identity and access',
  db: 'Database migrations',
  postgres: 'Embedded PostgreSQL and the pool',
  temporal: 'Embedded Temporal dev server and the task queue',
  worker: 'Workers',
  blobs: 'Blob store',
  log: 'Logging',
  smtp: 'E-mail',
  chromium: 'Chromium',
  crawler: 'The investigation crawler',
  ssi: 'Investigations and the wallet engine',
  intake: 'Intakes',
  parser: 'Parser limits (intake files)',
  vault: 'The vault',
  evidence: 'Evidence signing',
  reports: 'Reports',
  review: 'Reviews',
  search: 'Search',
  alerts: 'Watchlists and alerts',
  takedown: 'Takedowns (RDAP, XARF reports, site watch)',
  classification: 'Automatic classification',
  analytics: 'Analytics, schedules and the graph',
  exports: 'Exports',
};

/** Environment variables read outside the typed configuration. */
export const OTHER_VARIABLES: ReadonlyArray<{ name: string; where: 'platform' | 'tests and benches'; default: string; meaning: string }> = [
  { name: 'TEMPORAL_CLI_DOWNLOAD_URL', where: 'platform', default: '(temporal.download)', meaning: 'base URL of a Temporal CLI release mirror (`<url>/v1.5.1/temporal_cli_1.5.1_<os>_<arch>.tar.gz` and `checksums.txt`), for the download step of the CLI resolution' },
  { name: 'MINIO_PATH', where: 'platform', default: '', meaning: 'path of the `minio` binary the tests and the blob benchmark run (else PATH, the cache, a Go build)' },
  { name: 'XDG_CACHE_HOME', where: 'platform', default: '~/.cache', meaning: 'where `fip/temporal-<version>/` and `fip/minio-<version>/` are cached' },
  { name: 'FIP_CACHE_DIR', where: 'platform', default: '~/.cache/fip', meaning: 'where `scripts/python-tools.sh` keeps the Python tools\' virtual environments' },
  { name: 'FIP_PYTHON', where: 'platform', default: 'python3', meaning: 'the Python 3.10+ interpreter `scripts/python-tools.sh` uses' },
  { name: 'FIP_TS_CACHE_DIR', where: 'platform', default: '~/.cache/fip/ts-cache', meaning: 'where `fip` and the parser processes keep their TypeScript sources transpiled once (esbuild), so a start does not transpile' },
  { name: 'FIP_TS_LOADER', where: 'platform', default: '', meaning: '`tsx`: start `fip` and the parser processes through tsx\'s hooks instead of the transpile cache' },
  { name: 'FIP_CHROMIUM_UID', where: 'platform', default: '(set by the platform)', meaning: 'internal: the user id `infra/chromium-as-user.sh` drops to before it starts the crawler\'s Chromium; set by `infra/chromium-sandbox.ts`, never by hand' },
  { name: 'FIP_CHROMIUM_GID', where: 'platform', default: '(set by the platform)', meaning: 'internal: the group id `infra/chromium-as-user.sh` drops to; set by `infra/chromium-sandbox.ts`' },
  { name: 'FIP_CHROMIUM_EXECUTABLE', where: 'platform', default: '(set by the platform)', meaning: 'internal: the Chromium `infra/chromium-as-user.sh` executes after dropping privileges; set by `infra/chromium-sandbox.ts`' },
  { name: 'FIP_CLI_LOG_LEVEL', where: 'platform', default: 'warn', meaning: 'the log level of `fip` commands' },
  { name: 'FIP_TEST_LOG_LEVEL', where: 'tests and benches', default: 'silent', meaning: 'the log level of the processes the test suite starts' },
  { name: 'FIP_FUZZ_MAX_EXAMPLES', where: 'tests and benches', default: '15', meaning: 'Schemathesis examples per operation in the fuzz test' },
  { name: 'FIP_FUZZ_SEED', where: 'tests and benches', default: '20261122', meaning: 'the fuzz test\'s seed' },
  { name: 'BENCH_QUICK', where: 'tests and benches', default: '', meaning: '`1`: smaller benchmark runs' },
  { name: 'BENCH_SEARCH_DATA_DIR', where: 'tests and benches', default: '`$TMPDIR/fip-bench-search-pg`', meaning: 'the search benchmark\'s seeded database, kept and reused' },
  { name: 'BENCH_SEARCH_RESEED', where: 'tests and benches', default: '', meaning: '`1`: seed the search benchmark\'s database again' },
  { name: 'FIP_BENCH_DIR', where: 'tests and benches', default: '`~/.cache/fip/bench/exports-pg-<rows>`', meaning: 'the exports benchmark\'s seeded database, kept and reused' },
  { name: 'WALLET_ENGINE_DIR', where: 'tests and benches', default: '', meaning: 'measure the accuracy of another copy of `domain/wallets`' },
];

interface Setting {
  variable: string;
  group: string | null;
  default: string;
  accepted: string;
  meaning: string;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function formatDefault(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.length ? `\`${value.join(',')}\`` : '';
  if (typeof value === 'object') return '';
  return `\`${String(value)}\``;
}

function accepted(s: JsonSchema): string {
  if (s.accepted) return s.accepted;
  const variants = s.anyOf ?? [s];
  if (variants.some((v) => v.type === 'boolean')) return '`true` or `false` (also `1`/`0`, `yes`/`no`)';
  if (s.enum) return s.enum.map((v) => `\`${String(v)}\``).join(', ');
  if (s.type === 'integer' || s.type === 'number') {
    const kind = s.type === 'integer' ? 'an integer' : 'a number';
    const low = s.minimum ?? (s.exclusiveMinimum !== undefined ? `> ${s.exclusiveMinimum}` : undefined);
    return low !== undefined && s.maximum !== undefined ? `${kind}, ${low} to ${s.maximum}` : kind;
  }
  if (s.format === 'uri') return 'a URL';
  if (s.format === 'email') return 'an e-mail address';
  return 'text';
}

function valueAt(config: unknown, keys: readonly string[]): unknown {
  let node = config;
  for (const k of keys) node = (node as Record<string, unknown> | undefined)?.[k];
  return node;
}

/** Every setting of the schema, in the schema's order. */
export function configSettings(): Setting[] {
  const json = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const defaults = configSchema.parse({});
  const out: Setting[] = [];
  const walk = (props: Record<string, JsonSchema>, keys: string[]) => {
    for (const [key, schema] of Object.entries(props)) {
      const at = [...keys, key];
      if (schema.type === 'object' && schema.properties) {
        walk(schema.properties, at);
        continue;
      }
      if (!schema.description) throw new Error(`config/config.ts: ${at.join('.')} has no description (.describe() or .meta({ description }))`);
      out.push({
        variable: envNameFor(at),
        group: keys[0] ?? null,
        default: schema.default_text ?? formatDefault(schema.default ?? valueAt(defaults, at)),
        accepted: accepted(schema),
        meaning: schema.description,
      });
    }
  };
  walk(json.properties ?? {}, []);
  return out;
}

function table(settings: readonly Setting[]): string[] {
  return ['| variable | default | accepted | meaning |', '|---|---|---|---|', ...settings.map((s) => `| \`${s.variable}\` | ${cell(s.default)} | ${cell(s.accepted)} | ${cell(s.meaning)} |`)];
}

/** The page's text for the current schema (deterministic). */
export function generateConfigReference(): string {
  const settings = configSettings();
  const lines = [
    '<!-- GENERATED by `npm run docs:config` (scripts/generate-config-reference.ts) from config/config.ts. Do not edit: change the schema and regenerate. -->',
    '# Configuration',
    '',
    'Parsed once at start into a typed configuration (zod, `config/config.ts`). A bad value stops',
    'start-up with a message naming the variable and the expected form; an unknown `SVC_` variable is',
    'an error too, so typos do not pass silently. A few settings have names of their own (`PORT`,',
    '`DATABASE_URL`, `TEMPORAL_*`, `ANTHROPIC_*`, `SVC_DATA_DIR`); every other one is under the `SVC_`',
    'prefix with `__` for nesting: `SVC_AUTH__TRUST_PROXY_HEADER` is `auth.trust_proxy_header`. An empty',
    'variable counts as unset.',
    '',
    '## General',
    '',
    ...table(settings.filter((s) => s.group === null)),
  ];
  const groups = [...new Set(settings.map((s) => s.group).filter((g): g is string => g !== null))];
  for (const group of groups) {
    const title = GROUP_TITLES[group];
    if (!title) throw new Error(`scripts/generate-config-reference.ts: no title for the settings group "${group}" (GROUP_TITLES)`);
    lines.push('', `## ${title}`, '', ...table(settings.filter((s) => s.group === group)));
  }
  for (const where of ['platform', 'tests and benches'] as const) {
    lines.push(
      '',
      where === 'platform' ? '## Outside the typed configuration' : '## Tests and benchmarks',
      '',
      where === 'platform'
        ? 'Read by the tool resolution, the `fip` launcher and the scripts, before any configuration is loaded.'
        : 'Read by the test suite and the benchmarks only.',
      '',
      '| variable | default | meaning |',
      '|---|---|---|',
      ...OTHER_VARIABLES.filter((v) => v.where === where).map((v) => `| \`${v.name}\` | ${cell(v.default)} | ${cell(v.meaning)} |`),
    );
  }
  return `${lines.join('\n')}\n`;
}

function main() {
  const fresh = generateConfigReference();
  if (process.argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(CONFIG_REFERENCE_PATH, 'utf8');
    } catch {
      // a missing page is a difference
    }
    const diff = firstDifference(committed, fresh);
    if (diff) {
      console.error(`${path.relative(process.cwd(), CONFIG_REFERENCE_PATH)} is stale (${diff}); run npm run docs:config`);
      process.exit(1);
    }
    return;
  }
  writeFileSync(CONFIG_REFERENCE_PATH, fresh);
  console.log(`wrote ${path.relative(process.cwd(), CONFIG_REFERENCE_PATH)}`);
}

if (require.main === module) main();
