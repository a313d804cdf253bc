// The evidence bundle of a scan (GET /investigations/ssi/{scan_id}/evidence-bundle): a WACZ 1.1.1
// ZIP streamed with archiver, signed with the evidence key (domain/evidence/package-manifest.ts):
//   archive/data.warc.gz   the HTTP exchanges as WARC records (rebuilt from the captured HARs, warcio), and
//                          each page's and each reveal's screenshot and DOM snapshot as resource records
//   indexes/index.cdxj     its CDXJ index           pages/pages.jsonl   the captured pages
//   screenshots/, dom/, har/   each page's captured artifacts, byte for byte as stored at capture
//   reveals/               the after-reveal records (reveal-<n>-<step>.png/.html/.har, late-*.har), byte for byte
//   mail/                  the mail its personas received (mail-<n>.eml, oldest first), byte for byte as received
//   findings/findings.json every wallet and PII finding with the WARC record that holds it (./finding-provenance.ts)
//   provenance/provenance.json capture times (UTC), egress address, user agent, browser, platform,
//                          TLS and server address per origin, blocked requests
//   custody/custody.jsonl  the chain of custody up to and including this handling
//   datapackage.json + datapackage-digest.json   every file's hash, signed
//   (datapackage-digest.json also carries the RFC 3161 token over the manifest when an authority answered: ./trusted-time.ts)
// Everything but the custody log and what signs it is derived from the capture alone, and every ZIP
// entry is dated at the capture time, so two downloads carry identical bytes for every captured file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Knex } from 'knex';
import type { AppConfig } from '../../config/config';
import packageJson from '../../package.json';
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import { appendCustodyEntry, listCustodyEntries } from '../../db/repositories/evidence/evidence-custody-repository';
import { listPersonaMail } from '../../db/repositories/investigations/persona-mail-repository';
import { findInvestigation, listBlockedRequests, listPages, listRevealRecords, type InvestigationRow, type PageRow, type RevealRecordRow } from '../../db/repositories/investigations/investigation-repository';
import { WACZ_VERSION, prefixedSha256 } from '../../domain/evidence/package-manifest';
import { readBlob, type BlobStore } from '../../infra/blob-store';
import { evidenceKeyringFor } from '../../infra/evidence-keyring';
import type { Logger } from '../../infra/logger';
import { captureRecordUri, cdxjIndex, deterministicUuid, writeScanWarc, type HarLog } from './evidence-warc';
import { findingsJson, pageRecordName } from './finding-provenance';
import { signedZipStream, type WrittenFile, type ZipEntrySource } from '../../infra/signed-zip-writer';
import { ConflictError, NotFoundError } from '../errors';
import { packageTimestamp, trustedTimeStatement } from './trusted-time';

export interface EvidenceDeps {
  knex: Knex;
  blobs: BlobStore;
  config: AppConfig;
  /** Where a package sealed without trusted time (no authority answered) logs each attempt. */
  log?: Pick<Logger, 'warn'>;
}

export interface Handling {
  actor: string;
  /** `download` (a user fetched it) or `export` (it went into another package). */
  action: 'download' | 'export';
  /** What was handed out: `evidence-bundle`, `lea-package`, `report.pdf`. */
  artifact: string;
  purpose: string;
}

const ENDED = new Set(['completed', 'failed', 'cancelled']);

/** Whether a scan has ended (its evidence is final and can be bundled). */
export function isEnded(status: string): boolean {
  return ENDED.has(status);
}

export const EVIDENCE_SOFTWARE = `${packageJson.name} ${packageJson.version}`;

/** The scan, if it exists (else 404) and has ended (else 409: queued/running scans have no evidence yet). */
export async function endedScan(knex: Knex, scanId: string): Promise<InvestigationRow> {
  const inv = await findInvestigation(knex, scanId);
  if (!inv) throw new NotFoundError(`no investigation ${scanId}`);
  if (!ENDED.has(inv.status)) throw new ConflictError(`investigation ${scanId} is ${inv.status}; its evidence is available once it has ended`);
  return inv;
}

export function captureTime(inv: InvestigationRow, pages: readonly PageRow[]): Date {
  return inv.completed_at ?? pages.at(-1)?.captured_at ?? inv.started_at ?? inv.created_at;
}

const pad = (n: number) => String(n).padStart(4, '0');

