// Watching a reported site until it is gone: one check (now, POST /takedowns/{id}/check, or by the
// `takedown-watch` Schedule every SVC_TAKEDOWN__CHECK_INTERVAL_HOURS) asks the site through the
// egress policy and records `site_status`, `checked_at` and a history row. A sent takedown whose
// site changed is investigated again (the new scan id derives from the takedown and what the site
// answers, so a retried check starts it once), and what it answers now becomes the baseline.
import { createHash } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import type { AppConfig } from '../../config/config';
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import { findInvestigation } from '../../db/repositories/investigations/investigation-repository';
import { appendTakedownEvent, findTakedown, updateTakedown, watchedTakedownIds } from '../../db/repositories/takedowns/takedown-repository';
import { InvestigationOptionsSchema } from '../../domain/investigations/investigation-request';
import { siteStatusOf, type SiteStatus } from '../../domain/takedowns/site-status';
import { NotFoundError } from '../errors';
import { startInvestigation } from '../investigations/investigation-service';
import { probeSite } from './site-probe';

type WatchDeps = { knex: Knex; config: AppConfig; temporal: Client };

function derivedUuid(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export interface SiteCheck {
  siteStatus: SiteStatus;
  reinvestigationScanId: string | null;
}

export async function checkTakedownSite(deps: WatchDeps, actor: string, id: string, audited: boolean): Promise<SiteCheck> {
  const t = await findTakedown(deps.knex, id);
  if (!t) throw new NotFoundError(`no takedown ${id}`);
  const answer = await probeSite(deps.config, t.url);
  const siteStatus = siteStatusOf(answer, t.baseline);
  let reinvestigationScanId: string | null = null;
  if (siteStatus === 'changed' && t.status === 'sent' && answer.kind === 'answered') {
    const scanId = derivedUuid(`takedown-reinvestigation:${t.id}:${answer.sha256}`);
    const original = await findInvestigation(deps.knex, t.scan_id);
    await startInvestigation(
      deps,
      {
        scanId, url: t.url, requestedBy: `takedown:${t.id}`, playbookId: original?.playbook_id ?? undefined, caseId: original?.case_id ?? null,
        label: `re-investigation: site changed after takedown ${t.id}`, options: InvestigationOptionsSchema.parse(original?.options ?? {}), agent: { register: false },
      },
      true,
    );
    reinvestigationScanId = scanId;
  }
  await deps.knex.transaction(async (trx) => {
    await updateTakedown(trx, id, {
      site_status: siteStatus,
      checked_at: new Date(),
      ...(reinvestigationScanId ? { reinvestigation_scan_id: reinvestigationScanId } : {}),
    });
    if (reinvestigationScanId && answer.kind === 'answered') await trx('takedowns').where({ id }).update({ baseline: JSON.stringify({ status: answer.status, sha256: answer.sha256 }) });
    const detail = answer.kind === 'answered' ? { http_status: answer.status, sha256: answer.sha256 } : answer.kind === 'unreachable' ? { error: answer.error } : { refused: answer.reason };
    await appendTakedownEvent(trx, { takedownId: id, kind: 'check', actor, siteStatus, detail: { ...detail, ...(reinvestigationScanId ? { reinvestigation_scan_id: reinvestigationScanId } : {}) } });
    if (audited) await recordAuditEvent(trx, { actor, action: 'takedown.check', target_type: 'takedown', target_id: id, details: { site_status: siteStatus } });
  });
  return { siteStatus, reinvestigationScanId };
}

/** The sent takedowns whose site is not yet down, least recently checked first. */
export async function takedownsToWatch(deps: { knex: Knex }, limit = 500): Promise<string[]> {
  return watchedTakedownIds(deps.knex, limit);
}
