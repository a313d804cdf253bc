// The dossier workflow's steps: list the sources of a plan, collect each source's artifacts into
// the blob store (streamed, each with its SHA-256, idempotent per (dossier, name)), then write the
// manifest and sign it. Contact data from the vault is never read here: intakes contribute their
// own record and their files, never vault_secrets.
import type { Readable } from 'node:stream';
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import type { AppConfig } from '../../config/config';
import { caseEntities, findCase, listCaseLinks, caseLossTotals } from '../../db/repositories/cases/case-repository';
import {
  caseIntakeIds,
  caseReviewNotes,
  caseScanIds,
  findDossier,
  findDossierArtifact,
  graphExtract,
  insertDossierArtifact,
  listDossierArtifacts,
  sealDossier,
  setDossierStatus,
} from '../../db/repositories/dossiers/dossier-repository';
import { findIntake, listIntakeFiles } from '../../db/repositories/intakes/intake-repository';
import { findInvestigation, listActions, listPages, listScanWallets } from '../../db/repositories/investigations/investigation-repository';
import { findReferral } from '../../db/repositories/cases/lea-referral-repository';
import { listCaseReviews } from '../../db/repositories/reviews/review-repository';
import { isSafeArtifactName, safeSegment } from '../../domain/dossiers/artifact-name';
import { planSources, type DossierSource } from '../../domain/dossiers/dossier-plan';
import type { BlobStore } from '../../infra/blob-store';
import type { Logger } from '../../infra/logger';
import { createSignedManifest, sha256Hex } from '../../domain/evidence/package-manifest';
import { evidenceKeyringFor } from '../../infra/evidence-keyring';
import { evidenceBundleStream, isEnded } from '../../services/evidence/evidence-bundle';
import { stampManifest, trustedTimeStatement } from '../../services/evidence/trusted-time';
import { withHeartbeat } from '../../infra/activity-heartbeat';

/** Failure type (non-retryable) of a dossier whose plan or source no longer exists. */
export const DOSSIER_SOURCE_MISSING = 'DossierSourceMissing';

export interface DossierActivityDeps {
  knex: Knex;
  blobs: BlobStore;
  config: AppConfig;
  log: Logger;
  /** The version written into the manifest's `software`. */
  softwareVersion: string;
}

type ArtifactBody = Buffer | (() => Readable);

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');

function missing(message: string): never {
  throw ApplicationFailure.create({ type: DOSSIER_SOURCE_MISSING, message, nonRetryable: true });
}

