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
/** Egress exceptions (crawler, webhooks): names, IPs, `host:port` or CIDRs; a malformed entry stops start-up naming it. */
const allowListSetting = (description: string) =>
  z
    .string()
    .default('')
    .meta({ description, accepted: 'comma-separated `host`, `host:port` or CIDR', default_text: '(empty)' })
    .transform((value, ctx) => {
      try {
        return parseAllowList(value);
      } catch (err) {
        if (!(err instanceof AllowListError)) throw err;
        ctx.addIssue({ code: 'custom', message: err.message });
        return z.NEVER;
      }
    });

/** The configuration's schema: every setting with its default and description (docs/configuration.md is generated from it). */
export const configSchema = z.strictObject({
  port: port.default(8080).describe('API port'),
  database_url: z.string().url().optional().meta({ description: 'use this PostgreSQL (`postgres://user:pass@host:5432/db`); nothing embedded starts', default_text: '(embedded)' }),
  temporal_address: z.string().regex(/^[^\s:]+:\d+$/, 'host:port').optional().meta({ description: 'use this Temporal cluster; no dev server starts', accepted: '`host:port`', default_text: '(embedded)' }),
  temporal_namespace: z.string().min(1).default('default').describe('Temporal namespace'),
  temporal_cli_path: z.string().min(1).optional().describe('path of the `temporal` binary (skips the search: PATH, cache, download, Go build)'),
  temporal_tls_cert: z.string().min(1).optional().describe('**file path** of the client certificate (mTLS); with `TEMPORAL_TLS_KEY`, both or neither'),
  temporal_tls_key: z.string().min(1).optional().describe('**file path** of the client certificate\'s private key'),
  temporal_tls_ca: z.string().min(1).optional().describe('file path of the CA that signed the server\'s certificate (default: the system\'s CAs)'),
  temporal_tls_server_name: z.string().min(1).optional().describe('TLS server name (SNI) to expect, when it differs from the address\'s host'),
  temporal_api_key: z.string().min(1).optional().describe('Temporal Cloud API key; turns TLS on; redacted from logs'),
  anthropic_api_key: z.string().min(1).optional().describe('turns on the wallet engine\'s language-model stage (off without a key); redacted from logs'),
  anthropic_base_url: z.string().url().optional().describe('another Anthropic Messages API endpoint (the tests point it at a local fake)'),
  data_dir: z.string().min(1).default('./.data').describe('the embedded PostgreSQL (`pg/`) and Temporal (`temporal.db`), blobs (`blobs/`) unless `SVC_BLOBS__URL` says otherwise, and the vault and evidence keyrings'),
  /** The SDK variant for clients in this environment (sdk/: 'core' = this platform's API); the platform itself only validates it. */
  api_kind: z.enum(['core', 'default']).optional().meta({ description: 'the client SDK\'s variant in this environment: `core` talks to this platform\'s API (snake_case on the wire); `default` to an external API in the SDK\'s camelCase schema. The platform only validates it', default_text: '(default variant)' }),
  log: z.strictObject({ level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('pino log level') }).prefault({}),
  temporal: z
    .strictObject({
      port: port.default(7233).describe('the embedded dev server\'s gRPC port'),
      ui_port: port.default(8233).describe('the embedded dev server\'s Web UI port'),
      ip: z.string().default('127.0.0.1').describe('the address the embedded dev server listens on'),
      task_queue: z.string().min(1).default('fip-main').describe('the workers\' task queue'),
      headless: bool.default(false).describe('the embedded dev server without its Web UI'),
    })
    .prefault({}),
  postgres: z
    .strictObject({
      port: port.default(54329).describe('the embedded PostgreSQL\'s port (127.0.0.1 only)'),
      database: z.string().regex(/^[a-z_][a-z0-9_]*$/, 'a lowercase identifier').default('fip').meta({ description: 'the embedded database\'s name', accepted: 'a lowercase identifier' }),
      pool_max: int(1, 200).default(10).describe('connection pool size per process (worker slots follow it)'),
      shared_buffers_mb: int(16, 65_536).optional().meta({
        description: 'the embedded PostgreSQL\'s `shared_buffers` in MB (only when `DATABASE_URL` is unset); memory is touched as pages are read, not reserved at start',
        default_text: 'a quarter of the RAM, 128 MB to 4 GB',
      }),
    })
    .prefault({}),
  auth: z
    .strictObject({
      trust_proxy_header: bool.default(false).describe('trust the identity-aware proxy\'s identity header'),
      allow_unverified_header: bool.default(false).describe('acknowledge trusting that header without an IAP assertion on a non-loopback `SVC_API__HOST` (warned about at every start)'),
      identity_header: z.string().min(1).default('x-goog-authenticated-user-email').describe('the proxy\'s identity header'),
      identity_prefix: z
        .string()
        .regex(/^(?:none|[A-Za-z0-9._-]+:)$/, 'a prefix ending in a colon (accounts.google.com:), or none')
        .default('accounts.google.com:')
        .transform((v) => (v === 'none' ? '' : v))
        .meta({
          description: 'what the identity header\'s value must start with, exactly, before the e-mail (IAP sends `accounts.google.com:`); `none`: the bare e-mail. Another prefix, a repeated header or a comma-joined value is a 401',
          accepted: '`name:` or `none`',
        }),
      iap_audience: z.string().min(1).optional().describe('when set, `X-Goog-IAP-JWT-Assertion` must verify for this audience'),
      iap_jwks_url: z.string().url().optional().describe('the JWKS URL of the assertion\'s keys'),
      iap_public_key: z.string().min(1).optional().describe('the assertion\'s key instead: a PEM public key (RSA or EC) or a JWKS JSON'),
      iap_issuer: z.string().min(1).default('https://cloud.google.com/iap').describe('the assertion\'s expected issuer'),
      bootstrap_admins: csv.pipe(z.array(z.string().email())).default([]).meta({ description: 'e-mails that are admins from start-up, without a database record', accepted: 'comma-separated e-mails' }),
    })
    .prefault({}),
  analytics: z
    .strictObject({
      scheduled_report_check_interval_minutes: int(1, 24 * 60).default(15).describe('how often the scheduled-reports reconciliation job runs (a Temporal Schedule)'),
      dashboard_refresh_interval_minutes: int(1, 24 * 60).default(5).describe('how often the `analytics-refresh` Schedule refreshes the dashboards\' materialized views (`as_of` in their answers)'),
      campaign_suggestions_interval_minutes: int(1, 24 * 60).default(60).describe('how often the `campaign-suggestions` Schedule recomputes the campaign suggestions from the linked sites (they are also recomputed after each investigation)'),
      dashboard_refresh_after_write_seconds: int(0, 600)
        .default(15)
        .describe('after a write to cases, intakes, reviews or referrals, the dashboards refresh once this many seconds later (writes within the window share one refresh); 0: only the Schedule refreshes'),
      graph_in_memory: bool.default(true).describe('`GET /intelligence/graph` walks an in-memory copy of the relationships, kept fresh by a change feed (`services/intelligence/graph-projection.ts`); false: one SQL query per level'),
      graph_node_cache: int(0, 10_000_000).default(100_000).describe('entities whose node fields (type, value, display value, risk score) the in-memory graph keeps for its answers, fresh through the entities\' change feed; 0: read from PostgreSQL for every answer'),
    })
    .prefault({}),
  smtp: z
    .strictObject({
      url: z.string().url().optional().describe('report delivery by e-mail (`smtp://user:pass@host:587`, `smtps://…`); unset: deliveries are recorded as skipped'),
      from: z.string().min(3).default('fip-reports@localhost').describe('the sender of report e-mails'),
    })
    .prefault({}),
  ssi: z
    .strictObject({
      llm_model: z.string().min(1).default('claude-sonnet-5-5').describe('the model of the wallet engine\'s language-model stage'),
      allowlist_path: z.string().min(1).default('config/wallet_allowlist.json').describe('the wallet token-network allowlist (read by workers at start-up)'),
      max_response_body_mb: int(1, 1024)
        .default(25)
        .describe('the largest response body the crawler archives whole (WARC and HAR); a longer one is kept up to this size, marked `WARC-Truncated: length` and recorded as an `archive_truncated` agent action with its URL'),
      max_archive_mb: int(1, 100_000)
        .default(500)
        .describe('all response bodies one investigation archives together; past it bodies are recorded empty, marked truncated and recorded as `archive_truncated` actions (one site cannot fill the disk)'),
      agent_max_steps: int(1, 1000).default(30).describe('the funnel\'s LLM planner: most planner steps (one decision each) per investigation; past it the planner gives up with `budget: …`'),
      agent_max_tokens: int(1000, 10_000_000).default(200_000).describe('the funnel\'s LLM planner: most tokens (input and output, as the API counts them) per investigation'),
      agent_max_seconds: int(10, 86_400).default(300).describe('the funnel\'s LLM planner: most seconds spent waiting for the model per investigation'),
      proxy_url: z
        .string()
        .url()
        .refine((v) => /^(http|socks5h?):\/\//i.test(v), 'an http:// or socks5:// URL')
        .optional()
        .meta({
          description: 'the investigations\' browser reaches sites through this proxy (HTTP CONNECT or SOCKS5, credentials in the URL allowed); the proxy itself must pass the egress policy (a private address only through `SVC_SSI__ALLOW_PRIVATE_TARGETS`)',
          accepted: '`http://[user:pass@]host:port` or `socks5://[user:pass@]host:port`',
          default_text: '(direct)',
        }),

      persona_email_domain: z
        .string()
        .regex(/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, 'a domain name')
        .default('personas.invalid')
        .transform((v) => v.toLowerCase())
        .meta({ description: 'the domain of the funnel personas\' e-mail addresses: a domain the operator controls, whose MX delivers to `SVC_SSI__MAIL_BIND` (the default reaches nobody)', accepted: 'a domain name' }),
      mail_bind: z
        .string()
        .regex(/^$|^(?:\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, 'host:port, or empty for off')
        .optional()
        .meta({
          description: 'where the inbound SMTP receiver of persona mail listens (verification codes and links; no authentication, no TLS: keep it on loopback or behind the operator\'s MX, docs/security.md); empty: off. Unset, it tries 127.0.0.1:2525 and only warns when that port is taken; set, a failed bind stops start-up',
          accepted: '`host:port`, for example `127.0.0.1:2525`, or empty',
          default_text: '127.0.0.1:2525 (best effort)',
        }),
      mail_max_kb: int(16, 51_200).default(2048).describe('the largest persona mail the receiver accepts (SMTP SIZE; larger: 552, nothing stored)'),
      guidance_timeout_minutes: int(1, 7 * 24 * 60).default(30).describe('how long an investigation waits in `AWAITING_GUIDANCE` for a human\'s answer before the question expires'),
      verify_wait_minutes: int(1, 1440)
        .default(10)
        .describe('how long an investigation waits (durably) in VERIFY_CONTACT for the verification mail its persona was sent'),
      extract_on_transitions: bool.default(true).describe('extract wallets on every page transition of an investigation; false leaves only the final sweep (the benchmark\'s baseline)'),
      allow_private_targets: allowListSetting('crawler egress exceptions (`domain/investigations/egress-policy.ts`): a name (any address it resolves to), an IP (any port), `host:port` (that port only, `[::1]:8080`) or a CIDR; a malformed entry stops start-up naming it'),
    })
    .prefault({}),
  crawler: z
    .strictObject({
      allow_unsandboxed: bool
        .default(false)
        .describe('let the investigation crawler browse hostile pages without Chromium\'s sandbox where the sandbox cannot run (no user namespaces for unprivileged users); without it the crawler refuses, and start-up says why'),
    })
    .prefault({}),
  chromium: z
    .strictObject({ path: z.string().min(1).optional().describe('the Chromium to launch; unset: Debian\'s `/usr/bin/chromium` if present, else the `@sparticuz/chromium` npm package') })
    .prefault({}),
  api: z
    .strictObject({
      body_limit_mb: int(1, 1024).default(25).describe('largest JSON request body'),
      json_max_depth: int(2, 1000).default(64).describe('deepest nesting of arrays and objects a JSON body (and the intake form\'s `payload` part) may have; deeper is a 400 `json_too_deep` naming the limit'),
      host: z.string().min(1).default('127.0.0.1').describe('the address the API listens on (`0.0.0.0` for all interfaces; trusting the proxy header there needs an IAP audience or the acknowledgement, see docs/security.md)'),
      trust_forwarded_headers: bool.default(false).describe('trust `X-Forwarded-For` / `-Proto` / `-Host` (client IP, protocol); only behind a proxy that sets them'),
    })
    .prefault({}),
  db: z
    .strictObject({ migrate_on_start: bool.default(false).describe('`npm run api` / `npm run worker` apply pending migrations (else they refuse an old schema); `npm start` always migrates') })
    .prefault({}),
  // Worker slots; unset, they follow SVC_POSTGRES__POOL_MAX (workerConcurrency() in
  // app/platform-runtime.ts explains the defaults).
  worker: z
    .strictObject({
      max_concurrent_activities: int(1, 1000).optional().meta({ description: 'activities a worker runs at once', default_text: 'half of `SVC_POSTGRES__POOL_MAX` (at least 1)' }),
      max_concurrent_local_activities: int(1, 1000).optional().meta({ description: 'local activities (quick schedule reads) at once', default_text: 'a quarter of `SVC_POSTGRES__POOL_MAX` (at least 1)' }),
      max_concurrent_workflow_tasks: int(2, 1000).optional().meta({ description: 'workflow tasks at once (they use no database)', default_text: 'the SDK\'s default' }),
      instance: z
        .string()
        .regex(/^[A-Za-z0-9._-]{1,100}$/, 'letters, digits, dot, dash, underscore (1-100)')
        .optional()
        .meta({
          description: 'names this worker\'s browser task queue `<task queue>/browser/<instance>`; a worker restarted with the same name resumes its investigations\' browser steps',
          accepted: 'letters, digits, dot, dash, underscore (1-100)',
          default_text: 'the host name',
        }),
      metrics_bind: z
        .string()
        .regex(/^(?:\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, 'host:port, for example 127.0.0.1:9464')
        .optional()
        .meta({
          description: 'where the worker serves the Temporal SDK\'s metrics for Prometheus at `/metrics` (task latencies, slots, sticky cache, RPC latency)',
          accepted: '`host:port`, for example `127.0.0.1:9464`',
          default_text: '(off)',
        }),
    })
    .prefault({}),
  search: z
    .strictObject({
      tag_presets: csv
        .pipe(z.array(z.string().regex(/^[\p{L}\p{N}][\p{L}\p{N} ._:/-]{0,49}$/u, 'tags of 1-50 letters, digits, space . _ : / -')))
        .default(['triage', 'high-loss', 'crypto', 'romance', 'phishing'])
        .meta({ description: 'tag presets offered by `GET /reviews/search/tag-presets`', accepted: 'comma-separated tags of 1-50 letters, digits, space . _ : / -' }),
    })
    .prefault({}),
  alerts: z
    .strictObject({
      evaluate_interval_minutes: int(1, 24 * 60).default(5).describe('how often the `watchlist-alerts` Schedule evaluates every watchlist\'s rules and delivers due alerts'),
      webhook_timeout_seconds: int(1, 120).default(10).describe('longest one webhook delivery may take (connect, send, answer)'),
      webhook_max_attempts: int(1, 20).default(6).describe('attempts per alert delivery (e-mail or webhook) before it is marked `failed`'),
      retry_base_seconds: int(0, 86_400).default(60).describe('the first retry of a failed delivery waits this long; each further one twice as long (capped at a day)'),
      webhook_allow_private_targets: allowListSetting('webhook egress exceptions, in the form of `SVC_SSI__ALLOW_PRIVATE_TARGETS`: webhooks never reach loopback or private addresses unless listed here'),
    })
    .prefault({}),
  takedown: z
    .strictObject({
      rdap_bootstrap_url: z
        .url({ protocol: /^https?$/ })
        .default('https://data.iana.org/rdap/')
        .describe('where `npm run -s takedowns:refresh-rdap-bootstrap` fetches the IANA RDAP bootstrap registries (`dns.json`, `ipv4.json`, `ipv6.json`) into the pinned copy `domain/takedowns/rdap-bootstrap.json` that look-ups use'),
      rdap_base_url: z
        .url({ protocol: /^https?$/ })
        .optional()
        .meta({ description: 'send every RDAP look-up to this one server (`<base>/domain/<name>`, `<base>/ip/<address>`) instead of the registry the bootstrap names (a local RDAP mirror; the tests\' loopback server)', default_text: '(the bootstrap\'s registry)' }),
      rdap_cache_hours: int(0, 24 * 90).default(24).describe('how long an RDAP answer is reused (table `rdap_cache`, with its `fetched_at`); 0: always asked again'),
      rdap_timeout_seconds: int(1, 120).default(15).describe('longest one RDAP look-up or one site check may take'),
      allow_private_targets: allowListSetting('takedown egress exceptions (RDAP servers and the watched sites), in the form of `SVC_SSI__ALLOW_PRIVATE_TARGETS`: never loopback or private addresses unless listed here'),
      reporter_org: z.string().min(1).max(200).default('Fraud Intelligence Platform').describe('the reporter and sender organization of XARF abuse reports'),
      reporter_contact: z.email().default('abuse-reports@fip.invalid').describe('the reporter\'s contact e-mail in XARF reports (and the Reply-To of takedown mail)'),
      reporter_domain: z
        .string()
        .regex(/^([A-Za-z0-9-]+\.)+[A-Za-z]{2,}$/, 'a domain name')
        .default('fip.invalid')
        .meta({ description: 'the reporter\'s domain in XARF reports', accepted: 'a domain name' }),
      public_base_url: z.url({ protocol: /^https?$/ }).optional().meta({ description: 'the API\'s public URL: reports link the screenshot there (`<url>/investigations/ssi/<scan>/pages/<page>/screenshot`)', default_text: '(no screenshot link)' }),
      check_interval_hours: int(1, 24 * 30).default(24).describe('how often the `takedown-watch` Schedule re-checks every sent takedown\'s site'),
    })
    .prefault({}),
  classification: z
    .strictObject({
      llm: bool.default(true).describe('with an Anthropic key, the automatic classification also asks the language model (`SVC_SSI__LLM_MODEL`) where a subject sits in the scam taxonomy; false: the deterministic rules alone'),
      llm_max_tokens: int(16, 4096).default(300).describe('the largest answer of one classification request (max_tokens)'),
      llm_timeout_seconds: int(1, 300).default(20).describe('longest one classification request may take; past it the rules\' answer stands'),
      llm_max_chars: int(500, 100_000).default(6000).describe('most characters of a subject\'s text sent to the language model'),
    })
    .prefault({}),
  reports: z
    .strictObject({ row_cap: int(1, 1_000_000).default(10_000).describe('most rows per report section; a cut section says so') })
    .prefault({}),
  intake: z
    .strictObject({
      max_file_mb: int(1, 1024).default(25).describe('largest file of an intake submission (over it: 413 naming the limit, nothing stored)'),
      max_files: int(0, 1000).default(20).describe('most files per intake submission'),
      max_total_mb: int(1, 4096).default(100).describe('most file bytes per intake submission, all files together'),
      auto_investigate: bool.default(false).describe('the entities step starts an investigation of each http(s) URL an intake names (at most 10 per intake; scan ids derived from intake and URL, so a retry starts nothing twice)'),
    })
    .prefault({}),
  // Every intake file is read in a parser process of its own, killed at these bounds, so that a
  // hostile file costs its own reading and never the worker or the API (docs/security.md#parser-limits).
  parser: z
    .strictObject({
      max_text_mb: int(1, 256).default(2).describe('most text kept from one intake file, in MiB of characters; beyond it the file is `truncated` (its first part is read). Entity extraction reads at most this much of each text'),
      timeout_seconds: int(1, 3600).default(60).describe('longest a parser process may run on one file (or entity extraction on one text); then it is killed and the file marked `skipped_too_large`'),
      max_memory_mb: int(64, 65536).default(512).describe('most memory of one parser process (resident set; its JavaScript heap gets three quarters of it); over it the process is killed and the file marked `skipped_too_large`'),
      max_concurrent: int(1, 64).default(2).describe('parser processes one worker runs at once (more files wait their turn)'),
    })
    .prefault({}),
  vault: z
    .strictObject({
      master_key: z
        .string()
        .regex(/^[A-Za-z0-9+/]{43}=$/, '32 bytes in base64')
        .optional()
        .meta({
          description: 'the vault\'s master key; unset: a keyring created on first start at `<SVC_DATA_DIR>/vault/keyring.json` (mode 0600); redacted from logs',
          accepted: '32 bytes in base64',
          default_text: '(keyring)',
        }),
      previous_master_keys: csv
        .pipe(z.array(z.string().regex(/^[A-Za-z0-9+/]{43}=$/, '32 bytes in base64')))
        .default([])
        .meta({ description: 'earlier master keys that still unwrap records until `npx fip vault rotate` has re-wrapped them', accepted: 'comma-separated keys, 32 bytes in base64 each' }),
    })
    .prefault({}),
  evidence: z
    .strictObject({
      signing_key: z.string().min(1).optional().meta({
        description: 'the ECDSA P-384 key that signs evidence packages (wacz-auth 0.1.0 anonymous signatures; an Ed25519 key is refused: its public key belongs in `SVC_EVIDENCE__PREVIOUS_PUBLIC_KEYS`); unset: a keyring created on first use at `<SVC_DATA_DIR>/evidence/signing-keys.json` (mode 0600), rotated by `npx fip evidence keys rotate`; redacted from logs',
        accepted: 'a PKCS#8 PEM of a P-384 key (`openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384`), or the path of a file holding one',
        default_text: '(keyring)',
      }),
      previous_public_keys: z
        .string()
        .transform((s) => (s.includes('-----BEGIN') ? (s.match(/-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/g) ?? []) : s.split(',').map((x) => x.trim()).filter(Boolean)))
        .default([])
        .meta({
          description: 'public keys of earlier configured signing keys (P-384, or Ed25519 from before the switch), so packages they signed still verify against the platform\'s keys and are published by `GET /evidence/signing-keys`',
          accepted: 'PEMs, or comma-separated paths of PEM files',
        }),
      tsa_url: z
        .string()
        .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
        .pipe(z.array(z.url({ protocol: /^https?$/ })))
        .default([])
        .meta({
          description:
            'RFC 3161 time-stamping authorities: every evidence bundle, LEA package and dossier gets a timestamp token over the SHA-256 of its manifest from the first that answers, tried in order (none answering: the package is sealed without one, never failed); unset: packages say they carry no third-party timestamp',
          accepted: 'comma-separated http(s) URLs',
        }),
      tsa_timeout_ms: z.coerce.number().int().min(100).max(120_000).default(10_000).meta({
        description: 'how long one time-stamping authority may take to answer before the next one is tried',
        accepted: 'milliseconds, 100 to 120000',
      }),
    })
    .prefault({}),
  blobs: z
    .strictObject({
      url: z
        .string()
        .refine(isBlobUrl, 'file:///absolute/path or s3://bucket/prefix')
        .optional()
        .meta({
          description: 'where captures, intake files, reports and packages go: a local directory, or S3-compatible object storage (see docs/operations.md)',
          accepted: '`file:///absolute/path` or `s3://bucket/prefix`',
          default_text: '`file://$SVC_DATA_DIR/blobs`',
        }),
      endpoint: z.string().url().optional().meta({ description: 'S3 endpoint URL of a non-AWS store, e.g. `https://minio.internal:9000`', default_text: '(AWS)' }),
      region: z.string().min(1).default('us-east-1').describe('S3 region'),
      access_key_id: z.string().min(1).optional().meta({ description: 'S3 access key id, with the secret (both or neither)', default_text: '(the AWS SDK\'s default chain: `AWS_*` variables, `~/.aws`, instance or pod roles)' }),
      secret_access_key: z.string().min(1).optional().describe('S3 secret access key; redacted from logs'),
      force_path_style: bool.default(false).describe('path-style requests (`endpoint/bucket/key`), which MinIO and most non-AWS stores need'),
    })
    .prefault({}),
  review: z
    .strictObject({
      claim_ttl_minutes: z.coerce
        .number()
        .positive()
        .max(7 * 24 * 60)
        .default(60)
        .meta({ description: 'how long a review claim holds before its Temporal timer returns the review to the queue', accepted: 'minutes, decimals allowed (`0.05` = 3 s), at most a week' }),
    })
    .prefault({}),
  exports: z
    .strictObject({
      min_group_size: z.coerce.number().int().min(1).max(1000).default(5).describe('researchers see no aggregate figure (export group, dashboard figure, entity loss) resting on fewer distinct victims than this'),
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

export type AppConfig = z.infer<typeof configSchema>;

/** Top-level variables that are not under SVC_, mapped to their config key. */
export const NAMED_VARIABLES: Readonly<Record<string, string>> = {
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
  const named = Object.entries(NAMED_VARIABLES).find(([, v]) => v === key);
  if (named) return named[0];
  return `SVC_${pathParts.map((p) => String(p).toUpperCase()).join('__')}`;
}

function toRaw(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value === '') continue;
    if (NAMED_VARIABLES[name]) {
      raw[NAMED_VARIABLES[name]] = value;
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
  const parsed = configSchema.safeParse(toRaw(env));
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
