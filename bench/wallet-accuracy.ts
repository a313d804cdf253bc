// Accuracy of the wallet engine on generated realistic scam pages with ground truth
// (test/support/scam-page-generator.ts): recall, precision, network accuracy, token accuracy and
// memo accuracy. `npm run bench -- wallet` prints them; WALLET_ENGINE_DIR=<dir> measures another
// copy of domain/wallets (for before/after figures).
import path from 'node:path';
import { accuracyPages, type GeneratedPage } from '../test/support/scam-page-generator';
import type { ExtractionResult } from '../domain/wallets/wallet-types';

export type Extract = (input: { html: string }) => ExtractionResult;

export interface Accuracy {
  pages: number;
  wallets: number;
  findings: number;
  recall: number;
  precision: number;
  network: number;
  token: number;
  memo: number;
  decoysReported: number;
  misses: string[];
  falsePositives: string[];
  wrong: string[];
}

const norm = (a: string): string => (/^0x/i.test(a) ? a.toLowerCase() : a);

export function scoreAccuracy(extract: Extract, pages: GeneratedPage[]): Accuracy {
  let wallets = 0;
  let findings = 0;
  let found = 0;
  let truePositives = 0;
  let networkOk = 0;
  let tokenOk = 0;
  let memoTotal = 0;
  let memoOk = 0;
  let decoysReported = 0;
  const misses: string[] = [];
  const falsePositives: string[] = [];
  const wrong: string[] = [];
  for (const p of pages) {
    const r = extract({ html: p.html });
    const truth = new Map<string, (typeof p.wallets)[number]>();
    for (const w of p.wallets) truth.set(norm(w.address), w);
    wallets += truth.size;
    findings += r.findings.length;
    const decoys = new Set(p.decoys.map(norm));
    const seen = new Set<string>();
    for (const f of r.findings) {
      const w = truth.get(norm(f.address));
      if (!w) {
        falsePositives.push(`${f.address} (${f.network}, ${f.reason})`);
        if (decoys.has(norm(f.address))) decoysReported++;
        continue;
      }
      truePositives++;
      if (seen.has(norm(f.address))) continue;
      seen.add(norm(f.address));
      if (f.networkId === w.networkId) networkOk++;
      if (f.token === w.token) tokenOk++;
      if (f.networkId !== w.networkId || f.token !== w.token) wrong.push(`${f.address}: ${f.token}/${f.networkId} (${f.networkBasis}/${f.tokenBasis}) expected ${w.token}/${w.networkId}`);
      if (w.memo) {
        memoTotal++;
        if (f.memo === w.memo) memoOk++;
      }
    }
    found += seen.size;
    for (const [k, w] of truth) if (!seen.has(k)) misses.push(`${w.address} (${w.token}/${w.networkId})`);
  }
  return {
    pages: pages.length, wallets, findings, recall: found / wallets, precision: findings ? truePositives / findings : 1,
    network: found ? networkOk / found : 1, token: found ? tokenOk / found : 1, memo: memoTotal ? memoOk / memoTotal : 1, decoysReported, misses, falsePositives, wrong,
  };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

export function formatAccuracy(a: Accuracy): string {
  return `recall ${pct(a.recall)} (${Math.round(a.recall * a.wallets)}/${a.wallets} wallets), precision ${pct(a.precision)} (${a.findings} rows, ${a.decoysReported} decoys reported), network ${pct(a.network)}, token ${pct(a.token)}, memo ${pct(a.memo)}`;
}

export async function loadExtract(): Promise<Extract> {
  const dir = process.env.WALLET_ENGINE_DIR;
  const mod = (await import(dir ? path.join(dir, 'extract-wallets.ts') : '../domain/wallets/extract-wallets')) as { extractWallets: Extract };
  return mod.extractWallets;
}

/** The default accuracy set: 25 pages, seed 2026 (about 110 wallets). */
export function defaultAccuracyPages(): GeneratedPage[] {
  return accuracyPages(2026, 25);
}

if (require.main === module) {
  void (async () => {
    const a = scoreAccuracy(await loadExtract(), defaultAccuracyPages());
    process.stdout.write(`${formatAccuracy(a)}\n`);
    if (process.env.VERBOSE) process.stdout.write(`misses:\n  ${a.misses.join('\n  ')}\nfalse positives:\n  ${a.falsePositives.join('\n  ')}\nwrong:\n  ${a.wrong.join('\n  ')}\n`);
  })();
}
