// Trusted time for evidence packages (evidence bundles, LEA packages, dossiers). The signature's
// `signed_at` is the platform's own clock; an RFC 3161 token from an outside time-stamping
// authority proves the manifest existed at the authority's time. The token's message imprint is
// the SHA-256 of datapackage.json, the same digest datapackage-digest.json signs, so the token
// vouches for every file the manifest lists. It is the whole TimeStampResp (as `openssl ts -reply`
// writes it), made after the manifest and so not listed in it: `timestamp.tsr` beside the manifest
// (LEA packages, dossiers), or, in a WACZ, whose validators refuse any file the manifest does not
// list, base64 in datapackage-digest.json under `timestamp.token`.
// What the package says about trusted time is in the signed manifest (`extras.trusted_time`): no
// authority configured ("no third-party timestamp"), or the authorities asked. A package sealed
// with authorities but without a token means none answered; that never fails a download or a
// dossier (the attempts are logged; a dossier keeps them). Nothing unsigned describes the token.
import type { AppConfig } from '../../config/config';
import { MANIFEST_PATH, sha256Hex } from '../../domain/evidence/package-manifest';
import { readTimestampFile, TIMESTAMP_TOKEN_PATH, TimestampFormatError } from '../../domain/evidence/timestamp-token';
import type { VerificationProblem } from '../../domain/evidence/verify-package';
import { verifyTimestampWithOpenssl } from '../../infra/openssl-timestamp';
import { publicTsaUrl, requestTimestamp, type TimestampOutcome } from '../../infra/timestamp-authority';

export const NO_TIMESTAMP = 'no third-party timestamp';
export const OPENSSL_TS_VERIFY = `openssl ts -verify -data ${MANIFEST_PATH} -in ${TIMESTAMP_TOKEN_PATH} -CAfile tsa-ca.pem`;
const NOT_CONFIGURED = `${NO_TIMESTAMP}: no time-stamping authority is configured; the only time is the platform's own clock (signed_at)`;
const NONE_ANSWERED = `${NO_TIMESTAMP}: none of the time-stamping authorities named in the manifest answered when it was sealed; the only time is the platform's own clock (signed_at)`;

/** What the manifest itself says about trusted time (known before the manifest is written). */
export function trustedTimeStatement(config: Pick<AppConfig, 'evidence'>): Record<string, unknown> {
  const urls = config.evidence.tsa_url;
  if (urls.length === 0) return { rfc3161: false, statement: NOT_CONFIGURED };
  return { rfc3161: true, authorities: urls.map(publicTsaUrl), imprint_of: MANIFEST_PATH, statement: `an RFC 3161 token over the SHA-256 of ${MANIFEST_PATH} from the first of these authorities that answers; none: ${NO_TIMESTAMP}` };
}

/** A record of the outcome (a dossier keeps it; logs), never part of a package. */
export function timestampStatus(outcome: TimestampOutcome, manifestSha256: string): Record<string, unknown> {
  if (outcome.status === 'stamped') {
    return {
      status: 'stamped', tsa: outcome.tsa, gen_time: outcome.tstInfo.genTime, serial: outcome.tstInfo.serial, policy: outcome.tstInfo.policy,
      message_imprint: `sha256:${manifestSha256}`, ...(outcome.attempts.length ? { failed_attempts: outcome.attempts } : {}),
    };
  }
  if (outcome.status === 'not_configured') return { status: 'not_configured', statement: NOT_CONFIGURED };
  return { status: 'unavailable', statement: NONE_ANSWERED, attempts: outcome.attempts };
}

export interface Stamp {
  outcome: TimestampOutcome;
  /** The TimeStampResp when an authority answered. */
  token: Buffer | null;
  /** timestampStatus() of the outcome. */
  status: Record<string, unknown>;
}

