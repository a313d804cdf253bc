// What a coin tab shows besides its DOM (read by the DOM extraction): the answers the click brought
// (JSON responses), what its copy buttons write to the clipboard, and its QR images. Each is
// extracted with the tab's label, so every address found keeps its coin tab, however the page's
// script rebuilt the panel. One `read_coin_tab` agent action says what was read.
import { appendActions } from '../../db/repositories/investigations/investigation-repository';
import type { CrawlerSession } from '../../infra/crawler/crawler-session';
import { clickCopyButtons, takeClipboardWrites } from '../../infra/crawler/page-actions';
import { qrCandidateShots } from '../../infra/crawler/page-images';
import { decodeQrCodes } from '../wallets/qr-codes';
import { recordSnapshotWallets, type FindingsDeps } from './record-findings';

export interface CoinTabRead {
  state: string;
  pageUrl: string;
  label: string;
  /** The action key of the tab's click (the read is recorded once per click). */
  key: string;
  /** session.jsonResponses.length before the click: the answers after it are the tab's. */
  jsonSince: number;
}

/** Reads the tab's responses, clipboard writes and QR codes; answers the wallets found. */
export async function readCoinTab(deps: FindingsDeps, session: CrawlerSession, tab: CoinTabRead): Promise<number> {
  const page = session.page;
  const responses = session.jsonResponses.slice(tab.jsonSince).map((r) => r.body.toString('utf8'));
  await clickCopyButtons(page);
  const clipboard = await takeClipboardWrites(page);
  const qr: string[] = [];
  for (const shot of await qrCandidateShots(page, 6)) qr.push(...(await decodeQrCodes(shot).catch(() => [])));
  let wallets = 0;
  for (const text of [...responses, ...clipboard, ...qr]) {
    const found = await recordSnapshotWallets(deps, { scanId: session.scanId, state: tab.state, pageUrl: tab.pageUrl, text, coinTab: tab.label });
    wallets += found.wallets;
  }
  await appendActions(deps.knex, session.scanId, [{
    key: `read|${tab.key}`, state: tab.state, action: 'read_coin_tab', target: tab.label,
    outcome: `${responses.length} response(s), ${clipboard.length} clipboard write(s), ${qr.length} QR code(s)`, walletsFound: wallets,
  }]);
  return wallets;
}