/** Package paths of a page's captured artifacts, with the hash recorded at capture. */
export function pageArtifacts(p: PageRow): Array<{ path: string; key: string; sha256: string; kind: 'screenshot' | 'dom' | 'har' }> {
  return [
    { path: `screenshots/page-${pad(p.seq)}.png`, key: p.screenshot_key, sha256: p.screenshot_sha256, kind: 'screenshot' },
    { path: `dom/page-${pad(p.seq)}.html`, key: p.dom_key, sha256: p.dom_sha256, kind: 'dom' },
    { path: `har/page-${pad(p.seq)}.har`, key: p.har_key, sha256: p.har_sha256, kind: 'har' },
  ];
}

/** Package path of a scan's n-th persona mail (1-based, oldest first). */
export function mailPath(seq: number): string {
  return `mail/mail-${String(seq).padStart(4, '0')}.eml`;
}

/** Package path of an after-reveal record. */
export function revealPath(r: Pick<RevealRecordRow, 'name'>): string {
  return `reveals/${r.name}`;
}

/** Writes the capture's own custody entry once (at the capture time, by the crawler). */
export async function ensureCaptureCustody(knex: Knex, inv: InvestigationRow, pages: readonly PageRow[]): Promise<void> {
  const hashes: Record<string, string> = {};
  for (const p of pages) for (const a of pageArtifacts(p)) hashes[a.path] = prefixedSha256(a.sha256);
  for (const r of await listRevealRecords(knex, inv.scan_id)) hashes[revealPath(r)] = prefixedSha256(r.sha256);
  (await listPersonaMail(knex, inv.scan_id)).forEach((m, i) => (hashes[mailPath(i + 1)] = prefixedSha256(m.sha256)));
  await appendCustodyEntry(knex, {
    subjectKind: 'investigation', subjectId: inv.scan_id, entryKey: 'capture', at: captureTime(inv, pages),
    actor: `crawler (workflow ssi-${inv.scan_id}, requested by ${inv.requested_by})`, action: 'capture', artifact: 'captured pages',
    purpose: 'investigation', hashes, verified: true, details: { target_url: inv.url, pages: pages.length },
  });
}

/** The custody log as JSON lines (oldest first). */
export async function custodyLog(knex: Knex, scanId: string): Promise<Buffer> {
  const rows = await listCustodyEntries(knex, 'investigation', scanId);
  return Buffer.from(
    rows.map((r) => `${JSON.stringify({ seq: Number(r.id), at: r.at.toISOString(), actor: r.actor, action: r.action, artifact: r.artifact, purpose: r.purpose, verified: r.verified, hashes: r.hashes, details: r.details })}\n`).join(''),
    'utf8',
  );
}

/**
 * Records one handling: a custody entry with the hashes just computed (and whether the captured
 * files still have the hashes taken at capture) and an audit event.
 */
export async function recordHandling(deps: EvidenceDeps, scanId: string, handling: Handling, written: readonly WrittenFile[], expected: ReadonlyMap<string, string>): Promise<void> {
  const hashes: Record<string, string> = {};
  const mismatches: string[] = [];
  for (const f of written) {
    hashes[f.path] = prefixedSha256(f.sha256);
    const want = expected.get(f.path);
    if (want && prefixedSha256(want) !== hashes[f.path]) mismatches.push(f.path);
  }
  await deps.knex.transaction(async (trx) => {
    await appendCustodyEntry(trx, {
      subjectKind: 'investigation', subjectId: scanId, actor: handling.actor, action: handling.action, artifact: handling.artifact,
      purpose: handling.purpose, hashes, verified: mismatches.length === 0, details: mismatches.length ? { mismatches } : {},
    });
    await recordAuditEvent(trx, {
      actor: handling.actor, action: `evidence.${handling.action}`, target_type: 'investigation', target_id: scanId, purpose: handling.purpose,
      details: { artifact: handling.artifact, files: written.length, verified: mismatches.length === 0, ...(mismatches.length ? { mismatches } : {}) },
    });
  });
}

