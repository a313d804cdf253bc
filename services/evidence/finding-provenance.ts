// Per-finding provenance: for each wallet and PII finding of a scan, the WARC record of its evidence
// bundle whose body holds it (its WARC-Record-ID and WARC-Target-URI), the page and the step of the
// agent that captured that record, and the screenshot taken then. Found by looking for each value in
// every record body the bundle archives (domain/evidence/finding-match.ts), in capture order: each
// capture (a page's, a reveal's, the late exchanges') gives its HTTP responses first, then its DOM
// snapshot; the earliest record that holds the value names it. Record ids are those the bundle's
// WARC carries (services/evidence/evidence-warc.ts derives them from the scan id, the record's HAR
// and its place in it), so the detail, findings.json and the WARC agree.
// Computed once per ended scan (its evidence is final then) and kept in
// investigation_finding_provenance; a running scan's findings have none yet.
import type { Knex } from 'knex';
import { listFindingProvenance, saveFindingProvenance, type FindingProvenanceRow } from '../../db/repositories/evidence/finding-provenance-repository';
import {
  listActions, listPages, listPii, listRevealRecords, listScanWallets, REVEAL_MARK,
  type ActionRow, type PageRow, type RevealRecordRow,
} from '../../db/repositories/investigations/investigation-repository';
import { piiMatcher, walletMatcher, type FindingKind, type FindingMatcher } from '../../domain/evidence/finding-match';
import { BlobNotFoundError, readBlob, type BlobStore } from '../../infra/blob-store';
import { captureRecordUri, payloadOf, resourceRecordId, responseRecordId, type HarLog } from './evidence-warc';

export interface FindingProvenance {
  /** The WARC-Record-ID of the record whose body holds the value, as in the WARC (`<urn:uuid:…>`). */
  warc_record_id: string;
  warc_target_uri: string;
  /** `response` (an HTTP answer the site sent) or `resource` (a DOM snapshot the crawler took). */
  warc_record_type: 'response' | 'resource';
  page_url: string;
  /** The agent's state when the record was captured. */
  state: string;
  /** The step that led to it: `page capture`, the reveal's action (`click_coin_tab: BTC`), or `exchanges after the last capture`. */
  step: string;
  /** The WARC-Target-URI of the screenshot taken at that capture (a resource record), or null. */
  screenshot_uri: string | null;
  /** That screenshot's path in the evidence bundle, or null. */
  screenshot_path: string | null;
}

/** A finding's provenance, or null and why. */
export interface FindingProvenanceResult {
  kind: FindingKind;
  value: string;
  provenance: FindingProvenance | null;
  reason: string | null;
}

export interface ProvenanceDeps {
  knex: Knex;
  blobs: BlobStore;
}

type Origin = Omit<FindingProvenance, 'warc_record_id' | 'warc_target_uri' | 'warc_record_type'>;

/** One capture's records in the bundle's WARC: its HAR's exchanges, then its DOM snapshot. */
interface Capture {
  at: number;
  order: number;
  origin: Origin;
  har: { seq: number | string; key: string } | null;
  dom: { uri: string; key: string } | null;
}

const pad = (n: number) => String(n).padStart(4, '0');

/** A captured page's screenshot and DOM snapshot as the WARC's resource records name them. */
export function pageRecordName(seq: number, ext: 'png' | 'html'): string {
  return `page-${pad(seq)}.${ext}`;
}

/** Actions that accompany a reveal rather than cause it. */
const NOT_A_STEP = new Set(['extract_wallets', 'read_coin_tab', 'skip_frame', 'capture_reveal', 'capture_exchanges', 'archive_truncated', 'capture', 'enter_state']);

/** The state and the step (the action that revealed it) of the reveal `name`, from the agent's action log. */
function revealStep(actions: readonly ActionRow[], name: string): { state: string; step: string } {
  const i = actions.findIndex((a) => a.action === 'capture_reveal' && a.target === name);
  if (i < 0) return { state: '', step: name };
  for (let j = i - 1; j >= 0; j--) {
    const a = actions[j]!;
    if (a.state !== actions[i]!.state) break;
    if (!NOT_A_STEP.has(a.action)) return { state: a.state, step: a.target ? `${a.action}: ${a.target}` : a.action };
  }
  return { state: actions[i]!.state, step: name };
}

