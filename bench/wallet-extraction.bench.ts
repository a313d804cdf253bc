// Wallet extraction benchmark: MB/s of detection + deterministic verification on a generated
// ~50 MB HTML corpus, beside a naive baseline (one regex per network applied one after another,
// then the same verification), and peak RSS while scanning a 100 MB and a 1 GB generated stream.
// BENCH_QUICK=1 runs a smaller version (10 MB corpus, 20 MB / 200 MB streams).
import v8 from 'node:v8';
import vm from 'node:vm';
import { scanCandidates, type RawCandidate } from '../domain/wallets/candidate-scanner';
import { evaluateCandidate } from '../domain/wallets/candidate-evaluation';
import { computeRanges } from '../domain/wallets/html-location';
import { WalletScanner } from '../domain/wallets/wallet-scanner';
import { corpusChunks } from './wallet-corpus';

const B58 = '[1-9A-HJ-NP-Za-km-z]';
const NB58 = '(?<![1-9A-HJ-NP-Za-km-z])';
const AB58 = '(?![1-9A-HJ-NP-Za-km-z])';
const B32L = '[02-9ac-hj-np-z]';
/** What a careful "one regex per network" extractor looks like (alphabet-complement boundaries). */
export const NAIVE_PATTERNS: RegExp[] = [
  `${NB58}[13]${B58}{25,34}${AB58}`, '(?<![0-9a-z])bc1[02-9ac-hj-np-z]{11,71}(?![0-9a-z])',
  '(?<![0-9A-Za-z])0x[0-9a-fA-F]{40}(?![0-9A-Za-z])', `${NB58}T${B58}{33}${AB58}`, `${NB58}${B58}{32,44}${AB58}`,
  '(?<![0-9A-Za-z])r[1-9A-HJ-NP-Za-km-z]{24,34}(?![0-9A-Za-z])', `${NB58}X${B58}{46}${AB58}`, '(?<![0-9a-z])addr1[02-9ac-hj-np-z]{53,98}(?![0-9a-z])',
  `${NB58}Ae2${B58}{50,60}${AB58}`, `${NB58}[DA9]${B58}{33}${AB58}`, `${NB58}[LM]${B58}{33}${AB58}`, '(?<![0-9a-z])ltc1[02-9ac-hj-np-z]{39,59}(?![0-9a-z])',
  `(?<![0-9a-z:])(?:bitcoincash:)?[qp]${B32L}{41}(?![0-9a-z])`, `${NB58}[48]${B58}{94}(?:${B58}{11})?${AB58}`, `${NB58}1${B58}{46,47}${AB58}`,
  `${NB58}[C-HJ]${B58}{46}${AB58}`, `${NB58}5${B58}{47}${AB58}`, '(?<![0-9a-z])cosmos1[02-9ac-hj-np-z]{38,58}(?![0-9a-z])', '(?<![A-Z2-7])G[A-Z2-7]{55}(?![A-Z2-7])',
  '(?<![A-Z2-7])[A-Z2-7]{58}(?![A-Z2-7])', '(?<![A-Za-z0-9_+/=-])[EUk0][Qf][A-Za-z0-9_-]{46}(?![A-Za-z0-9_+/=-])', '(?<![0-9a-fA-F:])(?:0|-1):[0-9a-fA-F]{64}(?![0-9a-fA-F])',
  '(?<![0-9A-Za-z])[0-9a-f]{64}(?![0-9A-Za-z])', `${NB58}[X7]${B58}{33}${AB58}`, `${NB58}t[13]${B58}{33}${AB58}`, '(?<![0-9a-z])zs1[02-9ac-hj-np-z]{75}(?![0-9a-z])',
  '(?<![0-9a-z])f[12][a-z2-7]{39}(?![0-9a-z])', '(?<![\\w.])0\\.0\\.\\d{1,15}(?:-[a-z]{5})?(?![\\w.])', `${NB58}(?:tz[1-4]|KT1)${B58}{33}${AB58}`,
  '(?<![0-9A-Za-z])0x[0-9a-fA-F]{64}(?![0-9A-Za-z])', '(?<![0-9a-z])bnb1[02-9ac-hj-np-z]{38}(?![0-9a-z])', 'kaspa:[qp][02-9ac-hj-np-z]{60,62}(?![0-9a-z])',
  '[XP]-avax1[02-9ac-hj-np-z]{38}(?![0-9a-z])', '(?<![a-z2-7-])(?:[a-z2-7]{5}-){4,10}[a-z2-7]{3,5}(?![a-z2-7-])', '(?:nano|xrb)_[13][13-9a-km-uw-z]{59}(?![0-9a-z])',
  'osmo1[02-9ac-hj-np-z]{38}(?![0-9a-z])', `${NB58}M${B58}{33}${AB58}`,
].map((p) => new RegExp(p, 'g'));

