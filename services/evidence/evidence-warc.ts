// The WARC of a scan, rebuilt from the HARs the crawler stored (each captured page's, each reveal's,
// and the session's late exchanges: every HTTP exchange the page made, bodies included up to
// SVC_SSI__MAX_RESPONSE_BODY_MB each: crawler-session.ts), written with webrecorder's warcio: one
// gzip member per record, WARC-Payload-Digest and WARC-Block-Digest in sha256; then the after-reveal
// screenshots and DOM snapshots (and each captured page's) as resource records. Record ids and dates come from the capture, so
// the same capture always gives the same bytes. A body the HAR holds only in part (over the limit)
// or not at all (past the investigation's archive cap) is marked `WARC-Truncated: length`.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { CDXIndexer, WARCRecord, WARCSerializer } from 'warcio';

export interface HarHeader {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  request: { method: string; url: string; headers: HarHeader[] };
  response: { status: number; statusText?: string; headers: HarHeader[]; content: { size: number; text?: string; encoding?: string; mimeType?: string } };
  serverIPAddress?: string;
  _clientIPAddress?: string;
  _resourceType?: string;
  _truncated?: string;
  _truncatedReason?: string;
}

export interface HarLog {
  log: { browser?: { name: string; version: string }; _platform?: Record<string, string>; entries: HarEntry[] };
}

