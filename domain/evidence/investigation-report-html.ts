// The HTML of an investigation's PDF report (rendered by Chromium without network: screenshots
// arrive as data: URLs). Summary, target and final URL, redirect chain, a screenshot per page, the
// wallet table, PII found, where each finding was seen (its WARC record), the agent's timeline, artifact hashes and the evidence signing key id.
import { escapeHtml } from '../reports/report-html';

/** Where a finding was seen: the evidence bundle's WARC record that holds it, or why none does. */
export interface SeenIn {
  seenIn: { recordId: string; targetUri: string; recordType: string; pageUrl: string; state: string; step: string; screenshotPath: string | null } | null;
  seenInReason: string | null;
}

export interface InvestigationReportData {
  scanId: string;
  status: string;
  label: string | null;
  requestedBy: string;
  targetUrl: string;
  finalUrl: string | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  generatedAt: string;
  keyId: string;
  redirectChain: Array<{ url: string; status: number | null; kind: string }>;
  pages: Array<{ seq: number; url: string; title: string | null; capturedAt: string; httpStatus: number | null; serverIp: string | null; screenshotDataUrl: string | null; hashes: Record<string, string> }>;
  wallets: Array<{ address: string; token: string; network: string; confidence: string; source: string; pageUrl: string | null } & SeenIn>;
  pii: Array<{ kind: string; value: string; pageUrl: string } & SeenIn>;
  timeline: Array<{ at: string; state: string; action: string; target: string; outcome: string }>;
}

const e = (v: unknown) => escapeHtml(v === null || v === undefined ? '' : String(v));

function table(headers: string[], rows: unknown[][], empty: string): string {
  if (!rows.length) return `<p class="empty">${e(empty)}</p>`;
  return `<table><thead><tr>${headers.map((h) => `<th>${e(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c) => `<td>${e(c)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

function provenanceRows(d: InvestigationReportData): unknown[][] {
  const row = (what: string, f: SeenIn) =>
    f.seenIn
      ? [what, `${f.seenIn.recordType} ${f.seenIn.targetUri}\n${f.seenIn.recordId}`, f.seenIn.pageUrl, `${f.seenIn.state}: ${f.seenIn.step}`, f.seenIn.screenshotPath ?? '']
      : [what, `not archived as text: ${f.seenInReason ?? ''}`, '', '', ''];
  return [...d.wallets.map((w) => row(`${w.network} ${w.address}`, w)), ...d.pii.map((p) => row(`${p.kind} ${p.value}`, p))];
}

export function investigationReportHtml(d: InvestigationReportData): string {
  const pages = d.pages
    .map(
      (p) => `<section class="page">
  <h3>Page ${p.seq}: ${e(p.title ?? p.url)}</h3>
  <p class="url">${e(p.url)}</p>
  <p>Captured ${e(p.capturedAt)} · HTTP ${e(p.httpStatus ?? 'n/a')} · server ${e(p.serverIp ?? 'n/a')}</p>
  ${p.screenshotDataUrl ? `<img class="shot" alt="Screenshot of ${e(p.url)}" src="${p.screenshotDataUrl}">` : '<p class="empty">No screenshot.</p>'}
</section>`,
    )
    .join('\n');
  const hashRows = d.pages.flatMap((p) => Object.entries(p.hashes).map(([name, hash]) => [name, hash]));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Investigation ${e(d.scanId)}</title>
<style>
  @page { size: A4 portrait; margin: 14mm 12mm; }
  body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 9pt; color: #111; }
  h1 { font-size: 16pt; margin: 0 0 4mm; } h2 { font-size: 12pt; margin: 6mm 0 2mm; border-bottom: 1px solid #999; }
  h3 { font-size: 10pt; margin: 3mm 0 1mm; }
  table { border-collapse: collapse; width: 100%; table-layout: fixed; } th, td { border: 1px solid #bbb; padding: 1mm; text-align: left; vertical-align: top; word-break: break-all; }
  th { background: #eee; } .url { word-break: break-all; } .empty { color: #666; font-style: italic; }
  .shot { max-width: 100%; max-height: 200mm; border: 1px solid #999; } section.page { page-break-inside: avoid; }
  dl { display: grid; grid-template-columns: 35mm 1fr; gap: 1mm 3mm; } dt { font-weight: bold; } dd { margin: 0; word-break: break-all; }
</style></head>
<body>
<h1>Scam-site investigation report</h1>
<h2>Summary</h2>
<dl>
  <dt>Scan id</dt><dd>${e(d.scanId)}</dd>
  <dt>Label</dt><dd>${e(d.label ?? '')}</dd>
  <dt>Status</dt><dd>${e(d.status)}</dd>
  <dt>Requested by</dt><dd>${e(d.requestedBy)}</dd>
  <dt>Target URL</dt><dd>${e(d.targetUrl)}</dd>
  <dt>Final URL</dt><dd>${e(d.finalUrl ?? 'none')}</dd>
  <dt>Created</dt><dd>${e(d.createdAt)}</dd>
  <dt>Started</dt><dd>${e(d.startedAt ?? '')}</dd>
  <dt>Completed</dt><dd>${e(d.completedAt ?? '')}</dd>
  <dt>Pages captured</dt><dd>${d.pages.length}</dd>
  <dt>Wallets found</dt><dd>${d.wallets.length}</dd>
  <dt>Report generated</dt><dd>${e(d.generatedAt)} (UTC)</dd>
  <dt>Signing key id</dt><dd>${e(d.keyId)}</dd>
</dl>
<h2>Redirect chain</h2>
${table(['#', 'URL', 'Status', 'Kind'], d.redirectChain.map((h, i) => [i + 1, h.url, h.status ?? '', h.kind]), 'No redirects recorded.')}
<h2>Wallets</h2>
${table(['Address', 'Token', 'Network', 'Confidence', 'Source', 'Page'], d.wallets.map((w) => [w.address, w.token, w.network, w.confidence, w.source, w.pageUrl ?? '']), 'No wallets found.')}
<h2>Personal data found</h2>
${table(['Kind', 'Value', 'Page'], d.pii.map((p) => [p.kind, p.value, p.pageUrl]), 'None found.')}
<h2>Where each finding was seen</h2>
<p>The record of the evidence bundle (archive/data.warc.gz) whose body holds each value as the site wrote it, the page and the agent&#39;s step that captured it, and the screenshot taken then (a file of the bundle).</p>
${table(['Finding', 'WARC record (type, URI, id)', 'Page', 'Step', 'Screenshot'], provenanceRows(d), 'No findings.')}
<h2>Captured pages</h2>
${pages || '<p class="empty">No pages were captured.</p>'}
<h2>Timeline of the agent</h2>
${table(['Time (UTC)', 'State', 'Action', 'Target', 'Outcome'], d.timeline.map((a) => [a.at, a.state, a.action, a.target, a.outcome]), 'No actions recorded.')}
<h2>Artifact hashes (SHA-256, taken at capture)</h2>
${table(['Artifact', 'SHA-256'], hashRows, 'No artifacts.')}
<p>The evidence bundle and the LEA package of this scan are signed with the ECDSA P-384 key ${e(d.keyId)}. Before trusting them, compare the fingerprint of the key they enclose with the platform&#39;s, received out of band (not from the package), then check them with <code>npx fip evidence verify --fingerprint &lt;fingerprint&gt;</code>.</p>
</body></html>`;
}
