// The after-reveal records of an investigation: after every reveal (a coin-tab click, a playbook
// step) the page's screenshot and DOM snapshot, and the HTTP exchanges the reveal caused (the XHR
// answer that carried the address), each stored as its own record named `reveal-<n>-<step>` among
// the scan's responses (`<page url>#fip-reveal=<name>.png|.html|.har`); exchanges that arrive after
// the last capture are stored at the session's end as `late-<n>.har`. The evidence bundle archives
// them as WARC resource records (screenshot, DOM), WARC response and request records (the HAR's
// exchanges) and files under `reveals/` (services/evidence/evidence-bundle.ts).
import type { Knex } from 'knex';
import type { BlobStore } from '../../infra/blob-store';
import { appendActions, countReveals, insertResponses, REVEAL_MARK } from '../../db/repositories/investigations/investigation-repository';
import type { TruncatedResponse } from '../../infra/crawler/crawler-session';
import type { RevealCapture } from '../../infra/crawler/page-capture';

export interface RevealDeps {
  knex: Knex;
  blobs: BlobStore;
}

/** A step's name as it appears in a record name: lower-case letters, digits and dashes, at most 40. */
export function revealSlug(step: string): string {
  return step.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'step';
}

/**
 * Stores one reveal's screenshot, DOM snapshot and (when given, with exchanges) HAR as records
 * `reveal-<n>-<step>.*`, and its `capture_reveal` action (with the hashes). Answers the record name.
 */
export async function storeReveal(
  deps: RevealDeps,
  input: { scanId: string; state: string; pageUrl: string; step: string; actionKey: string; capture: RevealCapture; har?: Buffer | null },
): Promise<string> {
  const n = (await countReveals(deps.knex, input.scanId)) + 1;
  const name = `reveal-${String(n).padStart(4, '0')}-${revealSlug(input.step)}`;
  const base = `${input.pageUrl.split('#')[0]}${REVEAL_MARK}${name}`;
  const shot = await deps.blobs.put(input.capture.screenshot);
  const dom = await deps.blobs.put(Buffer.from(input.capture.html, 'utf8'));
  const rows = [
    { url: `${base}.png`, contentType: 'image/png', blobKey: shot.key, sha256: shot.sha256 },
    { url: `${base}.html`, contentType: 'text/html', blobKey: dom.key, sha256: dom.sha256 },
  ];
  if (input.har) {
    const har = await deps.blobs.put(input.har);
    rows.push({ url: `${base}.har`, contentType: 'application/har+json', blobKey: har.key, sha256: har.sha256 });
  }
  // The HTML row last: countReveals counts those, so a retried reveal never reuses a number half-stored.
  await insertResponses(deps.knex, input.scanId, rows.filter((r) => r.contentType !== 'text/html'));
  await insertResponses(deps.knex, input.scanId, rows.filter((r) => r.contentType === 'text/html'));
  await appendActions(deps.knex, input.scanId, [{
    key: `reveal|${input.actionKey}`, state: input.state, action: 'capture_reveal', target: name,
    outcome: rows.map((r) => `${r.url.slice(r.url.lastIndexOf('.') + 1)} ${r.sha256.slice(0, 12)}`).join(', '),
  }]);
  return name;
}

/** Stores the exchanges no capture took (answers after the last reveal) as `late-<n>.har`. */
export async function storeLateExchanges(deps: RevealDeps, input: { scanId: string; state: string; pageUrl: string; har: Buffer; exchanges: number }): Promise<void> {
  const blob = await deps.blobs.put(input.har);
  const name = `late-${blob.sha256.slice(0, 12)}.har`;
  await insertResponses(deps.knex, input.scanId, [{ url: `${input.pageUrl.split('#')[0]}${REVEAL_MARK}${name}`, contentType: 'application/har+json', blobKey: blob.key, sha256: blob.sha256 }]);
  await appendActions(deps.knex, input.scanId, [{ key: `late|${blob.sha256}`, state: input.state, action: 'capture_exchanges', target: name, outcome: `${input.exchanges} exchange(s) after the last capture` }]);
}

/** Every response the archive holds only in part, as an `archive_truncated` action with its URL and reason. */
export async function recordTruncatedResponses(knex: Knex, scanId: string, state: string, truncated: readonly TruncatedResponse[]): Promise<void> {
  if (!truncated.length) return;
  await appendActions(knex, scanId, truncated.map((t, i) => ({ key: `truncated|${Date.now()}|${i}|${t.url}`.slice(0, 2000), state, action: 'archive_truncated', target: t.url, outcome: t.reason })));
}
