// After an investigation's fingerprints are stored: when a site like it (score of at least the link
// threshold, through its kit or its DOM) lives on another domain and
// - was taken down (its takedown sent): the same kit is back; analysts are alerted (raiseAlert,
//   kind `kit_on_new_domain`), once per takedown and new site;
// - is a member of a campaign the new site is not in, on a domain none of its members has: the
//   operation has a new site; the campaign's watchers are alerted (else analysts), once per campaign
//   and new site, with the member it matched.
import type { Knex } from 'knex';
import { findInvestigation } from '../../db/repositories/investigations/investigation-repository';
import { sentTakedownsOfScans } from '../../db/repositories/takedowns/takedown-repository';
import { campaignsOfScans } from '../../db/repositories/campaigns/campaign-repository';
import type { SimilarSite } from '../../domain/similarity/similar-sites';
import { LINK_THRESHOLD } from '../../domain/similarity/site-similarity';
import { raiseAlert } from '../alerts/alert-service';

const KIT_REASONS = new Set(['kit', 'dom']);

/** `linked`: the sites the scan was just linked to (linkScan), so the index is not asked twice. */
export async function alertKitOnNewDomain(deps: { knex: Knex }, scanId: string, linked: readonly SimilarSite[]): Promise<number> {
  const inv = await findInvestigation(deps.knex, scanId);
  if (!inv) return 0;
  const similar = linked.filter((s) => s.score >= LINK_THRESHOLD && s.reasons.some((r) => KIT_REASONS.has(r.kind)));
  const takedowns = await sentTakedownsOfScans(deps.knex, similar.map((s) => s.scanId));
  let raised = 0;
  for (const t of takedowns) {
    if (t.domain === inv.domain || t.reinvestigation_scan_id === scanId) continue;
    const match = similar.find((s) => s.scanId === t.scan_id)!;
    const created = await raiseAlert(deps, {
      kind: 'kit_on_new_domain',
      title: `The kit of taken-down ${t.domain} is back on ${inv.domain}`,
      detail: {
        takedown_id: t.id, taken_down_site: t.url, taken_down_scan_id: t.scan_id, new_site: inv.url, new_scan_id: scanId,
        score: match.score, reasons: match.reasons.map((r) => r.kind),
      },
      dedupeKey: `kit_on_new_domain:${t.id}:${scanId}`,
    });
    raised += created.length;
  }
  for (const c of await campaignsOfScans(deps.knex, similar.map((s) => s.scanId))) {
    if (c.domains.includes(inv.domain)) continue;
    const best = similar.filter((s) => c.scan_ids.includes(s.scanId)).sort((a, b) => b.score - a.score)[0];
    if (!best) continue;
    const created = await raiseAlert(deps, {
      kind: 'kit_on_new_domain',
      title: `The kit of campaign ${c.name} is on a new domain: ${inv.domain}`,
      detail: {
        campaign_id: c.campaign_id, campaign: c.name, matched_scan_id: best.scanId, new_site: inv.url, new_scan_id: scanId,
        score: best.score, reasons: best.reasons.map((r) => r.kind),
      },
      targets: [{ kind: 'campaign', id: c.campaign_id }],
      dedupeKey: `kit_on_new_domain:campaign:${c.campaign_id}:${scanId}`,
    });
    raised += created.length;
  }
  return raised;
}
