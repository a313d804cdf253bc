// Numbers the documentation promises, read from the page that states them, so a test checks exactly
// what the documentation says (and fails when one of them changes without the other).
import fs from 'node:fs';
import path from 'node:path';

const WALLETS_PAGE = path.join(__dirname, '..', '..', 'docs', 'wallets.md');

function promised(pattern: RegExp, what: string): number {
  const match = pattern.exec(fs.readFileSync(WALLETS_PAGE, 'utf8'));
  if (!match) throw new Error(`docs/wallets.md no longer states ${what} (${pattern})`);
  return Number(match[1]);
}

/** "**Detection** for 39 networks" */
export const promisedNetworkCount = (): number => promised(/\*\*Detection\*\* for (\d+) networks/, 'the number of detected networks');

/** "`config/wallet_allowlist.json`, 68 token-network pairs" */
export const promisedAllowlistPairs = (): number =>
  promised(/`config\/wallet_allowlist\.json`, (\d+) token-network pairs/, 'the number of allowlist pairs');
