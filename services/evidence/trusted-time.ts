// Trusted time for evidence packages (evidence bundles, LEA packages, dossiers). The signature's
// `signed_at` is the platform's own clock; an RFC 3161 token from an outside time-stamping
// authority proves the manifest existed at the authority's time. The token's message imprint is
// the SHA-256 of datapackage.json, the same digest datapackage-digest.json signs, so the token
// vouches for every file the manifest lists; it sits beside the manifest as `timestamp.tsr` (the
// whole TimeStampResp, as `openssl ts -reply` writes it), with `timestamp.json` saying in words
// what the package carries: the token, or "no third-party timestamp" and why. Neither file is
// listed in the manifest (both are made after it); the token is checked on its own.
// An authority that does not answer never fails a download or a dossier: the package says so.
import type { AppConfig } from '../../config/config';
import { MANIFEST_PATH, sha256Hex } from '../../domain/evidence/package-manifest';
import { readTimestampFile, TIMESTAMP_STATUS_PATH, TIMESTAMP_TOKEN_PATH, TimestampFormatError } from '../../domain/evidence/timestamp-token';
import type { VerificationProblem } from '../../domain/evidence/verify-package';
import { verifyTimestampWithOpenssl } from '../../infra/openssl-timestamp';
import { publicTsaUrl, requestTimestamp, type TimestampOutcome } from '../../infra/timestamp-authority';

export const NO_TIMESTAMP = 'no third-party timestamp';
export const OPENSSL_TS_VERIFY = `openssl ts -verify -data ${MANIFEST_PATH} -in ${TIMESTAMP_TOKEN_PATH} -CAfile tsa-ca.pem`;

/** What the manifest itself says about trusted time (known before the manifest is written). */
export function trustedTimeStatement(config: Pick<AppConfig, 'evidence'>): Record<string, unknown> {
  const urls = config.evidence.tsa_url;
  if (urls.length === 0) {
    return { rfc3161: false, statement: `${NO_TIMESTAMP}: no time-stamping authority is configured; the only time is the platform's own clock (signed_at)` };
  }
  return { rfc3161: true, authorities: urls.map(publicTsaUrl), token: TIMESTAMP_TOKEN_PATH, imprint_of: MANIFEST_PATH, status: TIMESTAMP_STATUS_PATH };
}

/** The status record written beside the manifest. */
export function timestampStatus(outcome: TimestampOutcome, manifestSha256: string): Record<string, unknown> {
  if (outcome.status === 'stamped') {
    return {
      status: 'stamped', tsa: outcome.tsa, gen_time: outcome.tstInfo.genTime, serial: outcome.tstInfo.serial, policy: outcome.tstInfo.policy,
      message_imprint: `sha256:${manifestSha256}`, imprint_of: MANIFEST_PATH, token: TIMESTAMP_TOKEN_PATH, verify_with: OPENSSL_TS_VERIFY,
      ...(outcome.attempts.length ? { failed_attempts: outcome.attempts } : {}),
    };
  }
  if (outcome.status === 'not_configured') {
    return { status: 'not_configured', statement: `${NO_TIMESTAMP}: no time-stamping authority is configured; the only time is the platform's own clock (signed_at)` };
  }
  return { status: 'unavailable', statement: `${NO_TIMESTAMP}: no time-stamping authority answered; the only time is the platform's own clock (signed_at)`, attempts: outcome.attempts };
}

export interface StampedFiles {
  outcome: TimestampOutcome;
  /** `timestamp.tsr` (when stamped) and `timestamp.json`, to put beside the manifest. */
  files: Array<{ path: string; body: Buffer }>;
}

/** Asks the configured authorities for a token over the manifest; never throws for an authority's failure. */
export async function stampManifest(config: Pick<AppConfig, 'evidence'>, manifestBytes: Buffer): Promise<StampedFiles> {
  const digest = sha256Hex(manifestBytes);
  const outcome = await requestTimestamp(config.evidence.tsa_url, Buffer.from(digest, 'hex'), config.evidence.tsa_timeout_ms);
  const status = Buffer.from(`${JSON.stringify(timestampStatus(outcome, digest), null, 2)}\n`, 'utf8');
  const files = outcome.status === 'stamped' ? [{ path: TIMESTAMP_TOKEN_PATH, body: outcome.response }] : [];
  return { outcome, files: [...files, { path: TIMESTAMP_STATUS_PATH, body: status }] };
}

/** Whether a package path is one of the trusted-time files (beside the manifest, not listed in it). */
export const isTimestampPath = (p: string) => p === TIMESTAMP_TOKEN_PATH || p === TIMESTAMP_STATUS_PATH;