function provenance(inv: InvestigationRow, pages: readonly PageRow[], hars: readonly HarLog[], blocked: Awaited<ReturnType<typeof listBlockedRequests>>) {
  const userAgents = new Set<string>();
  const egress = new Set<string>();
  const serverByOrigin: Record<string, string[]> = {};
  for (const har of hars) {
    for (const e of har.log.entries) {
      const ua = e.request.headers.find((h) => h.name.toLowerCase() === 'user-agent')?.value;
      if (ua) userAgents.add(ua);
      if (e._clientIPAddress) egress.add(e._clientIPAddress);
      const origin = new URL(e.request.url).origin;
      if (e.serverIPAddress && !(serverByOrigin[origin] ??= []).includes(e.serverIPAddress)) serverByOrigin[origin]!.push(e.serverIPAddress);
    }
  }
  const tlsByOrigin: Record<string, unknown> = {};
  for (const p of pages) if (p.tls) tlsByOrigin[new URL(p.url).origin] ??= p.tls;
  const browser = hars.find((h) => h.log.browser)?.log.browser ?? null;
  const platform = hars.find((h) => h.log._platform)?.log._platform ?? null;
  return {
    scan_id: inv.scan_id,
    target_url: inv.url,
    final_url: inv.final_url,
    redirect_chain: inv.redirect_chain,
    requested_by: inv.requested_by,
    capture: {
      time_zone: 'UTC',
      started_at: inv.started_at?.toISOString() ?? null,
      completed_at: inv.completed_at?.toISOString() ?? null,
      status: inv.status,
      pages: pages.map((p) => ({ seq: p.seq, url: p.url, captured_at: p.captured_at.toISOString(), http_status: p.http_status, server_ip: p.server_ip })),
    },
    crawler: {
      egress_addresses: [...egress].sort(),
      user_agents: [...userAgents].sort(),
      browser,
      platform,
      software: EVIDENCE_SOFTWARE,
    },
    tls_by_origin: tlsByOrigin,
    server_addresses_by_origin: serverByOrigin,
    blocked_requests: blocked.map((b) => ({ url: b.url, resource_type: b.resource_type, reason: b.reason, category: b.category, at: b.at.toISOString() })),
    // Bodies the archive holds only in part or not at all (WARC-Truncated: length), and why.
    truncated_responses: hars.flatMap((h) => h.log.entries.filter((e) => e._truncated).map((e) => ({ url: e.request.url, at: e.startedDateTime, reason: e._truncatedReason ?? 'body not kept' }))),
  };
}

function parseHar(bytes: Buffer): HarLog | null {
  try {
    const har = JSON.parse(bytes.toString('utf8')) as HarLog;
    return har && typeof har === 'object' && har.log && Array.isArray(har.log.entries) ? har : null;
  } catch {
    return null;
  }
}

export interface EvidenceBundle {
  stream: Readable;
  filename: string;
  capturedAt: Date;
}

