// Streaming wallet scanner: text is pushed in chunks of any size and scanned in overlapping windows
// (a left margin for context, a right overlap so no address or context is cut), so memory stays
// bounded by the window size plus the distinct findings, whatever the input size.
import type { Via } from './candidate-runs';
import { scanCandidates } from './candidate-scanner';
import { type Decoded, evaluateCandidate } from './candidate-evaluation';
import { CONFIDENCE_RANK } from './confidence-rules';
import { type CoinTabHint, parseCoinTab } from './context-hints';
import { computeRanges, type RangeKind, rangeAt, type RawRange } from './html-location';
import type { ExtractionResult, NetworkBasis, RejectedCandidate, TokenBasis, WalletFinding } from './wallet-types';

export interface ScanTarget {
  /** Coin-tab label that was active when the snapshot was taken (`BTC`, `USDT-TRC20`, ...). */
  coinTab?: string;
  /** Page URL (kept for callers; not used for detection). */
  url?: string;
  /** true = HTML, false = plain text; undefined = sniff the first chunk. */
  html?: boolean;
  /** The text came out of a transport decoding (e.g. `qr`: QR-code payloads); it becomes the source. */
  via?: Via;
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
/** A pushed chunk at least this long is scanned in place (scanInPlace) rather than copied into the window. */
const IN_PLACE_MIN = 64 * 1024;
/** The seam of an in-place chunk ends at most this far into it (the first `>` after MARGIN, on HTML). */
const IN_PLACE_SEAM = 32 * 1024;

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
  private readonly via?: Via;
  /** Readings of each address (normalised), keyed by network|token: resolved into rows by result(). */
  private readonly findings = new Map<string, Map<string, WalletFinding>>();
  private readonly rejected = new Map<string, RejectedCandidate>();
  /** Decoded addresses of this document (evaluateCandidate's per-document cache). */
  private readonly decoded = new Map<string, Map<string, Decoded>>();
  private readonly chunkSize: number;
  private ended = false;