function naiveScan(chunks: string[]): number {
  let findings = 0;
  for (const buf of chunks) {
    const { ranges } = computeRanges(buf, null);
    const ctx = { buf, base: 0, ranges, html: true };
    for (const re of NAIVE_PATTERNS) {
      re.lastIndex = 0;
      for (let m = re.exec(buf); m; m = re.exec(buf)) {
        const colon = m[0].lastIndexOf(':');
        const text = colon > 0 && !m[0].startsWith('0:') && !m[0].startsWith('-1:') ? m[0].slice(colon + 1) : m[0];
        const c: RawCandidate = { start: m.index, end: m.index + m[0].length, text, origin: 'run' };
        for (const e of evaluateCandidate(c, ctx)) if ('finding' in e) findings++;
      }
    }
  }
  return findings;
}

function ourScan(chunks: string[]): number {
  const scanner = new WalletScanner({ html: true });
  for (const c of chunks) scanner.push(c);
  return scanner.end().findings.length;
}

function candidatesOnly(chunks: string[]): number {
  let n = 0;
  for (const c of chunks) n += scanCandidates(c, 0, c.length, { html: true, eos: false }).length;
  return n;
}

/** A callable gc(), so measurements start from a clean heap and peak RSS reflects live memory. */
function exposeGc(): () => void {
  v8.setFlagsFromString('--expose_gc');
  return vm.runInNewContext('gc') as () => void;
}

function time<T>(fn: () => T): { ms: number; value: T } {
  const t = process.hrtime.bigint();
  const value = fn();
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, value };
}

function streamPeakRss(totalChars: number, gc: () => void): { peakMb: number; peakHeapMb: number; findings: number; mbps: number } {
  gc();
  const scanner = new WalletScanner({ html: true });
  let peak = process.memoryUsage().rss;
  let peakHeap = process.memoryUsage().heapUsed;
  const t = process.hrtime.bigint();
  let i = 0;
  for (const chunk of corpusChunks(totalChars, 99, 1 << 20)) {
    scanner.push(chunk);
    if ((++i & 15) === 0) {
      gc();
      const m = process.memoryUsage();
      peak = Math.max(peak, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }
  }
  const findings = scanner.end().findings.length;
  peak = Math.max(peak, process.memoryUsage().rss);
  const s = Number(process.hrtime.bigint() - t) / 1e9;
  return { peakMb: peak / 1e6, peakHeapMb: peakHeap / 1e6, findings, mbps: totalChars / 1e6 / s };
}

export async function run(): Promise<void> {
  const quick = process.env.BENCH_QUICK === '1';
  const corpusChars = (quick ? 10 : 50) * 1e6;
  const chunks = [...corpusChunks(corpusChars, 42, 1 << 20)];
  const total = chunks.reduce((s, c) => s + c.length, 0);
  const mb = total / 1e6;
  process.stdout.write(`wallet-extraction: corpus ${mb.toFixed(1)} MB of generated HTML (${chunks.length} chunks)\n`);
  const gc = exposeGc();
  ourScan(chunks.slice(0, 3)); // warm-up (JIT)
  naiveScan(chunks.slice(0, 1));
  gc();
  const cand = time(() => candidatesOnly(chunks));
  gc();
  const ours = time(() => ourScan(chunks));
  gc();
  const naive = time(() => naiveScan(chunks));
  const oursMbps = mb / (ours.ms / 1000);
  const naiveMbps = mb / (naive.ms / 1000);
  process.stdout.write(`  detection only (candidates): ${(mb / (cand.ms / 1000)).toFixed(1)} MB/s, ${cand.value} candidates\n`);
  process.stdout.write(`  ours  (detection + deterministic verification): ${oursMbps.toFixed(1)} MB/s, ${ours.value} distinct findings\n`);
  process.stdout.write(`  naive (${NAIVE_PATTERNS.length} regexes one after another + same verification): ${naiveMbps.toFixed(1)} MB/s, ${naive.value} findings (not deduplicated)\n`);
  process.stdout.write(`  ratio ours/naive: ${(oursMbps / naiveMbps).toFixed(2)}x\n`);
  const small = streamPeakRss((quick ? 20 : 100) * 1e6, gc);
  const large = streamPeakRss((quick ? 200 : 1000) * 1e6, gc);
  process.stdout.write(`  streamed ${quick ? 20 : 100} MB: peak RSS ${small.peakMb.toFixed(0)} MB, peak live heap ${small.peakHeapMb.toFixed(0)} MB (sampled after GC every 16 MB; ${small.mbps.toFixed(0)} MB/s incl. generation, ${small.findings} findings)\n`);
  process.stdout.write(`  streamed ${quick ? 200 : 1000} MB: peak RSS ${large.peakMb.toFixed(0)} MB, peak live heap ${large.peakHeapMb.toFixed(0)} MB (sampled after GC every 16 MB; ${large.mbps.toFixed(0)} MB/s incl. generation, ${large.findings} findings)\n`);
}

if (require.main === module) {
  run().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