/** The scan's captures in the order they were taken (a page before the reveals taken on it). */
function captures(scanId: string, pages: readonly PageRow[], reveals: readonly RevealRecordRow[], actions: readonly ActionRow[]): Capture[] {
  const out: Capture[] = pages.map((p, i) => ({
    at: p.captured_at.getTime(), order: i,
    origin: {
      page_url: p.url, state: p.state, step: 'page capture',
      screenshot_uri: captureRecordUri(scanId, pageRecordName(p.seq, 'png')), screenshot_path: `screenshots/${pageRecordName(p.seq, 'png')}`,
    },
    har: { seq: p.seq, key: p.har_key },
    dom: { uri: captureRecordUri(scanId, pageRecordName(p.seq, 'html')), key: p.dom_key },
  }));
  const groups = new Map<string, RevealRecordRow[]>();
  for (const r of reveals) {
    const base = r.name.replace(/\.(png|html|har)$/, '');
    groups.set(base, [...(groups.get(base) ?? []), r]);
  }
  for (const [base, rows] of groups) {
    const pageUrl = rows[0]!.url.slice(0, rows[0]!.url.lastIndexOf(REVEAL_MARK));
    const har = rows.find((r) => r.content_type === 'application/har+json');
    const dom = rows.find((r) => r.content_type === 'text/html');
    const shot = rows.find((r) => r.content_type === 'image/png');
    const late = base.startsWith('late-');
    const lateAction = late ? actions.find((a) => a.action === 'capture_exchanges' && a.target === har?.name) : undefined;
    const { state, step } = late ? { state: lateAction?.state ?? '', step: 'exchanges after the last capture' } : revealStep(actions, base);
    out.push({
      at: Math.min(...rows.map((r) => r.captured_at.getTime())), order: pages.length + out.length,
      origin: {
        page_url: pageUrl, state, step,
        screenshot_uri: shot ? captureRecordUri(scanId, shot.name) : null, screenshot_path: shot ? `reveals/${shot.name}` : null,
      },
      har: har ? { seq: har.name, key: har.blob_key } : null,
      dom: dom ? { uri: captureRecordUri(scanId, dom.name), key: dom.blob_key } : null,
    });
  }
  return out.sort((a, b) => a.at - b.at || a.order - b.order);
}

function parseHar(bytes: Buffer): HarLog | null {
  try {
    const har = JSON.parse(bytes.toString('utf8')) as HarLog;
    return har && typeof har === 'object' && har.log && Array.isArray(har.log.entries) ? har : null;
  } catch {
    return null;
  }
}

interface Finding {
  matcher: FindingMatcher;
  /** Why it may be in no record (a wallet read from a QR code is in none as text). */
  qr: boolean;
}

/**
 * Looks for every finding in every record body, in capture order; answers each finding's first
 * record. Reads each blob once and keeps one body in memory at a time.
 */
async function locate(deps: ProvenanceDeps, scanId: string, list: readonly Capture[], findings: readonly Finding[]): Promise<{ found: Map<Finding, FindingProvenance>; unreadable: number }> {
  const found = new Map<Finding, FindingProvenance>();
  let unreadable = 0;
  // A record whose stored bytes are gone is in no bundle either; it is counted, not fatal.
  const read = (key: string) => readBlob(deps.blobs, key).catch((err: unknown) => {
    if (!(err instanceof BlobNotFoundError)) throw err;
    unreadable += 1;
    return Buffer.alloc(0);
  });
  const look = (body: string, record: Pick<FindingProvenance, 'warc_record_id' | 'warc_target_uri' | 'warc_record_type'>, origin: Origin) => {
    for (const f of findings) if (!found.has(f) && f.matcher.test(body)) found.set(f, { ...record, ...origin });
  };
  for (const c of list) {
    if (found.size === findings.length) break;
    if (c.har) {
      const har = parseHar(await read(c.har.key));
      for (const [i, entry] of (har?.log.entries ?? []).entries()) {
        const { body } = payloadOf(entry);
        if (!body.length) continue;
        look(body.toString('latin1'), { warc_record_id: responseRecordId(scanId, c.har.seq, i), warc_target_uri: entry.request.url, warc_record_type: 'response' }, c.origin);
      }
    }
    if (c.dom) {
      const body = (await read(c.dom.key)).toString('latin1');
      look(body, { warc_record_id: resourceRecordId(scanId, c.dom.uri), warc_target_uri: c.dom.uri, warc_record_type: 'resource' }, c.origin);
    }
  }
  return { found, unreadable };
}

const NOT_FOUND = 'not written as such in any archived record (no HTTP answer or DOM snapshot of the scan holds it)';
const FROM_QR = 'read from a QR code image: no archived record holds it as text (the page screenshot shows the code)';
export const NOT_ENDED = 'computed once the investigation has ended, from its final evidence';

const keyOf = (kind: string, value: string) => `${kind}|${value}`;

