// One extraction over a snapshot (a page transition, a coin-tab click, the final sweep) through the
// wallet engine's entry points, and its results written where they belong: the scan's wallets, the
// state in which each was first found, and the shared graph (a sighting per scan).
import type { Knex } from 'knex';
import { extractWallets } from '../../domain/wallets/extract-wallets';
import type { AllowlistPair, ExtractionResult } from '../../domain/wallets/wallet-types';
import type { PagePii } from '../../domain/investigations/page-pii';
import { recordSourceEntities, type EntityLink, type EntityMention } from '../../db/repositories/intelligence/entity-repository';
import { insertPii, recordWalletStates } from '../../db/repositories/investigations/investigation-repository';
import { upsertWallets } from '../../db/repositories/wallets/wallet-repository';
import { extractWalletsFromImages } from '../wallets/qr-codes';
import { finishExtraction } from '../wallets/wallet-extraction';
import type { WalletLlmVerifier } from '../wallets/llm-verification';

export interface FindingsDeps {
  knex: Knex;
  allowlist: readonly AllowlistPair[];
  verifier?: WalletLlmVerifier;
}

export interface Snapshot {
  scanId: string;
  state: string;
  pageUrl: string;
  /** The DOM (HTML), or `text` for JSON responses. */
  html?: string;
  text?: string;
  title?: string;
  coinTab?: string;
}

export interface RecordedFindings {
  wallets: number;
  addresses: string[];
}

/** Extracts wallets from one snapshot and records them; returns how many were found. */
export async function recordSnapshotWallets(deps: FindingsDeps, s: Snapshot): Promise<RecordedFindings> {
  const deterministic = extractWallets(s.html !== undefined ? { html: s.html, url: s.pageUrl, coinTab: s.coinTab } : { text: s.text ?? '', url: s.pageUrl, coinTab: s.coinTab });
  return recordExtraction(deps, s, deterministic);
}

export interface ImageSnapshot {
  scanId: string;
  state: string;
  pageUrl: string;
  title?: string;
  /** PNG/JPEG/WebP: the page's screenshot and its image-like elements (img, canvas, svg). */
  images: readonly Buffer[];
}

/**
 * Wallets shown only as QR codes: every QR code in the page's screenshot and in
 * its image-like elements is decoded and scanned with the same engine as `fip ssi wallet scan`
 * (source `qr`), then recorded like any other finding.
 */
export async function recordImageWallets(deps: FindingsDeps, s: ImageSnapshot): Promise<RecordedFindings & { qrCodes: number }> {
  const deterministic = await extractWalletsFromImages(s.images);
  const recorded = await recordExtraction(deps, s, deterministic);
  return { ...recorded, qrCodes: deterministic.qrCodes };
}

async function recordExtraction(deps: FindingsDeps, s: { scanId: string; state: string; pageUrl: string; title?: string }, deterministic: ExtractionResult): Promise<RecordedFindings> {
  const result = await finishExtraction(deterministic, { verifier: deps.verifier, allowlist: deps.allowlist, page: { url: s.pageUrl, title: s.title }, keepRejected: false });
  const findings = result.findings;
  if (findings.length) {
    await upsertWallets(deps.knex, s.scanId, findings.map((f) => ({ ...f, pageUrl: s.pageUrl })));
    await recordWalletStates(deps.knex, s.scanId, findings.map((f) => ({ network: f.network, token: f.token, address: f.address, state: s.state, pageUrl: s.pageUrl })));
    const mentions: EntityMention[] = [
      { type: 'url', value: s.pageUrl, context: { state: s.state } },
      ...findings.map((f) => ({ type: 'wallet' as const, value: f.address, attributes: { network: f.network, token: f.token }, context: { page_url: s.pageUrl, state: s.state, source: f.source } })),
    ];
    const links: EntityLink[] = findings.map((f) => ({ src: { type: 'url', value: s.pageUrl }, dst: { type: 'wallet', value: f.address }, kind: 'pays_to' }));
    await recordSourceEntities(deps.knex, { kind: 'investigation', id: s.scanId }, mentions, links);
  }
  return { wallets: findings.length, addresses: findings.map((f) => f.address) };
}

/** The page itself in the graph: its URL, domain, server IP and the PII seen on it. */
export async function recordPageEntities(knex: Knex, scanId: string, page: { url: string; serverIp: string | null; pii: readonly PagePii[] }): Promise<void> {
  const host = new URL(page.url).hostname.replace(/^\[|\]$/g, '');
  const mentions: EntityMention[] = [{ type: 'url', value: page.url }, { type: 'domain', value: host }];
  const links: EntityLink[] = [{ src: { type: 'domain', value: host }, dst: { type: 'url', value: page.url }, kind: 'hosts' }];
  if (page.serverIp) {
    mentions.push({ type: 'ip', value: page.serverIp });
    links.push({ src: { type: 'domain', value: host }, dst: { type: 'ip', value: page.serverIp }, kind: 'resolves_to' });
  }
  for (const p of page.pii) {
    const context = { page_url: page.url, pii_kind: p.kind };
    // A WhatsApp handle is a phone number; a Telegram handle is a social handle.
    if (p.kind === 'telegram') mentions.push({ type: 'social_handle', value: `telegram:${p.value}`, context });
    else mentions.push({ type: p.kind === 'email' ? 'email' : 'phone', value: p.value, context });
  }
  await insertPii(knex, scanId, page.pii.map((p) => ({ ...p, pageUrl: page.url })));
  await recordSourceEntities(knex, { kind: 'investigation', id: scanId }, mentions, links);
}