export interface TimestampVerdict {
  /** `stamped`: a token whose imprint is the manifest's digest; `none`: the package carries no token. */
  status: 'stamped' | 'none' | 'invalid';
  gen_time: string | null;
  serial: string | null;
  /** `verified` with --tsa-ca and OpenSSL's approval; `not_checked` without a CA. */
  chain: 'verified' | 'failed' | 'not_checked';
  /** What timestamp.json says when there is no token. */
  statement: string | null;
}

export interface TimestampCheckInput {
  manifestBytes: Buffer | null;
  token: Buffer | null;
  status: Buffer | null;
  /** A PEM file of the authority's CA: the token's signature and chain are checked with OpenSSL. */
  tsaCaFile?: string;
}

/** Checks a package's token: its imprint must be the manifest's SHA-256; with a CA, its signature chain too. */
export async function checkTimestamp(input: TimestampCheckInput): Promise<{ verdict: TimestampVerdict; problems: VerificationProblem[] }> {
  const problems: VerificationProblem[] = [];
  let statement: string | null = null;
  if (input.status) {
    try {
      const parsed = JSON.parse(input.status.toString('utf8')) as { statement?: unknown };
      statement = typeof parsed.statement === 'string' ? parsed.statement : null;
    } catch {
      statement = null;
    }
  }
  if (!input.token) {
    return { verdict: { status: 'none', gen_time: null, serial: null, chain: 'not_checked', statement: statement ?? `${NO_TIMESTAMP} in this package` }, problems };
  }
  const invalid = (code: VerificationProblem['code'], message: string) => {
    problems.push({ file: TIMESTAMP_TOKEN_PATH, code, message });
    return { verdict: { status: 'invalid' as const, gen_time: null, serial: null, chain: 'not_checked' as const, statement }, problems };
  };
  let info;
  try {
    info = readTimestampFile(input.token);
  } catch (err) {
    return invalid('timestamp_malformed', `${TIMESTAMP_TOKEN_PATH} is not an RFC 3161 time-stamp token (${err instanceof TimestampFormatError ? err.message : 'unreadable'})`);
  }
  if (!input.manifestBytes) return invalid('timestamp_mismatch', `${TIMESTAMP_TOKEN_PATH} has no ${MANIFEST_PATH} to vouch for`);
  const digest = sha256Hex(input.manifestBytes);
  if (info.imprintSha256 !== digest) {
    return invalid('timestamp_mismatch', `${TIMESTAMP_TOKEN_PATH} vouches for sha256:${info.imprintSha256}, but ${MANIFEST_PATH} is sha256:${digest}`);
  }
  let chain: TimestampVerdict['chain'] = 'not_checked';
  if (input.tsaCaFile) {
    const openssl = await verifyTimestampWithOpenssl(input.manifestBytes, input.token, input.tsaCaFile);
    chain = openssl.ok ? 'verified' : 'failed';
    if (!openssl.ok) problems.push({ file: TIMESTAMP_TOKEN_PATH, code: 'timestamp_untrusted', message: `the token's signature does not verify against the given TSA CA: ${openssl.detail}` });
  }
  return { verdict: { status: chain === 'failed' ? 'invalid' : 'stamped', gen_time: info.genTime, serial: info.serial, chain, statement: null }, problems };
}

/** The trusted-time section of a package's VERIFY.txt (numbered `n`), for a package sealed with `config`. */
export function trustedTimeVerifyText(config: Pick<AppConfig, 'evidence'>, n: string): string {
  if (config.evidence.tsa_url.length === 0) {
    return `${n}. Trusted time: this package carries ${NO_TIMESTAMP}. No time-stamping authority was
   configured when it was sealed, so the only time in it is the platform's own clock (signed_at in
   datapackage-digest.json); ${TIMESTAMP_STATUS_PATH} says the same.
`;
  }
  return `${n}. Trusted time: ${TIMESTAMP_TOKEN_PATH} is an RFC 3161 time-stamp token from an outside
   time-stamping authority over the SHA-256 of ${MANIFEST_PATH} (the digest the signature covers), so
   it proves every listed file existed at the authority's time. Get the authority's CA certificate
   from the authority (not from this package), save it as tsa-ca.pem, then in the extracted folder:

        ${OPENSSL_TS_VERIFY}

   OpenSSL answers "Verification: OK"; openssl ts -reply -in ${TIMESTAMP_TOKEN_PATH} -text shows the
   time. npx fip evidence verify <package> --tsa-ca tsa-ca.pem checks the same and prints the time.
   If no authority answered when the package was sealed there is no ${TIMESTAMP_TOKEN_PATH}, and
   ${TIMESTAMP_STATUS_PATH} says so (${NO_TIMESTAMP}) and names each authority tried.
`;
}
