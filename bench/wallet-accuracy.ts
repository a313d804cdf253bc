// Accuracy of the wallet engine on generated realistic scam pages with ground truth
// (test/support/scam-page-generator.ts): recall, precision, network accuracy, token accuracy and
// memo accuracy. `npm run bench -- wallet` prints them; WALLET_ENGINE_DIR=<dir> measures another
// copy of domain/wallets (for before/after figures).
import path from 'node:path';
import { accuracyPages, type GeneratedPage } from '../test/support/scam-page-generator';
import type { ExtractionResult } from '../domain/wallets/wallet-types';
import { REAL_CORPUS, type RealDoc, type RealDocClass } from '../test/support/real-wallet-corpus';

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

export interface RealAccuracy {
  docs: number;
  wallets: number;
  findings: number;
  recall: number;
  precision: number;
  network: number;
  token: number;
  /** Precision per document class (donation, contract-list, program-ids): findings and true positives. */
  byClass: Map<RealDocClass, { findings: number; truePositives: number }>;
  misses: string[];
  falsePositives: string[];
  wrong: string[];
}

/** An address as rows and the ground truth write it: EVM hex lower-cased, the cashaddr prefix dropped. */
const normReal = (a: string): string => (/^0x/i.test(a) ? a.toLowerCase() : a.replace(/^bitcoincash:/, ''));

/** Scores the engine on the real public documents of test/support/real-wallet-corpus.ts. */
export function scoreRealCorpus(extract: Extract, docs: readonly RealDoc[] = REAL_CORPUS): RealAccuracy {
  const out: RealAccuracy = { docs: docs.length, wallets: 0, findings: 0, recall: 0, precision: 0, network: 0, token: 0, byClass: new Map(), misses: [], falsePositives: [], wrong: [] };
  let found = 0;
  let truePositives = 0;
  let networkOk = 0;
  let tokenOk = 0;
  for (const d of docs) {
    const r = (extract as (input: { html?: string; text?: string }) => ExtractionResult)(d.html !== undefined ? { html: d.html } : { text: d.text ?? '' });
    const truth = new Map(d.wallets.map((w) => [normReal(w.address), w]));
    const cls = out.byClass.get(d.class) ?? { findings: 0, truePositives: 0 };
    out.wallets += truth.size;
    out.findings += r.findings.length;
    cls.findings += r.findings.length;
    const seen = new Set<string>();
    for (const f of r.findings) {
      const w = truth.get(normReal(f.address));
      if (!w) {
        out.falsePositives.push(`${d.id}: ${f.address} (${f.network}, ${f.reason})`);
        continue;
      }
      truePositives++;
      cls.truePositives++;
      if (seen.has(normReal(f.address))) continue;
      seen.add(normReal(f.address));
      if (f.networkId === w.network) networkOk++;
      if (w.tokens.includes(f.token)) tokenOk++;
      if (f.networkId !== w.network || !w.tokens.includes(f.token)) out.wrong.push(`${d.id}: ${f.address}: ${f.token}/${f.networkId} expected ${w.tokens.join('|')}/${w.network}`);
    }
    found += seen.size;
    for (const [k, w] of truth) if (!seen.has(k)) out.misses.push(`${d.id}: ${w.address}`);
    out.byClass.set(d.class, cls);
  }
  out.recall = out.wallets ? found / out.wallets : 1;
  out.precision = out.findings ? truePositives / out.findings : 1;
  out.network = found ? networkOk / found : 1;
  out.token = found ? tokenOk / found : 1;
  return out;
}

export function formatRealAccuracy(a: RealAccuracy): string {
  const classes = [...a.byClass].map(([c, v]) => `${c} ${v.findings ? pct(v.truePositives / v.findings) : 'n/a'} (${v.findings} rows)`).join(', ');
  return `recall ${pct(a.recall)} (${Math.round(a.recall * a.wallets)}/${a.wallets} wallets), precision ${pct(a.precision)} (${a.findings} rows; ${classes}), network ${pct(a.network)}, token ${pct(a.token)}`;
}

/** The default accuracy set: 25 pages, seed 2026 (about 110 wallets). */
export function defaultAccuracyPages(): GeneratedPage[] {
  return accuracyPages(2026, 25);
}

if (require.main === module) {
  void (async () => {
    const extract = await loadExtract();
    const a = scoreAccuracy(extract, defaultAccuracyPages());
    process.stdout.write(`generated pages: ${formatAccuracy(a)}\n`);
    const real = scoreRealCorpus(extract);
    process.stdout.write(`real public documents (${real.docs}): ${formatRealAccuracy(real)}\n`);
    if (process.env.VERBOSE) process.stdout.write(`real: misses:\n  ${real.misses.join('\n  ')}\nfalse positives:\n  ${real.falsePositives.join('\n  ')}\nwrong:\n  ${real.wrong.join('\n  ')}\n`);
    if (process.env.VERBOSE) process.stdout.write(`misses:\n  ${a.misses.join('\n  ')}\nfalse positives:\n  ${a.falsePositives.join('\n  ')}\nwrong:\n  ${a.wrong.join('\n  ')}\n`);
  })();
}
