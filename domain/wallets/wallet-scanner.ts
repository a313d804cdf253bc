// Streaming wallet scanner: text is pushed in chunks of any size and scanned in overlapping windows
// (a left margin for context, a right overlap so no address or context is cut), so memory stays
// bounded by the window size plus the distinct findings, whatever the input size.
import { scanCandidates } from './candidate-scanner';
import { evaluateCandidate } from './candidate-evaluation';
import { CONFIDENCE_RANK } from './confidence-rules';
import { type CoinTabHint, parseCoinTab } from './context-hints';
import { computeRanges, type RangeKind, rangeAt } from './html-location';
import type { ExtractionResult, RejectedCandidate, WalletFinding } from './wallet-types';

export interface ScanTarget {
  /** Coin-tab label that was active when the snapshot was taken (`BTC`, `USDT-TRC20`, ...). */
  coinTab?: string;
  /** Page URL (kept for callers; not used for detection). */
  url?: string;
  /** true = HTML, false = plain text; undefined = sniff the first chunk. */
  html?: boolean;
}

export interface ScannerOptions {
  /** Keep the rejected candidates with their reasons (`--all`). */
  includeRejected?: boolean;
  /** At most this many rejected entries are kept (memory bound); default 10 000. */
  maxRejected?: number;
  /** Window size in UTF-16 code units; default 1 MiB. */
  chunkSize?: number;
}

/** Right overlap: longest candidate plus context radius, rounded up. */
const OVERLAP = 4096;
/** Left margin kept from the previous window for context and scheme look-back. */
const MARGIN = 4096;

const HTML_SNIFF = /<(?:!doctype|html|head|body|div|span|p|a|script|meta|table|input|button|img|section|form|li|br)\b/i;

export class WalletScanner {
  private buf = '';
  /** Chunks pushed since the last window, joined once (one flat copy) when the window is scanned. */
  private pending: string[] = [];
  private pendingLength = 0;
  private base = 0;
  private processedTo = 0;
  private openRange: RangeKind | null = null;
  private html: boolean | undefined;
  private readonly coinTab?: CoinTabHint;
  private readonly findings = new Map<string, WalletFinding>();
  private readonly rejected = new Map<string, RejectedCandidate>();
  private readonly chunkSize: number;
  private ended = false;

  constructor(target: ScanTarget = {}, private readonly options: ScannerOptions = {}) {
    this.html = target.html;
    this.coinTab = target.coinTab ? parseCoinTab(target.coinTab) : undefined;
    this.chunkSize = Math.max(options.chunkSize ?? 1 << 20, 16 * 1024);
  }

  /** Adds text; scans every full window. */
  push(chunk: string): void {
    if (this.ended) throw new Error('WalletScanner: push after end');
    this.pending.push(chunk);
    this.pendingLength += chunk.length;
    if (this.html === undefined && this.buf.length + this.pendingLength >= 4096) this.sniff();
    while (this.buf.length + this.pendingLength - (this.processedTo - this.base) >= this.chunkSize + OVERLAP) this.process(false);
  }

  /** Scans what is left and returns every finding (and rejection when asked for). */
  end(): ExtractionResult {
    if (!this.ended) {
      if (this.html === undefined) this.sniff();
      this.process(true);
      this.ended = true;
      this.buf = '';
    }
    return this.result();
  }

  /** Findings so far, strongest first then by offset. */
  result(): ExtractionResult {
    const findings = [...this.findings.values()].sort((a, b) => CONFIDENCE_RANK[b.confidence] - CONFIDENCE_RANK[a.confidence] || a.offset - b.offset);
    const rejected = [...this.rejected.values()].sort((a, b) => a.offset - b.offset);
    return { findings, rejected };
  }

  private flush(): void {
    if (!this.pending.length) return;
    this.buf = this.buf.length ? [this.buf, ...this.pending].join('') : this.pending.length === 1 ? this.pending[0] : this.pending.join('');
    this.pending = [];
    this.pendingLength = 0;
  }

  private sniff(): void {
    this.flush();
    this.html = HTML_SNIFF.test(this.buf.slice(0, 8192));
  }

  private process(final: boolean): void {
    this.flush();
    const from = this.processedTo - this.base;
    const to = final ? this.buf.length : this.buf.length - OVERLAP;
    if (to <= from && !final) return;
    const { ranges } = computeRanges(this.buf, this.openRange);
    const html = this.html ?? false;
    const ctx = { buf: this.buf, base: this.base, ranges, html, coinTab: this.coinTab };
    const eos = !!this.coinTab && (this.coinTab.networks.has('eos') || this.coinTab.tokens.has('EOS'));
    for (const c of scanCandidates(this.buf, from, to, { html, eos })) {
      for (const e of evaluateCandidate(c, ctx)) {
        if ('finding' in e) this.addFinding(e.finding);
        else this.addRejected(e.rejected);
      }
    }
    this.processedTo = this.base + to;
    if (final) return;
    const keepFrom = Math.max(0, to - MARGIN);
    const open = rangeAt(ranges, keepFrom);
    this.openRange = open && open.start <= keepFrom ? open.kind : null;
    this.buf = this.buf.slice(keepFrom);
    this.base += keepFrom;
  }

  private addFinding(f: WalletFinding): void {
    const key = `${f.networkId}|${f.token}|${f.address.toLowerCase()}`;
    const prev = this.findings.get(key);
    if (!prev) {
      this.findings.set(key, f);
      return;
    }
    if (CONFIDENCE_RANK[f.confidence] > CONFIDENCE_RANK[prev.confidence]) {
      this.findings.set(key, { ...f, offset: prev.offset, occurrences: prev.occurrences + 1 });
    } else if (f.confidence === prev.confidence && prev.location === 'text' && f.location !== 'text') {
      // Same strength: prefer the location that hands the address over (copy button, URI, input).
      this.findings.set(key, { ...prev, source: f.source, location: f.location, occurrences: prev.occurrences + 1 });
    } else {
      prev.occurrences += 1;
    }
  }

  private addRejected(r: RejectedCandidate): void {
    if (!this.options.includeRejected) return;
    const key = `${r.candidate}|${r.reason}`;
    if (this.rejected.has(key) || this.rejected.size >= (this.options.maxRejected ?? 10_000)) return;
    this.rejected.set(key, r);
  }
}