/** Streams the signed WACZ of an ended scan; the handling is recorded once the captured files are written. */
export async function evidenceBundleStream(deps: EvidenceDeps, scanId: string, handling: Handling): Promise<EvidenceBundle> {
  const inv = await endedScan(deps.knex, scanId);
  const pages = (await listPages(deps.knex, scanId)).sort((a, b) => a.seq - b.seq);
  const capturedAt = captureTime(inv, pages);
  await ensureCaptureCustody(deps.knex, inv, pages);
  const blocked = await listBlockedRequests(deps.knex, scanId);
  const reveals = await listRevealRecords(deps.knex, scanId);
  const mail = await listPersonaMail(deps.knex, scanId);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-evidence-'));
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const hars: HarLog[] = [];
    // A HAR that is not one (never written so by the crawler) gives no WARC records; provenance says so.
    const unreadableHars: number[] = [];
    const warcFile = path.join(dir, 'data.warc.gz');
    await writeScanWarc(warcFile, { scanId, capturedAt, software: EVIDENCE_SOFTWARE, targetUrl: inv.url }, (async function* () {
      for (const p of pages) {
        const har = parseHar(await readBlob(deps.blobs, p.har_key));
        if (!har) {
          unreadableHars.push(p.seq);
          continue;
        }
        hars.push({ log: { browser: har.log.browser, _platform: har.log._platform, entries: har.log.entries } });
        yield { seq: p.seq, har };
      }
      // The exchanges of each reveal (a click's XHR answers) and those after the last capture.
      for (const r of reveals.filter((x) => x.content_type === 'application/har+json')) {
        const har = parseHar(await readBlob(deps.blobs, r.blob_key));
        if (!har) continue;
        hars.push({ log: { browser: har.log.browser, _platform: har.log._platform, entries: har.log.entries } });
        yield { seq: r.name, har };
      }
    })(), (async function* () {
      // Each page's DOM snapshot and screenshot (what the page showed once its scripts ran), then the after-reveal ones.
      for (const p of pages) {
        yield { url: captureRecordUri(scanId, pageRecordName(p.seq, 'html')), contentType: 'text/html', capturedAt: p.captured_at, body: await readBlob(deps.blobs, p.dom_key) };
        yield { url: captureRecordUri(scanId, pageRecordName(p.seq, 'png')), contentType: 'image/png', capturedAt: p.captured_at, body: await readBlob(deps.blobs, p.screenshot_key) };
      }
      for (const r of reveals.filter((x) => x.content_type !== 'application/har+json')) {
        yield { url: captureRecordUri(scanId, r.name), contentType: r.content_type, capturedAt: r.captured_at, body: await readBlob(deps.blobs, r.blob_key) };
      }
    })());
    const findings = await findingsJson(deps, scanId);
    const cdxj = await cdxjIndex(warcFile, 'data.warc.gz');
    const pagesJsonl = [
      JSON.stringify({ format: 'json-pages-1.0', id: 'pages', title: `Investigation ${scanId}` }),
      ...pages.map((p) => JSON.stringify({ id: deterministicUuid(`${scanId}|page|${p.seq}`), url: p.url, ts: p.captured_at.toISOString(), title: p.title ?? p.url })),
    ].join('\n') + '\n';
    const prov = { ...provenance(inv, pages, hars, blocked), ...(unreadableHars.length ? { unreadable_hars: unreadableHars } : {}) };
    hars.length = 0;

    const expected = new Map<string, string>();
    const entries: ZipEntrySource[] = [
      { path: 'archive/data.warc.gz', open: () => fs.createReadStream(warcFile), store: true },
      { path: 'indexes/index.cdxj', open: () => cdxj, store: true },
      { path: 'pages/pages.jsonl', open: () => Buffer.from(pagesJsonl, 'utf8') },
    ];
    for (const p of pages) {
      for (const a of pageArtifacts(p)) {
        expected.set(a.path, a.sha256);
        entries.push({ path: a.path, open: () => deps.blobs.get(a.key), store: a.kind === 'screenshot' });
      }
    }
    for (const r of reveals) {
      expected.set(revealPath(r), r.sha256);
      entries.push({ path: revealPath(r), open: () => deps.blobs.get(r.blob_key), store: r.content_type === 'image/png' });
    }
    mail.forEach((m, i) => {
      expected.set(mailPath(i + 1), m.sha256);
      entries.push({ path: mailPath(i + 1), open: () => deps.blobs.get(m.blob_key) });
    });
    entries.push({ path: 'provenance/provenance.json', open: () => Buffer.from(`${JSON.stringify(prov, null, 2)}\n`, 'utf8') });
    entries.push({ path: 'findings/findings.json', open: () => findings });

    const stream = signedZipStream(entries, {
      date: capturedAt,
      signer: evidenceKeyringFor(deps.config).signer(),
      manifest: {
        waczVersion: WACZ_VERSION,
        title: `Evidence bundle of investigation ${scanId}`,
        description: `Capture of ${inv.url} (final URL ${inv.final_url ?? 'none'})`,
        software: EVIDENCE_SOFTWARE,
        extras: {
          scan_id: scanId, captured_at: capturedAt.toISOString(), handling: { actor: handling.actor, action: handling.action, purpose: handling.purpose },
          trusted_time: trustedTimeStatement(deps.config),
        },
      },
      timestamp: { stamp: (manifestBytes) => packageTimestamp(deps, manifestBytes, `evidence bundle of ${scanId}`), embedInDigest: true },
      after: async (written) => {
        await recordHandling(deps, scanId, handling, written, expected);
        return [{ path: 'custody/custody.jsonl', open: () => custodyLog(deps.knex, scanId) }];
      },
    });
    stream.once('close', cleanup);
    return { stream, filename: `ssi-${scanId}-evidence.wacz`, capturedAt };
  } catch (err) {
    cleanup();
    throw err;
  }
}
