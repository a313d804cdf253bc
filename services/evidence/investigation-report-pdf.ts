// GET /investigations/ssi/{scan_id}/report.pdf: the investigation's PDF, rendered by Chromium with
// the report renderer's browser provider (infra/browser-pool.ts: every request
// blocked; screenshots are inlined as data: URLs). The API process holds one provider, launched on
// first use. Each download re-hashes the screenshots it reads and records custody + audit.
import { createHash } from 'node:crypto';
import { createBrowserProvider, type BrowserProvider } from '../../infra/browser-pool';
import { listActions, listPages, listPii, listScanWallets, type InvestigationRow } from '../../db/repositories/investigations/investigation-repository';
import { investigationReportHtml, type InvestigationReportData, type SeenIn } from '../../domain/evidence/investigation-report-html';
import type { FindingKind } from '../../domain/evidence/finding-match';
import { findingProvenance, provenanceOf, type FindingProvenanceResult } from './finding-provenance';
import { readBlob } from '../../infra/blob-store';
import { resolveChromium } from '../../infra/chromium';
import { evidenceKeyringFor } from '../../infra/evidence-keyring';
import { endedScan, ensureCaptureCustody, pageArtifacts, recordHandling, type EvidenceDeps, type Handling } from './evidence-bundle';

function seenIn(map: ReadonlyMap<string, FindingProvenanceResult>, kind: FindingKind, value: string): SeenIn {
  const { provenance: p, provenance_reason: reason } = provenanceOf(map, true, kind, value);
  return {
    seenIn: p ? { recordId: p.warc_record_id, targetUri: p.warc_target_uri, recordType: p.warc_record_type, pageUrl: p.page_url, state: p.state, step: p.step, screenshotPath: p.screenshot_path } : null,
    seenInReason: reason,
  };
}

const providers = new Map<string, BrowserProvider>();

/** The PDF renderer of this process (one Chromium per configured path). */
export function evidenceBrowser(chromiumPath: string | undefined): BrowserProvider {
  const id = chromiumPath ?? '';
  let provider = providers.get(id);
  if (!provider) {
    provider = createBrowserProvider({ chromium: () => resolveChromium({ configuredPath: chromiumPath }) });
    providers.set(id, provider);
  }
  return provider;
}

export async function closeEvidenceBrowsers(): Promise<void> {
  const all = [...providers.values()];
  providers.clear();
  await Promise.all(all.map((p) => p.close()));
}


/** Screenshots larger than this are not inlined (the PDF says so); the bundle carries them. */
const MAX_INLINE_SCREENSHOT = 8 * 1024 * 1024;

export async function investigationReportData(deps: EvidenceDeps, inv: InvestigationRow): Promise<{ data: InvestigationReportData; rehashed: Map<string, string> }> {
  const [pages, wallets, pii, actions, provenance] = await Promise.all([
    listPages(deps.knex, inv.scan_id), listScanWallets(deps.knex, inv.scan_id), listPii(deps.knex, inv.scan_id), listActions(deps.knex, inv.scan_id),
    findingProvenance(deps, inv.scan_id, true),
  ]);
  pages.sort((a, b) => a.seq - b.seq);
  const rehashed = new Map<string, string>();
  const pageData: InvestigationReportData['pages'] = [];
  for (const p of pages) {
    const artifacts = pageArtifacts(p);
    let dataUrl: string | null = null;
    if (Number(p.screenshot_size) <= MAX_INLINE_SCREENSHOT) {
      const shot = await readBlob(deps.blobs, p.screenshot_key);
      rehashed.set(artifacts[0]!.path, createHash('sha256').update(shot).digest('hex'));
      dataUrl = `data:image/png;base64,${shot.toString('base64')}`;
    }
    pageData.push({
      seq: p.seq, url: p.url, title: p.title, capturedAt: p.captured_at.toISOString(), httpStatus: p.http_status, serverIp: p.server_ip,
      screenshotDataUrl: dataUrl, hashes: Object.fromEntries(artifacts.map((a) => [a.path, `sha256:${a.sha256}`])),
    });
  }
  return {
    rehashed,
    data: {
      scanId: inv.scan_id, status: inv.status, label: inv.label, requestedBy: inv.requested_by, targetUrl: inv.url, finalUrl: inv.final_url,
      createdAt: inv.created_at.toISOString(), startedAt: inv.started_at?.toISOString() ?? null, completedAt: inv.completed_at?.toISOString() ?? null,
      generatedAt: new Date().toISOString(), keyId: evidenceKeyringFor(deps.config).activeKeyId(),
      redirectChain: inv.redirect_chain,
      pages: pageData,
      wallets: wallets.map((w) => ({ address: w.address, token: w.token, network: w.network, confidence: String(w.confidence), source: w.source, pageUrl: w.page_url, ...seenIn(provenance, 'wallet', w.address) })),
      pii: pii.map((x) => ({ kind: x.kind, value: x.value, pageUrl: x.page_url, ...seenIn(provenance, x.kind as FindingKind, x.value) })),
      timeline: actions.map((a) => ({ at: a.at.toISOString(), state: a.state, action: a.action, target: a.target, outcome: a.outcome })),
    },
  };
}

/** Renders the PDF of an ended scan; records the handling (custody + audit) with the PDF's hash. */
export async function investigationReportPdf(deps: EvidenceDeps, scanId: string, handling: Handling | null): Promise<{ pdf: Buffer; filename: string }> {
  const inv = await endedScan(deps.knex, scanId);
  const { data, rehashed } = await investigationReportData(deps, inv);
  const html = investigationReportHtml(data);
  const pdf = await evidenceBrowser(deps.config.chromium.path).withPage(async (page) => {
    await page.setContent(html, { waitUntil: 'load' });
    await page.emulateMedia({ media: 'print' });
    return page.pdf({ preferCSSPageSize: true, format: 'A4', printBackground: true, tagged: true, outline: true });
  });
  if (handling) {
    await ensureCaptureCustody(deps.knex, inv, await listPages(deps.knex, scanId));
    const expected = new Map<string, string>();
    const written = [{ path: 'report.pdf', sha256: createHash('sha256').update(pdf).digest('hex'), bytes: pdf.length }];
    for (const p of data.pages) {
      const path = `screenshots/page-${String(p.seq).padStart(4, '0')}.png`;
      const actual = rehashed.get(path);
      if (!actual) continue;
      expected.set(path, p.hashes[path]!);
      written.push({ path, sha256: actual, bytes: 0 });
    }
    await recordHandling(deps, scanId, handling, written, expected);
  }
  return { pdf, filename: `ssi-${scanId}-report.pdf` };
}