/** Asks the configured authorities for a token over the manifest; never throws for an authority's failure. */
export async function stampManifest(config: Pick<AppConfig, 'evidence'>, manifestBytes: Buffer): Promise<Stamp> {
  const digest = sha256Hex(manifestBytes);
  const outcome = await requestTimestamp(config.evidence.tsa_url, Buffer.from(digest, 'hex'), config.evidence.tsa_timeout_ms);
  return { outcome, token: outcome.status === 'stamped' ? outcome.response : null, status: timestampStatus(outcome, digest) };
}

/** The token for a package being written (null when none was obtained; each failed attempt is logged). */
export async function packageTimestamp(
  deps: { config: Pick<AppConfig, 'evidence'>; log?: { warn(obj: object, msg: string): void } },
  manifestBytes: Buffer,
  what: string,
): Promise<Buffer | null> {
  const stamp = await stampManifest(deps.config, manifestBytes);
  if (stamp.outcome.status === 'unavailable') deps.log?.warn({ package: what, attempts: stamp.outcome.attempts }, 'no time-stamping authority answered; the package carries no third-party timestamp');
  return stamp.token;
}

/** The token embedded in a digest file (WACZ), or why it is unreadable; null when there is none. */
export function tokenFromDigest(digestBytes: Buffer | null): { token: Buffer } | { error: string } | null {
  if (!digestBytes) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(digestBytes.toString('utf8'));
  } catch {
    return null;
  }
  const field = (parsed as { timestamp?: unknown } | null)?.timestamp;
  if (field === undefined) return null;
  const token = (field as { token?: unknown } | null)?.token;
  if (typeof token !== 'string' || Object.keys(field as object).length !== 1) return { error: 'datapackage-digest.json: `timestamp` is not {"token": "<base64>"}' };
  const bytes = Buffer.from(token, 'base64');
  if (bytes.toString('base64') !== token) return { error: 'datapackage-digest.json: `timestamp.token` is not canonical base64' };
  return { token: bytes };
}

export interface TimestampVerdict {
  /** `stamped`: a token whose imprint is the manifest's digest; `none`: the package carries no token. */
  status: 'stamped' | 'none' | 'invalid';
  gen_time: string | null;
  serial: string | null;
  /** `verified` with --tsa-ca and OpenSSL's approval; `not_checked` without a CA. */
  chain: 'verified' | 'failed' | 'not_checked';
  /** Why there is no token, from the signed manifest. */
  statement: string | null;
}

export interface TimestampCheckInput {
  manifestBytes: Buffer | null;
  /** `timestamp.tsr` when the package has one. */
  tokenFile: Buffer | null;
  digestBytes: Buffer | null;
  /** A PEM file of the authority's CA: the token's signature and chain are checked with OpenSSL. */
  tsaCaFile?: string;
}

/** Why a package has no token, from what its (signed) manifest says. */
function noTokenStatement(manifestBytes: Buffer | null): string {
  try {
    const extras = (JSON.parse(manifestBytes?.toString('utf8') ?? 'null') as { extras?: { trusted_time?: { rfc3161?: unknown } } } | null)?.extras;
    if (extras?.trusted_time?.rfc3161 === false) return NOT_CONFIGURED;
    if (extras?.trusted_time?.rfc3161 === true) return NONE_ANSWERED;
  } catch {
    // An unreadable manifest is reported by the signature check.
  }
  return `${NO_TIMESTAMP} (the package was sealed before trusted time or says nothing about it)`;
}