/** Computes the provenance of every wallet and PII finding of a scan from its stored evidence (`complete`: every stored record was read). */
export async function computeFindingProvenance(deps: ProvenanceDeps, scanId: string): Promise<{ results: FindingProvenanceResult[]; complete: boolean }> {
  const [pages, reveals, actions, wallets, pii] = await Promise.all([
    listPages(deps.knex, scanId), listRevealRecords(deps.knex, scanId), listActions(deps.knex, scanId), listScanWallets(deps.knex, scanId), listPii(deps.knex, scanId),
  ]);
  const findings = new Map<string, Finding>();
  for (const w of wallets) {
    const prior = findings.get(keyOf('wallet', w.address));
    findings.set(keyOf('wallet', w.address), { matcher: walletMatcher(w.address), qr: (prior?.qr ?? true) && w.source === 'qr' });
  }
  for (const p of pii) findings.set(keyOf(p.kind, p.value), { matcher: piiMatcher(p.kind as Exclude<FindingKind, 'wallet'>, p.value), qr: false });
  const all = [...findings.values()];
  const { found, unreadable } = await locate(deps, scanId, captures(scanId, pages, reveals, actions), all);
  const notFound = unreadable ? `${NOT_FOUND}; ${unreadable} stored record(s) could not be read` : NOT_FOUND;
  return {
    complete: unreadable === 0,
    results: all.map((f) => {
      const provenance = found.get(f) ?? null;
      return { kind: f.matcher.kind, value: f.matcher.value, provenance, reason: provenance ? null : f.qr ? FROM_QR : notFound };
    }),
  };
}

const fromRow = (r: FindingProvenanceRow): FindingProvenanceResult => ({ kind: r.kind as FindingKind, value: r.value, provenance: r.provenance as FindingProvenance | null, reason: r.reason });

/**
 * The provenance of an ended scan's findings (computed on first use, then kept); a scan that has
 * not ended answers an empty map (its callers say `NOT_ENDED`).
 */
export async function findingProvenance(deps: ProvenanceDeps, scanId: string, ended: boolean): Promise<Map<string, FindingProvenanceResult>> {
  const out = new Map<string, FindingProvenanceResult>();
  if (!ended) return out;
  for (const r of await listFindingProvenance(deps.knex, scanId)) out.set(keyOf(r.kind, r.value), fromRow(r));
  if (out.size) return out;
  const computed = await computeFindingProvenance(deps, scanId);
  // Kept only when every record could be read: a record restored to the blob store later counts then.
  if (computed.complete) await saveFindingProvenance(deps.knex, scanId, computed.results);
  for (const r of computed.results) out.set(keyOf(r.kind, r.value), r);
  return out;
}

/** The provenance of one finding from `findingProvenance`'s answer, or null and why. */
export function provenanceOf(map: ReadonlyMap<string, FindingProvenanceResult>, ended: boolean, kind: FindingKind, value: string): { provenance: FindingProvenance | null; provenance_reason: string | null } {
  if (!ended) return { provenance: null, provenance_reason: NOT_ENDED };
  const r = map.get(keyOf(kind, value));
  return r ? { provenance: r.provenance, provenance_reason: r.reason } : { provenance: null, provenance_reason: NOT_FOUND };
}

/**
 * The bundle's findings/findings.json: every wallet and PII finding of an ended scan with its
 * provenance (derived from the capture alone, so two downloads carry the same bytes).
 */
export async function findingsJson(deps: ProvenanceDeps, scanId: string): Promise<Buffer> {
  const [wallets, pii, map] = await Promise.all([listScanWallets(deps.knex, scanId), listPii(deps.knex, scanId), findingProvenance(deps, scanId, true)]);
  const doc = {
    format: 'fip-findings-1',
    scan_id: scanId,
    archive: 'archive/data.warc.gz',
    match_rule:
      'each value is the earliest record, in capture order, whose body holds it as the site wrote it: wallet addresses byte for byte '
      + '(hex EVM and bech32 in any letter case), e-mail addresses and handles in any case, phone numbers as their digits with written separators',
    wallets: wallets.map((w) => ({
      address: w.address, token: w.token, network: w.network, confidence: String(w.confidence), source: w.source, page_url: w.page_url, found_in_state: w.found_in_state,
      ...provenanceOf(map, true, 'wallet', w.address),
    })),
    pii: pii.map((p) => ({ kind: p.kind, value: p.value, page_url: p.page_url, ...provenanceOf(map, true, p.kind as FindingKind, p.value) })),
  };
  return Buffer.from(`${JSON.stringify(doc, null, 2)}\n`, 'utf8');
}