/** A deterministic `urn:uuid:` from a name (SHA-256 based, version nibble 8: "custom"). */
export function deterministicUuid(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const SKIP_RESPONSE_HEADERS = new Set(['content-length', 'transfer-encoding']);

function warcDate(iso: string): string {
  return new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The WARC-Record-ID of the response record of the `index`-th exchange of the HAR archived as `seq`. */
export function responseRecordId(scanId: string, seq: number | string, index: number): string {
  return `<urn:uuid:${deterministicUuid(`${scanId}|${seq}|${index}|response`)}>`;
}

/** The WARC-Record-ID of a resource record (a screenshot or DOM snapshot) by its WARC-Target-URI. */
export function resourceRecordId(scanId: string, url: string): string {
  return `<urn:uuid:${deterministicUuid(`${scanId}|resource|${url}`)}>`;
}

/** The WARC-Target-URI of a capture of the platform's own (an after-reveal record, a page's screenshot or DOM): `urn:fip:<scan id>:<name>`. */
export function captureRecordUri(scanId: string, name: string): string {
  return `urn:fip:${scanId}:${name}`;
}

/** The body an exchange's response record carries (what the HAR kept of it). */
export function payloadOf(entry: HarEntry): { body: Buffer; truncated: boolean } {
  const c = entry.response.content;
  if (c.text === undefined) return { body: Buffer.alloc(0), truncated: c.size > 0 || !!entry._truncated };
  return { body: c.encoding === 'base64' ? Buffer.from(c.text, 'base64') : Buffer.from(c.text, 'utf8'), truncated: !!entry._truncated };
}

export interface WarcWriteResult {
  sha256: string;
  bytes: number;
  records: number;
}

/** A capture of its own (an after-reveal screenshot or DOM snapshot): one resource record. */
export interface WarcResource {
  /** Its WARC-Target-URI, `urn:fip:<scan id>:<record name>`. */
  url: string;
  contentType: string;
  capturedAt: Date;
  body: Buffer;
}

/**
 * Writes the WARC of `pages` (each page's or reveal's HAR, in capture order; `seq` names its records'
 * ids) to `file`: a warcinfo record, then per exchange a response and its request
 * (WARC-Concurrent-To), then a resource record per `resources`.
 */
export async function writeScanWarc(
  file: string,
  scan: { scanId: string; capturedAt: Date; software: string; targetUrl: string },
  pages: AsyncIterable<{ seq: number | string; har: HarLog }>,
  resources: AsyncIterable<WarcResource> = (async function* () {})(),
): Promise<WarcWriteResult> {
  const out = fs.createWriteStream(file);
  const hash = createHash('sha256');
  let bytes = 0;
  let records = 0;
  const write = async (record: WARCRecord) => {
    const data = Buffer.from(await WARCSerializer.serialize(record, { gzip: true, digest: { algo: 'sha-256', prefix: 'sha256:', base32: false } }));
    hash.update(data);
    bytes += data.length;
    records += 1;
    if (!out.write(data)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  };
  try {
    await write(
      WARCRecord.createWARCInfo(
        { filename: 'data.warc.gz', warcVersion: 'WARC/1.1', date: warcDate(scan.capturedAt.toISOString()), warcHeaders: { 'WARC-Record-ID': `<urn:uuid:${deterministicUuid(`${scan.scanId}|warcinfo`)}>` } },
        { software: scan.software, format: 'WARC File Format 1.1', 'fip-scan-id': scan.scanId, 'fip-target-url': scan.targetUrl },
      ),
    );
    for await (const page of pages) {
      for (const [i, entry] of page.har.log.entries.entries()) {
        const date = warcDate(entry.startedDateTime);
        const responseId = responseRecordId(scan.scanId, page.seq, i);
        const { body, truncated } = payloadOf(entry);
        const headers: Array<[string, string]> = entry.response.headers.filter((h) => !SKIP_RESPONSE_HEADERS.has(h.name.toLowerCase())).map((h) => [h.name, h.value]);
        headers.push(['Content-Length', String(body.length)]);
        const status = entry.response.status;
        const warcHeaders: Record<string, string> = { 'WARC-Record-ID': responseId };
        if (entry.serverIPAddress) warcHeaders['WARC-IP-Address'] = entry.serverIPAddress;
        if (truncated) warcHeaders['WARC-Truncated'] = 'length';
        await write(
          WARCRecord.create(
            { url: entry.request.url, date, type: 'response', warcVersion: 'WARC/1.1', warcHeaders, httpHeaders: headers, statusline: `HTTP/1.1 ${status} ${entry.response.statusText || STATUS_CODES[status] || ''}`.trimEnd(), keepHeadersCase: true },
            [body],
          ),
        );
        const url = new URL(entry.request.url);
        const reqHeaders: Array<[string, string]> = [['Host', url.host], ...entry.request.headers.filter((h) => h.name.toLowerCase() !== 'host').map((h) => [h.name, h.value] as [string, string])];
        await write(
          WARCRecord.create(
            {
              url: entry.request.url, date, type: 'request', warcVersion: 'WARC/1.1', keepHeadersCase: true,
              warcHeaders: { 'WARC-Record-ID': `<urn:uuid:${deterministicUuid(`${scan.scanId}|${page.seq}|${i}|request`)}>`, 'WARC-Concurrent-To': responseId },
              httpHeaders: reqHeaders, statusline: `${entry.request.method} ${url.pathname}${url.search} HTTP/1.1`,
            },
            [],
          ),
        );
      }
    }
    for await (const r of resources) {
      await write(
        WARCRecord.create(
          {
            url: r.url, date: warcDate(r.capturedAt.toISOString()), type: 'resource', warcVersion: 'WARC/1.1',
            warcHeaders: { 'WARC-Record-ID': resourceRecordId(scan.scanId, r.url), 'Content-Type': r.contentType },
          },
          [r.body],
        ),
      );
    }
  } finally {
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
  return { sha256: hash.digest('hex'), bytes, records };
}

/** The CDXJ index of a WARC file (sorted lines; offsets into `filename` inside archive/). */
export async function cdxjIndex(file: string, filename: string): Promise<Buffer> {
  const indexer = new CDXIndexer({ format: 'cdxj' } as ConstructorParameters<typeof CDXIndexer>[0]);
  const lines: string[] = [];
  for await (const cdx of indexer.iterIndex([{ reader: fs.createReadStream(file), filename }])) lines.push(indexer.serializeCDXJ(cdx));
  lines.sort();
  return Buffer.from(lines.join(''), 'utf8');
}