/** Checks a package's token: its imprint must be the manifest's SHA-256; with a CA, its signature chain too. */
export async function checkTimestamp(input: TimestampCheckInput): Promise<{ verdict: TimestampVerdict; problems: VerificationProblem[] }> {
  const problems: VerificationProblem[] = [];
  const embedded = tokenFromDigest(input.digestBytes);
  const where = input.tokenFile ? TIMESTAMP_TOKEN_PATH : 'datapackage-digest.json';
  const invalid = (code: VerificationProblem['code'], message: string) => {
    problems.push({ file: where, code, message });
    return { verdict: { status: 'invalid' as const, gen_time: null, serial: null, chain: 'not_checked' as const, statement: null }, problems };
  };
  if (input.tokenFile && embedded) return invalid('timestamp_malformed', 'the package carries two time-stamp tokens (timestamp.tsr and one in datapackage-digest.json)');
  if (embedded && 'error' in embedded) return invalid('timestamp_malformed', embedded.error);
  const token = input.tokenFile ?? embedded?.token ?? null;
  if (!token) return { verdict: { status: 'none', gen_time: null, serial: null, chain: 'not_checked', statement: noTokenStatement(input.manifestBytes) }, problems };
  let info;
  try {
    info = readTimestampFile(token);
  } catch (err) {
    return invalid('timestamp_malformed', `${where}: not an RFC 3161 time-stamp token (${err instanceof TimestampFormatError ? err.message : 'unreadable'})`);
  }
  if (!input.manifestBytes) return invalid('timestamp_mismatch', `the time-stamp token has no ${MANIFEST_PATH} to vouch for`);
  const digest = sha256Hex(input.manifestBytes);
  if (info.imprintSha256 !== digest) {
    return invalid('timestamp_mismatch', `the time-stamp token vouches for sha256:${info.imprintSha256}, but ${MANIFEST_PATH} is sha256:${digest}`);
  }
  let chain: TimestampVerdict['chain'] = 'not_checked';
  if (input.tsaCaFile) {
    const openssl = await verifyTimestampWithOpenssl(input.manifestBytes, token, input.tsaCaFile);
    chain = openssl.ok ? 'verified' : 'failed';
    if (!openssl.ok) problems.push({ file: where, code: 'timestamp_untrusted', message: `the token's signature does not verify against the given TSA CA: ${openssl.detail}` });
  }
  return { verdict: { status: chain === 'failed' ? 'invalid' : 'stamped', gen_time: info.genTime, serial: info.serial, chain, statement: null }, problems };
}

/** The trusted-time section of a package's VERIFY.txt (numbered `n`), for a package sealed with `config`. */
export function trustedTimeVerifyText(config: Pick<AppConfig, 'evidence'>, n: string): string {
  if (config.evidence.tsa_url.length === 0) {
    return `${n}. Trusted time: this package carries ${NO_TIMESTAMP}. No time-stamping authority was
   configured when it was sealed, so the only time in it is the platform's own clock (signed_at in
   datapackage-digest.json); the manifest says the same (extras.trusted_time).
`;
  }
  return `${n}. Trusted time: ${TIMESTAMP_TOKEN_PATH} is an RFC 3161 time-stamp token from an outside
   time-stamping authority over the SHA-256 of ${MANIFEST_PATH} (the digest the signature covers), so
   it proves every listed file existed at the authority's time. Get the authority's CA certificate
   from the authority (not from this package), save it as tsa-ca.pem, then in the extracted folder:

        ${OPENSSL_TS_VERIFY}

   OpenSSL answers "Verification: OK"; openssl ts -reply -in ${TIMESTAMP_TOKEN_PATH} -text shows the
   time. npx fip evidence verify <package> --tsa-ca tsa-ca.pem checks the same and prints the time.
   If there is no ${TIMESTAMP_TOKEN_PATH}, none of the authorities the manifest names
   (extras.trusted_time) answered when the package was sealed: it carries ${NO_TIMESTAMP}.

   The evidence bundle inside (a WACZ, whose readers refuse files its manifest does not list)
   carries its own token in its datapackage-digest.json; in the bundle's extracted folder:

        sed -n 's/.*"token": "\\([A-Za-z0-9+/=]*\\)".*/\\1/p' datapackage-digest.json | base64 -d > ${TIMESTAMP_TOKEN_PATH}
        ${OPENSSL_TS_VERIFY}
`;
}