  constructor(target: ScanTarget = {}, private readonly options: ScannerOptions = {}) {
    this.html = target.html;
    this.coinTab = target.coinTab ? parseCoinTab(target.coinTab) : undefined;
    this.via = target.via;
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

  /**
   * Findings so far, strongest first then by offset: one row per address and network, resolved by
   * evidence strength (resolveAddress); the readings that lost are rejections of stage `resolution`
   * (kept only with includeRejected, i.e. `--all`).
   */
  result(): ExtractionResult {
    const findings: WalletFinding[] = [];
    const lost: RejectedCandidate[] = [];
    for (const readings of this.findings.values()) {
      const r = resolveAddress([...readings.values()]);
      findings.push(...r.kept);
      if (this.options.includeRejected) lost.push(...r.lost);
    }
    findings.sort((a, b) => CONFIDENCE_RANK[b.confidence] - CONFIDENCE_RANK[a.confidence] || a.offset - b.offset);
    const rejected = [...this.rejected.values(), ...lost].sort((a, b) => a.offset - b.offset);
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
    if (!final && this.pending.length && this.scanInPlace()) return;
    this.flush();
    const from = this.processedTo - this.base;
    const to = final ? this.buf.length : this.buf.length - OVERLAP;
    if (to <= from && !final) return;
    const { ranges } = computeRanges(this.buf, this.openRange);
    this.scanWindow(this.buf, this.base, ranges, from, to);
    this.processedTo = this.base + to;
    if (final) return;
    this.keepTail(this.buf, this.base, ranges, to);
  }

  /** Candidates anchored in [from, to) of `buf` (whose first character is at absolute offset `base`), evaluated and recorded. */
  private scanWindow(buf: string, base: number, ranges: RawRange[], from: number, to: number): void {
    const html = this.html ?? false;
    const ctx = { buf, base, ranges, html, coinTab: this.coinTab, via: this.via, decoded: this.decoded };
    const eos = !!this.coinTab && (this.coinTab.networks.has('eos') || this.coinTab.tokens.has('EOS'));
    for (const c of scanCandidates(buf, from, to, { html, eos })) {
      for (const e of evaluateCandidate(c, ctx)) {
        if ('finding' in e) this.addFinding(e.finding);
        else this.addRejected(e.rejected);
      }
    }
  }

  /** After a window scanned up to `to`: its last MARGIN characters before `to` (and all after) stay as the next window's start. */
  private keepTail(buf: string, base: number, ranges: RawRange[], to: number): void {
    const keepFrom = Math.max(0, to - MARGIN);
    const open = rangeAt(ranges, keepFrom);
    this.openRange = open && open.start <= keepFrom ? open.kind : null;
    this.buf = buf.slice(keepFrom);
    this.base = base + keepFrom;
  }

  /**
   * The first pending chunk, when large, scanned where it lies instead of copied behind the kept
   * tail (one copy of every character of the input was a tenth of the scan): the seam (tail plus
   * the chunk's first P characters, P >= MARGIN) is joined and scanned as a small window of its own,
   * then the chunk from P on, in place. Every candidate has at least MARGIN characters before it and
   * OVERLAP after it, as in a joined window. On HTML, P is just after a `>`, so no script, style or
   * comment opener is cut there and the range state at P read from the seam is exact. False (nothing
   * done) when the chunk is small or holds no `>` near its start.
   */
  private scanInPlace(): boolean {
    const chunk = this.pending[0];
    if (chunk.length < IN_PLACE_MIN) return false;
    let p = MARGIN;
    if (this.html) {
      p = chunk.indexOf('>', MARGIN - 1) + 1;
      if (p <= 0 || p > IN_PLACE_SEAM) return false;
    }
    const tail = this.buf;
    const chunkBase = this.base + tail.length;
    const seam = tail + chunk.slice(0, p + OVERLAP);
    const seamRanges = computeRanges(seam, this.openRange).ranges;
    this.scanWindow(seam, this.base, seamRanges, this.processedTo - this.base, tail.length + p);
    // The chunk's ranges: the seam's before P (in chunk coordinates, for look-backs), then a parse from P.
    const shift = tail.length;
    const ranges: RawRange[] = [];
    for (const r of seamRanges) if (r.start < shift + p) ranges.push({ start: r.start - shift, end: r.end - shift, kind: r.kind });
    const atP = rangeAt(seamRanges, shift + p);
    const rest = computeRanges(chunk, atP ? atP.kind : null, p).ranges;
    if (atP && rest.length && rest[0].start === p && atP.start < shift + p) {
      // The range open at P continues: one range, from where the seam saw it open.
      rest[0].start = atP.start - shift;
      ranges.pop();
    }
    for (const r of rest) ranges.push(r);
    const to = chunk.length - OVERLAP;
    this.scanWindow(chunk, chunkBase, ranges, p, to);
    this.pending.shift();
    this.pendingLength -= chunk.length;
    this.processedTo = chunkBase + to;
    this.keepTail(chunk, chunkBase, ranges, to);
    return true;
  }

  private addFinding(f: WalletFinding): void {
    const addressKey = /^0x|^bc1|^ltc1|^bitcoincash:|^kaspa:/i.test(f.address) ? f.address.toLowerCase() : f.address;
    let readings = this.findings.get(addressKey);
    if (!readings) this.findings.set(addressKey, (readings = new Map()));
    const key = `${f.networkId}|${f.token}`;
    const prev = readings.get(key);
    if (!prev) {
      readings.set(key, f);
      return;
    }
    const stronger = CONFIDENCE_RANK[f.confidence] - CONFIDENCE_RANK[prev.confidence] || NETWORK_RANK[f.networkBasis] - NETWORK_RANK[prev.networkBasis] || TOKEN_RANK[f.tokenBasis] - TOKEN_RANK[prev.tokenBasis];
    if (stronger > 0) {
      readings.set(key, { ...f, offset: prev.offset, occurrences: prev.occurrences + 1, memo: f.memo ?? prev.memo });
    } else if (stronger === 0 && prev.location === 'text' && f.location !== 'text') {
      // Same strength: prefer the location that hands the address over (copy button, URI, input).
      readings.set(key, { ...prev, source: f.source, location: f.location, occurrences: prev.occurrences + 1, memo: prev.memo ?? f.memo });
    } else {
      prev.occurrences += 1;
      if (!prev.memo && f.memo) prev.memo = f.memo;
    }
  }

  private addRejected(r: RejectedCandidate): void {
    if (!this.options.includeRejected) return;
    const key = `${r.candidate}|${r.reason}`;
    if (this.rejected.has(key) || this.rejected.size >= (this.options.maxRejected ?? 10_000)) return;
    this.rejected.set(key, r);
  }
}

/** Strength of the evidence for a network: format or explicit statements beat structure, structure beats nearby words, anything beats the default. */
export const NETWORK_RANK: Record<NetworkBasis, number> = { format: 7, 'coin-tab': 6, uri: 6, attribute: 5, explorer: 5, structure: 4, context: 2, default: 0 };
export const TOKEN_RANK: Record<TokenBasis, number> = { 'coin-tab': 5, uri: 5, attribute: 4, structure: 4, context: 2, native: 1 };

function better(a: WalletFinding, b: WalletFinding): number {
  return NETWORK_RANK[a.networkBasis] - NETWORK_RANK[b.networkBasis] || TOKEN_RANK[a.tokenBasis] - TOKEN_RANK[b.tokenBasis]
    || CONFIDENCE_RANK[a.confidence] - CONFIDENCE_RANK[b.confidence] || b.occurrences - a.occurrences || b.offset - a.offset;
}

/**
 * The readings of one address become one row per network: the network with the strongest evidence
 * wins; another network is kept beside it only when its evidence is as strong and explicit
 * (structure or better, e.g. two EIP-681 URIs with different chain ids). Within a network the token
 * with the strongest evidence wins. The row carries the highest confidence seen for the address
 * (it is the same string, so the same wallet) and the first offset; the others are returned as lost.
 */
export function resolveAddress(readings: WalletFinding[]): { kept: WalletFinding[]; lost: RejectedCandidate[] } {
  if (readings.length === 1) return { kept: readings, lost: [] };
  const sorted = [...readings].sort((a, b) => better(b, a));
  const top = sorted[0];
  const topRank = NETWORK_RANK[top.networkBasis];
  const byNetwork = new Map<string, WalletFinding>();
  for (const r of sorted) {
    if (byNetwork.has(r.networkId)) continue;
    if (r === top || (topRank >= NETWORK_RANK.structure && NETWORK_RANK[r.networkBasis] === topRank)) byNetwork.set(r.networkId, r);
  }
  const maxConfidence = readings.reduce((m, r) => (CONFIDENCE_RANK[r.confidence] > CONFIDENCE_RANK[m.confidence] ? r : m), top);
  const firstOffset = Math.min(...readings.map((r) => r.offset));
  const memo = readings.find((r) => r.memo)?.memo;
  const kept: WalletFinding[] = [];
  for (const w of byNetwork.values()) {
    const same = readings.filter((r) => r.networkId === w.networkId);
    const occurrences = same.reduce((n, r) => n + r.occurrences, 0);
    const row: WalletFinding = { ...w, offset: firstOffset, occurrences };
    // The other tokens read for this address on this network are readings the allowlist may keep.
    const alternatives = [...new Set([...(w.tokenAlternatives ?? []), ...same.filter((r) => r !== w).map((r) => r.token)])].filter((t) => t !== w.token);
    if (alternatives.length) row.tokenAlternatives = alternatives;
    if (CONFIDENCE_RANK[maxConfidence.confidence] > CONFIDENCE_RANK[w.confidence]) {
      row.confidence = maxConfidence.confidence;
      row.reason = `${maxConfidence.reason} (elsewhere on the page)`;
    }
    if (!row.memo && memo) row.memo = memo;
    kept.push(row);
  }
  const lost: RejectedCandidate[] = [];
  for (const r of readings) {
    if ([...byNetwork.values()].includes(r)) continue;
    const w = byNetwork.get(r.networkId) ?? top;
    lost.push({
      candidate: r.address, token: r.token, network: r.network, networks: [r.networkId], location: r.location, offset: r.offset, stage: 'resolution',
      reason: `${r.token} on ${r.network} (network: ${r.networkBasis}, token: ${r.tokenBasis}) lost to ${w.token} on ${w.network} (network: ${w.networkBasis}, token: ${w.tokenBasis})`,
    });
  }
  return { kept, lost };
}