export function createDossierActivities(deps: DossierActivityDeps) {
  const { knex, blobs } = deps;

  const loadDossier = async (planId: string) => (await findDossier(knex, planId)) ?? missing(`dossier ${planId} does not exist`);

  /** Stores one artifact unless the dossier already holds `name` (a retried activity adds nothing). */
  const store = async (planId: string, source: DossierSource, name: string, contentType: string, body: ArtifactBody): Promise<void> => {
    if (!isSafeArtifactName(name)) throw new Error(`unsafe artifact name ${JSON.stringify(name)}`);
    if (await findDossierArtifact(knex, planId, name)) return;
    // Streamed: a source blob is re-read and re-hashed on its way in, never held in memory.
    const blob = await blobs.put(typeof body === 'function' ? body() : body);
    await insertDossierArtifact(knex, {
      dossier_id: planId, name, blob_key: blob.key, sha256: blob.sha256, bytes: blob.size, content_type: contentType, source_kind: source.kind, source_id: source.id,
    });
  };

  const collectCase = async (planId: string, source: DossierSource) => {
    const c = (await findCase(knex, source.id)) ?? missing(`case ${source.id} no longer exists`);
    const referral = await findReferral(knex, c.id);
    const reviews = await listCaseReviews(knex, c.id);
    const doc = {
      case: {
        id: c.id, title: c.title, description: c.description, status: c.status, priority: c.priority, assignee: c.assignee,
        campaign_id: c.campaign_id, loss_amount: c.loss_amount, loss_currency: c.loss_currency, created_by: c.created_by,
        created_at: c.created_at.toISOString(), updated_at: c.updated_at.toISOString(),
      },
      loss_totals: await caseLossTotals(knex, c.id),
      links: (await listCaseLinks(knex, c.id)).map((l) => ({ type: l.target_type, id: l.target_id, linked_by: l.linked_by, linked_at: l.linked_at.toISOString() })),
      reviews: reviews.map((r) => ({
        id: r.id, status: r.status, priority: r.priority, reason: r.reason, requested_by: r.requested_by, claimed_by: r.claimed_by,
        decision: r.decision, rationale: r.rationale, decided_by: r.decided_by, decided_at: r.decided_at?.toISOString() ?? null, created_at: r.created_at.toISOString(),
      })),
      notes: (await caseReviewNotes(knex, c.id)).map((n) => ({ review_id: n.review_id, action: n.action, actor: n.actor, at: n.at.toISOString(), details: n.details })),
      // The referral's agency and status; its contact stays out of the dossier.
      lea_referral: referral
        ? {
            status: referral.referral.status, agency: referral.referral.agency, jurisdiction: referral.referral.jurisdiction, reference: referral.referral.reference,
            created_at: referral.referral.created_at.toISOString(),
            events: referral.events.map((e) => ({ from: e.from_status, to: e.to_status, actor: e.actor, at: e.at.toISOString() })),
          }
        : null,
    };
    await store(planId, source, 'case/case.json', 'application/json', json(doc));
    await store(planId, source, 'case/case.md', 'text/markdown; charset=utf-8', Buffer.from(caseMarkdown(doc), 'utf8'));
  };

  const collectIntake = async (planId: string, source: DossierSource) => {
    const intake = (await findIntake(knex, source.id)) ?? missing(`intake ${source.id} no longer exists`);
    const files = await listIntakeFiles(knex, intake.id);
    const base = `intakes/${intake.id}`;
    const doc = {
      id: intake.id, status: intake.status, source: intake.source, summary: intake.summary, details: intake.details,
      loss_amount: intake.loss_amount, loss_currency: intake.loss_currency, occurred_at: intake.occurred_at?.toISOString() ?? null,
      urls: intake.urls, case_id: intake.case_id, created_at: intake.created_at.toISOString(),
      files: files.map((f) => ({ position: f.position, filename: f.filename, content_type: f.content_type, sha256: f.sha256, bytes: Number(f.size) })),
    };
    await store(planId, source, `${base}/intake.json`, 'application/json', json(doc));
    for (const f of files) {
      await store(planId, source, `${base}/files/${f.position}-${safeSegment(f.filename)}`, f.content_type, () => blobs.open(f.blob_key));
    }
  };

  const collectInvestigation = async (planId: string, source: DossierSource) => {
    const scan = (await findInvestigation(knex, source.id)) ?? missing(`investigation ${source.id} no longer exists`);
    const pages = await listPages(knex, scan.scan_id);
    const base = `investigations/${scan.scan_id}`;
    const doc = {
      scan_id: scan.scan_id, url: scan.url, final_url: scan.final_url, status: scan.status, state: scan.state, requested_by: scan.requested_by,
      redirect_chain: scan.redirect_chain, created_at: scan.created_at.toISOString(), completed_at: scan.completed_at?.toISOString() ?? null,
      pages: pages.map((p) => ({
        seq: p.seq, url: p.url, state: p.state, title: p.title, http_status: p.http_status, server_ip: p.server_ip, tls: p.tls, captured_at: p.captured_at.toISOString(),
        screenshot_sha256: p.screenshot_sha256, dom_sha256: p.dom_sha256, har_sha256: p.har_sha256,
      })),
      wallets: await listScanWallets(knex, scan.scan_id),
      actions: (await listActions(knex, scan.scan_id)).map((a) => ({ at: a.at.toISOString(), state: a.state, action: a.action, target: a.target, outcome: a.outcome })),
    };
    await store(planId, source, `${base}/investigation.json`, 'application/json', json(doc));
    for (const p of pages) {
      const at = `${base}/pages/${p.seq}`;
      await store(planId, source, `${at}/screenshot.png`, 'image/png', () => blobs.open(p.screenshot_key));
      await store(planId, source, `${at}/dom.html`, 'text/html; charset=utf-8', () => blobs.open(p.dom_key));
      await store(planId, source, `${at}/page.har`, 'application/json', () => blobs.open(p.har_key));
    }
    // An ended scan's signed evidence bundle (WACZ) goes in whole, so the agency can replay it with
    // standard web-archive tools; the export is a custody entry of the scan (actor: this dossier).
    const bundleName = `${base}/evidence.wacz`;
    if (isEnded(scan.status) && !(await findDossierArtifact(knex, planId, bundleName))) {
      const bundle = await evidenceBundleStream({ knex, blobs, config: deps.config }, scan.scan_id, {
        actor: `dossier:${planId}`, action: 'export', artifact: 'evidence-bundle', purpose: `dossier ${planId}`,
      });
      await store(planId, source, bundleName, 'application/wacz', () => bundle.stream);
    }
  };

  const collectGraph = async (planId: string, source: DossierSource) => {
    const dossier = await loadDossier(planId);
    const ids = new Set(dossier.plan.entity_ids ?? []);
    if (dossier.case_id) for (const e of await caseEntities(knex, dossier.case_id)) ids.add(e.id);
    await store(planId, source, 'graph/entities.json', 'application/json', json(await graphExtract(knex, [...ids].sort())));
  };

  return {
    /** Marks the dossier as collecting and answers its sources (ids only: nothing sensitive enters Temporal). */
    async beginDossier(input: { planId: string }): Promise<DossierSource[]> {
      const dossier = await loadDossier(input.planId);
      const caseId = dossier.case_id;
      const linked = caseId
        ? {
            intakeIds: await caseIntakeIds(knex, caseId),
            scanIds: await caseScanIds(knex, caseId),
            entityIds: (await caseEntities(knex, caseId)).map((e) => e.id),
          }
        : { intakeIds: [], scanIds: [], entityIds: [] };
      await setDossierStatus(knex, dossier.id, 'collecting');
      return planSources(dossier.plan, linked);
    },

    /** Collects one source's artifacts; safe to repeat (existing names are kept as they are). */
    async collectDossierSource(input: { planId: string; source: DossierSource }): Promise<{ artifacts: number }> {
      return withHeartbeat(async () => {
        const { planId, source } = input;
        if (source.kind === 'case') await collectCase(planId, source);
        else if (source.kind === 'intake') await collectIntake(planId, source);
        else if (source.kind === 'investigation') await collectInvestigation(planId, source);
        else await collectGraph(planId, source);
        return { artifacts: (await listDossierArtifacts(knex, planId)).length };
      });
    },

    /** Writes the manifest over every artifact, signs it and marks the dossier ready (a sealed dossier is answered as is). */
    async sealDossier(input: { planId: string }): Promise<{ manifest_sha256: string; key_id: string | null; artifacts: number }> {
      const dossier = await loadDossier(input.planId);
      const artifacts = await listDossierArtifacts(knex, dossier.id);
      if (dossier.status === 'ready' && dossier.manifest_sha256) {
        return { manifest_sha256: dossier.manifest_sha256, key_id: dossier.key_id, artifacts: artifacts.length };
      }
      await setDossierStatus(knex, dossier.id, 'signing');
      // The platform's one signed manifest format (datapackage.json + datapackage-digest.json), signed
      // by the evidence keyring: `npx fip evidence verify` checks a downloaded dossier offline.
      const { manifestBytes, digestBytes, digest } = createSignedManifest(
        artifacts.map((a) => ({ path: a.name, bytes: Number(a.bytes), sha256: a.sha256 })),
        evidenceKeyringFor(deps.config).signer(),
        {
          title: dossier.title,
          created: new Date().toISOString(),
          software: `fraud-intelligence-platform ${deps.softwareVersion}`,
          extras: {
            dossier: {
              plan_id: dossier.id,
              case_id: dossier.case_id,
              sources: artifacts.map((a) => ({ path: a.name, content_type: a.content_type, kind: a.source_kind, id: a.source_id })),
            },
            trusted_time: trustedTimeStatement(deps.config),
          },
        },
      );
      // Trusted time over the manifest; an authority that does not answer leaves the dossier saying
      // so (its manifest names the authorities, no token), it never fails the dossier. A retry before the seal asks again.
      const stamped = await withHeartbeat(() => stampManifest(deps.config, manifestBytes));
      if (stamped.outcome.status === 'unavailable') deps.log.warn({ plan_id: dossier.id, attempts: stamped.outcome.attempts }, 'no time-stamping authority answered; the dossier carries no third-party timestamp');
      const sealed = await sealDossier(knex, dossier.id, {
        manifest: manifestBytes.toString('utf8'), manifest_sha256: sha256Hex(manifestBytes), digest: digestBytes.toString('utf8'), key_id: digest.signature.key_id,
        timestamp_token: stamped.token, timestamp_status: JSON.stringify(stamped.status),
      });
      return { manifest_sha256: sealed.manifest_sha256!, key_id: sealed.key_id, artifacts: artifacts.length };
    },

    /** Records why a dossier failed (a message fit for its readers). */
    async failDossier(input: { planId: string; message: string }): Promise<void> {
      await setDossierStatus(knex, input.planId, 'failed', input.message.slice(0, 1000));
    },
  };
}

