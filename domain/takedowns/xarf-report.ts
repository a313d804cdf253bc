// The XARF v4 abuse report of a takedown (category `content`, type `fraud` or `phishing`: the
// xarf-spec schema pinned in ./xarf-schema, v4.2.0), and its short human-readable text. Pure: the
// caller gathers the site's facts. The capture manifest (each captured file of the evidence bundle
// with its SHA-256) travels as the report's evidence item; its own SHA-256 is the item's hash.
import { createHash } from 'node:crypto';

export const XARF_VERSION = '4.2.0';

export interface XarfContact {
  org: string;
  contact: string;
  domain: string;
}

export interface TakedownFacts {
  reportId: string;
  scanId: string;
  url: string;
  host: string;
  /** The address the site answered from (the capture's server address), when known. */
  serverIp: string | null;
  /** The scam-taxonomy path (`investment/crypto/pig-butchering`), when the case names one. */
  scamType: string | null;
  firstSeen: Date;
  lastSeen: Date;
  files: Array<{ path: string; sha256: string }>;
  screenshotUrl: string | null;
  wallets: Array<{ network: string; token: string; address: string }>;
  registrar: string | null;
  hostingProvider: string | null;
  reporter: XarfContact;
}

export type XarfReport = Record<string, unknown> & { report_id: string; type: 'fraud' | 'phishing' };

const FRAUD_TYPES: Array<[RegExp, string]> = [
  [/^investment\/crypto/, 'cryptocurrency'],
  [/^investment/, 'investment'],
  [/^romance/, 'romance'],
  [/^impersonation\/tech-support/, 'tech_support'],
  [/^impersonation\/government/, 'government_impersonation'],
  [/^shopping/, 'shopping'],
  [/^employment/, 'employment'],
  [/^advance-fee\/lottery/, 'lottery'],
  [/^advance-fee/, 'advance_fee'],
];

/** `phishing` for the taxonomy's phishing branch, else `fraud` with the nearest XARF fraud_type. */
export function xarfTypeOf(scamType: string | null): { type: 'fraud' | 'phishing'; fraud_type?: string } {
  if (scamType?.startsWith('phishing')) return { type: 'phishing' };
  return { type: 'fraud', fraud_type: FRAUD_TYPES.find(([re]) => scamType && re.test(scamType))?.[1] ?? 'other' };
}

function currencyOf(w: { network: string; token: string }): string {
  const t = w.token.toLowerCase();
  if (t === 'usdt') return 'usdt';
  if (w.network === 'bitcoin') return 'bitcoin';
  if (w.network === 'ethereum' && (t === 'eth' || t === 'native')) return 'ethereum';
  if (w.network === 'bsc' && (t === 'bnb' || t === 'native')) return 'bnb';
  if (w.network === 'monero') return 'monero';
  return 'other';
}

/** The capture manifest (JSON) and its SHA-256 (`sha256:<hex>`). */
export function captureManifest(facts: Pick<TakedownFacts, 'scanId' | 'url' | 'files'>): { json: string; hash: string } {
  const json = JSON.stringify({ scan_id: facts.scanId, url: facts.url, files: facts.files });
  return { json, hash: `sha256:${createHash('sha256').update(json).digest('hex')}` };
}

const DOMAIN = /^([a-z0-9]+(-[a-z0-9]+)*\.)+[a-z]{2,}$/;
const TAG = /[^a-z0-9_+-]+/g;

export function buildXarfReport(f: TakedownFacts): XarfReport {
  const kind = xarfTypeOf(f.scamType);
  const manifest = captureManifest(f);
  const wallets = f.wallets.map((w) => ({ currency: currencyOf(w), address: w.address }));
  const scamSlug = f.scamType ? f.scamType.split('/').pop()!.replace(TAG, '-') : null;
  return {
    xarf_version: XARF_VERSION,
    report_id: f.reportId,
    timestamp: f.firstSeen.toISOString(),
    reporter: f.reporter,
    sender: f.reporter,
    source_identifier: f.serverIp ?? f.host,
    category: 'content',
    type: kind.type,
    ...(kind.fraud_type ? { fraud_type: kind.fraud_type } : {}),
    url: f.url,
    ...(DOMAIN.test(f.host) ? { domain: f.host } : {}),
    ...(f.registrar ? { registrar: f.registrar.slice(0, 200) } : {}),
    ...(f.hostingProvider ? { hosting_provider: f.hostingProvider.slice(0, 200) } : {}),
    ...(f.screenshotUrl ? { screenshot_url: f.screenshotUrl } : {}),
    verified_at: f.lastSeen.toISOString(),
    verification_method: 'automated_crawler',
    evidence_source: 'crawler',
    attack_vector: kind.type,
    ...(kind.type === 'fraud' && wallets.length ? { payment_methods: ['cryptocurrency'], cryptocurrency_addresses: wallets } : {}),
    ...(scamSlug ? { tags: [`scam:${scamSlug}`] } : {}),
    description: summaryLine(f).slice(0, 1000),
    evidence: [
      {
        content_type: 'application/json',
        description: 'Capture manifest: each file of the evidence bundle (screenshots, DOM snapshots, HTTP archives) with its SHA-256',
        payload: Buffer.from(manifest.json).toString('base64'),
        hash: manifest.hash,
      },
    ],
  };
}

function summaryLine(f: TakedownFacts): string {
  const what = f.scamType ? `a ${f.scamType} scam site` : 'a scam site';
  return `${f.url} is ${what}, first seen ${f.firstSeen.toISOString()}, last seen ${f.lastSeen.toISOString()}.`;
}

/** The short text a person at the abuse desk reads (the XARF report is attached). */
export function takedownText(f: TakedownFacts): string {
  const kind = xarfTypeOf(f.scamType);
  const lines = [
    `Abuse report: ${kind.type === 'phishing' ? 'phishing' : 'fraud'} site at ${f.url}`,
    '',
    `${summaryLine(f)} We ask you to suspend it.`,
    f.serverIp ? `It answered from ${f.serverIp}.` : '',
    f.wallets.length ? `Payments are collected to: ${f.wallets.map((w) => `${w.address} (${w.network})`).join(', ')}.` : '',
    f.screenshotUrl ? `Screenshot: ${f.screenshotUrl}` : '',
    `Evidence: ${captureManifest(f).hash} (capture manifest of ${f.files.length} files; the signed evidence bundle is available on request).`,
    '',
    `The attached xarf-${f.reportId}.json is an XARF v${XARF_VERSION} report (category content, type ${kind.type}).`,
    `Reporter: ${f.reporter.org} <${f.reporter.contact}>`,
  ];
  return `${lines.filter((l, i, all) => l !== '' || (i > 0 && all[i - 1] !== '')).join('\n')}\n`;
}