interface CaseDoc {
  case: { id: string; title: string; description: string; status: string; priority: string; assignee: string | null; created_by: string; created_at: string };
  links: Array<{ type: string; id: string }>;
  reviews: Array<{ id: string; status: string; decision: string | null; rationale: string | null; decided_by: string | null }>;
  notes: Array<{ action: string; actor: string; at: string; details: Record<string, unknown> }>;
  lea_referral: { status: string; agency: string | null; reference: string | null } | null;
}

/** The case as a short Markdown document for a human reader (the JSON is the complete record). */
function caseMarkdown(doc: CaseDoc): string {
  const c = doc.case;
  const lines = [
    `# ${c.title}`,
    '',
    `- Case: ${c.id}`,
    `- Status: ${c.status}, priority ${c.priority}`,
    `- Created by ${c.created_by} at ${c.created_at}; assignee: ${c.assignee ?? 'none'}`,
    '',
    '## Description',
    '',
    c.description || '(none)',
    '',
    '## Links',
    '',
    ...(doc.links.length ? doc.links.map((l) => `- ${l.type} ${l.id}`) : ['(none)']),
    '',
    '## Reviews',
    '',
    ...(doc.reviews.length ? doc.reviews.map((r) => `- ${r.id}: ${r.status}${r.decision ? `, ${r.decision} by ${r.decided_by}: ${r.rationale ?? ''}` : ''}`) : ['(none)']),
    '',
    '## Notes',
    '',
    ...(doc.notes.length ? doc.notes.map((n) => `- ${n.at} ${n.actor} (${n.action}): ${JSON.stringify(n.details)}`) : ['(none)']),
    '',
    '## LEA referral',
    '',
    doc.lea_referral ? `${doc.lea_referral.status}: ${doc.lea_referral.agency ?? 'agency not set'}${doc.lea_referral.reference ? ` (ref ${doc.lea_referral.reference})` : ''}` : '(none)',
    '',
  ];
  return lines.join('\n');
}
