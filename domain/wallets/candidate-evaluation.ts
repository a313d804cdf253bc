// Deterministic verification of one raw candidate in its page context: decode + checksum, known
// constants, trap rules, network/token choice (format, coin tab, nearby words, explorer links) and
// the confidence rules. Returns a finding or a rejection.
import type { RawCandidate, Via } from './candidate-runs';
import { decideConfidence, type Evidence } from './confidence-rules';
import { type CoinTabHint, type ContextHints, enumerationFirst, findHints, findNames, keyNetwork, mayNameNetwork, type NameHints } from './context-hints';
import { decodeCandidate } from './decode-candidate';
import { decodeEosName } from './decoders/named-account-decoder';
import { classifyLocation, isPaymentScheme, type RawRange } from './html-location';
import { knownConstant } from './known-constants';
import { hasContracts, networkInfo } from './network-catalog';
import { contractContext } from './contract-context';
import { visibleText } from './text-normalization';
import { addressLabel } from './address-label';
import { CHAIN_IDS, findMemo, nextAlnumRun, paymentUriAround, type PaymentUri, type Scope, structuralScopes } from './structure-context';
import type { AddressMatch, NetworkBasis, NetworkId, RejectedCandidate, TokenBasis, WalletFinding } from './wallet-types';
import { wellKnownContract } from './well-known-contracts';

export interface EvaluationContext {
  buf: string;
  /** Absolute offset of buf[0] in the whole input. */
  base: number;
  ranges: RawRange[];
  html: boolean;
  coinTab?: CoinTabHint;
  /** All the text came out of a transport decoding (QR payloads): the source of every finding. */
  via?: Via;
  /**
   * Decoded addresses of this document by candidate text (a page repeats its addresses: link, text,
   * copy button), so each is decoded and checksummed once; keyed by the scheme written before it
   * (or EOS_NAME for EOS account names), then by its text. The results are shared: never mutated.
   */
  decoded?: Map<string, Map<string, Decoded>>;
}

export interface Decoded {
  matches: AddressMatch[];
  reason?: string;
}

/** At most this many decoded addresses are kept per document. */
const DECODED_LIMIT = 10_000;

export type Evaluation = { finding: WalletFinding } | { rejected: RejectedCandidate };

const CONTEXT_RADIUS = 300;
const SNIPPET_RADIUS = 140;
/** A token named further away than this (in raw characters) does not decide the token. */
const TOKEN_RADIUS = 160;

/** The decoded-address cache key of EOS account names (not a scheme: schemes are lower-case letters). */
const EOS_NAME = '\u0001eos';

function decode(c: RawCandidate, cache: Map<string, Map<string, Decoded>> | undefined): Decoded {
  const eos = c.origin === 'named' && !c.text.includes('.near');
  const byText = cache?.get(eos ? EOS_NAME : (c.scheme ?? ''));
  const hit = byText?.get(c.text);
  if (hit) return hit;
  const r = eos ? decodeEosName(c.text) : decodeCandidate(c.text, c.scheme);
  const out: Decoded = { matches: r.matches, reason: r.failures[0] ? `${r.failures[0].format}: ${r.failures[0].reason}` : undefined };
  // Only addresses are kept: the noise of a page (hashes, base64 pieces) is unique and cheap to reject.
  if (cache && out.matches.length && decodedCount(cache) < DECODED_LIMIT) {
    // A candidate's text is a slice of its whole window: what the cache keeps is decoded again from
    // a copy, so that it does not keep every window it saw alive (the noise is never copied).
    const text = detached(c.text);
    const again = eos ? decodeEosName(text) : decodeCandidate(text, c.scheme);
    out.matches = again.matches;
    if (byText) byText.set(text, out);
    else cache.set(eos ? EOS_NAME : (c.scheme ?? ''), new Map([[text, out]]));
  }
  return out;
}

/** The same characters in a string of their own (a slice would keep its parent, a whole window, alive). */
function detached(s: string): string {
  return (` ${s}`).slice(1);
}

function decodedCount(cache: Map<string, Map<string, Decoded>>): number {
  let n = 0;
  for (const m of cache.values()) n += m.size;
  return n;
}

/** Payment-URI schemes that name one network. */
const SCHEME_NETWORK: Record<string, NetworkId> = {
  bitcoin: 'bitcoin', bitcoincash: 'bitcoin-cash', litecoin: 'litecoin', dogecoin: 'dogecoin', dash: 'dash', zcash: 'zcash', monero: 'monero',
  ripple: 'xrp', xrpl: 'xrp', xrp: 'xrp', tron: 'tron', solana: 'solana', ton: 'ton', cardano: 'cardano', 'web+cardano': 'cardano', stellar: 'stellar',
  'web+stellar': 'stellar', algorand: 'algorand', tezos: 'tezos', cosmos: 'cosmos', polkadot: 'polkadot', kaspa: 'kaspa', nano: 'nano', hbar: 'hedera',
  near: 'near', filecoin: 'filecoin', eos: 'eos',
};

/** Nearest allowed network named in `map` (distance order). */
function nearestOf(allowed: readonly NetworkId[], map: Map<NetworkId, number>): NetworkId | undefined {
  let best: NetworkId | undefined;
  let bestDist = Infinity;
  for (const id of allowed) {
    const d = map.get(id);
    if (d !== undefined && d < bestDist) {
      best = id;
      bestDist = d;
    }
  }
  return best;
}

/**
 * A scope and the names in it, read on first use: the network and token choices stop at the first
 * scope that names something, so the scopes further out are usually never scanned.
 */
class ScopeReading {
  private names?: NameHints;

  constructor(readonly scope: Scope) {}

  get hints(): NameHints {
    if (!this.names) {
      // A label before the address is read from its end, one after it from its start.
      const at = this.scope.side === 'before' ? this.scope.text.length : 0;
      this.names = findNames(this.scope.text, at, at);
    }
    return this.names;
  }
}

function pickNetwork(allowed: NetworkId[], ctx: EvaluationContext, uri: PaymentUri | undefined, linkNet: NetworkId | undefined, scopes: ScopeReading[], window: ContextHints, keyNet?: NetworkId): { id: NetworkId; basis: NetworkBasis } {
  if (allowed.length === 1) return { id: allowed[0], basis: 'format' };
  const tab = ctx.coinTab ? allowed.find((n) => ctx.coinTab?.networks.has(n)) : undefined;
  if (tab) return { id: tab, basis: 'coin-tab' };
  if (uri && (uri.role === 'recipient' || uri.role === 'param')) {
    const byChain = uri.chainId !== undefined ? CHAIN_IDS.get(uri.chainId) : undefined;
    if (byChain && allowed.includes(byChain)) return { id: byChain, basis: 'uri' };
    const byScheme = SCHEME_NETWORK[uri.scheme];
    if (byScheme && allowed.includes(byScheme)) return { id: byScheme, basis: 'uri' };
  }
  if (linkNet && allowed.includes(linkNet)) return { id: linkNet, basis: 'explorer' };
  if (keyNet) return { id: keyNet, basis: 'structure' };
  for (const r of scopes) {
    const id = nearestOf(allowed, r.hints.networks);
    if (id) return { id: namesSeveral(allowed, r.hints.networks) ? enumerationFirst(r.scope.text, allowed, id) ?? id : id, basis: r.scope.kind === 'attribute' || r.scope.kind === 'panel' ? 'attribute' : 'structure' };
  }
  const near = nearestOf(allowed, window.networks);
  return near ? { id: near, basis: 'context' } : { id: allowed[0], basis: 'default' };
}

/** Whether at least two of the allowed networks are named (only then can an enumeration decide). */
function namesSeveral(allowed: readonly NetworkId[], named: Map<NetworkId, number>): boolean {
  let n = 0;
  for (const id of allowed) if (named.has(id) && ++n >= 2) return true;
  return false;
}

/** A token symbol (or token contract / mint) written in a payment URI's parameters. */
function uriToken(uri: PaymentUri | undefined, tokens: readonly string[]): string | undefined {
  if (!uri || uri.role !== 'recipient') return undefined;
  const values = [uri.tokenContract, uri.params.get('spl-token'), uri.params.get('token'), uri.params.get('req-asset'), uri.params.get('asset'), uri.params.get('coin'), uri.params.get('currency'), uri.params.get('jetton')];
  for (const v of values) {
    if (!v) continue;
    const sym = wellKnownContract(v)?.token ?? v.toUpperCase();
    if (tokens.includes(sym)) return sym;
  }
  return undefined;
}

const TOKEN_OF_SCOPE = (r: ScopeReading, network: NetworkId, info: ReturnType<typeof networkInfo>): string | undefined => {
  let best: string | undefined;
  let bestDist = Infinity;
  for (const t of info.tokens) {
    if (t === info.native) continue;
    const d = r.hints.tokens.get(t);
    if (d !== undefined && d < bestDist) {
      best = t;
      bestDist = d;
    }
  }
  if (best) return best;
  return r.hints.natives.has(network) ? info.native : undefined;
};

/**
 * The other tokens of this network that the same label names, nearest first, the native coin last
 * when it is named: readings the allowlist may keep when the chosen one is not allowed
 * ("Tron (TRX), USDT (TRC20), USDC (TRC20)").
 */
function otherTokens(hints: NameHints, network: NetworkId, info: ReturnType<typeof networkInfo>, chosen: string): string[] | undefined {
  const out = info.tokens.filter((t) => t !== chosen && t !== info.native && hints.tokens.has(t)).sort((x, y) => (hints.tokens.get(x) ?? 0) - (hints.tokens.get(y) ?? 0));
  if (chosen !== info.native && hints.natives.has(network)) out.push(info.native);
  return out.length ? out : undefined;
}

function pickToken(network: NetworkId, ctx: EvaluationContext, uri: PaymentUri | undefined, scopes: ScopeReading[], window: ContextHints): { token: string; basis: TokenBasis; alternatives?: string[] } {
  const info = networkInfo(network);
  const fromTab = ctx.coinTab ? info.tokens.filter((t) => ctx.coinTab?.tokens.has(t)) : [];
  const nonNativeTab = fromTab.find((t) => t !== info.native);
  if (nonNativeTab || fromTab.length) return { token: nonNativeTab ?? fromTab[0], basis: 'coin-tab' };
  const u = uriToken(uri, info.tokens);
  if (u) return { token: u, basis: 'uri' };
  // A payment URI that names the recipient and no token asks for the native coin (EIP-681 `value=`, BIP-21 ...).
  if (uri?.role === 'recipient' && !uri.tokenContract && !['spl-token', 'token', 'req-asset', 'asset', 'jetton'].some((p) => uri.params.has(p))) return { token: info.native, basis: 'uri' };
  for (const r of scopes) {
    const t = TOKEN_OF_SCOPE(r, network, info);
    if (t) return { token: t, basis: r.scope.kind === 'attribute' || r.scope.kind === 'panel' ? 'attribute' : 'structure', alternatives: otherTokens(r.hints, network, info, t) };
  }
  let best: string | undefined;
  let bestDist = Infinity;
  for (const t of info.tokens) {
    if (t === info.native) continue;
    const d = window.tokens.get(t);
    if (d !== undefined && d <= TOKEN_RADIUS && d < bestDist) {
      best = t;
      bestDist = d;
    }
  }
  return best ? { token: best, basis: 'context', alternatives: otherTokens({ ...window, tokens: new Map([...window.tokens].filter(([, d]) => d <= TOKEN_RADIUS)) }, network, info, best) } : { token: info.native, basis: 'native' };
}

function explorerNetwork(linkHost: string | undefined): NetworkId | undefined {
  if (!linkHost) return undefined;
  const hints = findNames(linkHost, 0, 0);
  return hints.explorers.values().next().value;
}

function displayForm(text: string, m: AddressMatch): string {
  if (m.normalized.startsWith('bitcoincash:') || m.normalized.startsWith('kaspa:')) return m.normalized;
  if (m.checksum.startsWith('bech32')) return m.normalized;
  return text;
}

const NEXT_UNIT = /<(?:h[1-6]|section|article|tr|li|table|hr|dt)\b|\n#{1,6}[ \t]/i;
/** A line break or paragraph after the address: a token named past it belongs to the next entry ("Toncoin: UQ…\nUSDT (ERC20): 0x…"). */
const NEXT_LINE = /\n|<br\b|<\/?(?:p|div)\b/i;

/** The window of CONTEXT_RADIUS around the candidate, cut at the nearest other address-like run on each side. */
function nearWindow(buf: string, start: number, end: number, self: string): { text: string; candStart: number; candEnd: number } {
  let ws = Math.max(0, start - CONTEXT_RADIUS);
  let we = Math.min(buf.length, end + CONTEXT_RADIUS);
  let cut = ws;
  for (let r = nextAlnumRun(buf, ws, ws, start); r; r = nextAlnumRun(buf, ws, r[1], start)) {
    const run = buf.slice(r[0], r[1]);
    if (!self.includes(run) && !run.includes(self)) cut = r[1];
  }
  ws = cut;
  // A heading, section, row or list item after the address starts the next labelled unit.
  const unit = NEXT_UNIT.exec(buf.slice(end, we));
  if (unit) we = end + unit.index;
  for (let r = nextAlnumRun(buf, end, end, we); r; r = nextAlnumRun(buf, end, r[1], we)) {
    const run = buf.slice(r[0], r[1]);
    if (self.includes(run) || run.includes(self)) continue;
    we = r[0];
    break;
  }
  return { text: buf.slice(ws, we), candStart: start - ws, candEnd: end - ws };
}

/** The window's names for the token choice: not past the end of the address's line. */
function tokenWindow(near: { text: string; candStart: number; candEnd: number }, hints: ContextHints): ContextHints {
  if (!hints.tokens.size) return hints;
  const cut = near.text.slice(near.candEnd).search(NEXT_LINE);
  if (cut < 0) return hints;
  const names = findNames(near.text.slice(0, near.candEnd + cut), near.candStart, near.candEnd);
  return { ...hints, tokens: names.tokens };
}

/** Formats that look exactly like hashes or version numbers (0x + 64 hex, 64 hex, TON raw, HBAR without checksum). */
const HASH_SHAPED = /^hex32|^near-implicit|^ton-raw|^account-id$/;
const B64URL_RUN = /^[A-Za-z0-9_-]{16,}/;
const B64URL_RUN_END = /[A-Za-z0-9_-]{16,}$/;

/** JWT-like: `eyJ…` or a long base64url run joined to this one by a dot. */
function inDottedToken(buf: string, c: RawCandidate): boolean {
  if (c.origin === 'deobfuscated' || c.origin === 'joined') return false;
  if (c.text.startsWith('eyJ')) return true;
  if (buf[c.end] === '.' && B64URL_RUN.test(buf.slice(c.end + 1, c.end + 20))) return true;
  return buf[c.start - 1] === '.' && B64URL_RUN_END.test(buf.slice(Math.max(0, c.start - 20), c.start - 1));
}

/** Only hex digits in one case (`/^(?:[0-9a-f]+|[0-9A-F]+)$/`): no address format is that, except 64 digits (hex accounts). */
function hexOnly(s: string): boolean {
  let lower = false;
  let upper = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) continue;
    if (c >= 97 && c <= 102) lower = true;
    else if (c >= 65 && c <= 70) upper = true;
    else return false;
    if (lower && upper) return false;
  }
  return s.length > 0;
}
/** Networks a bare 64-hex string can be an account on. */
const HEX64_NETWORKS: readonly NetworkId[] = ['near', 'internet-computer'];

function rejection(c: RawCandidate, offset: number, why: string, networks: NetworkId[], stage: RejectedCandidate['stage'], location = 'text'): Evaluation {
  return { rejected: { candidate: c.text, reason: why, networks, location, offset, stage } };
}

export function evaluateCandidate(c: RawCandidate, ctx: EvaluationContext): Evaluation[] {
  if (c.text.length !== 64 && hexOnly(c.text)) return []; // git SHAs, build ids, hashes: never a candidate
  if (c.text.startsWith('eyJ') && c.origin !== 'deobfuscated' && !c.via) return []; // a JWT / base64url JSON part ('{"')
  const offset = ctx.base + c.start;
  if (c.text.length === 64 && !c.scheme && !c.via && !ctx.coinTab && hexOnly(c.text)
    && !mayNameNetwork(ctx.buf.slice(Math.max(0, c.start - CONTEXT_RADIUS), Math.min(ctx.buf.length, c.end + CONTEXT_RADIUS)), HEX64_NETWORKS)) {
    // The many SHA-256 / tx hashes of a page: nothing around could name NEAR or the Internet Computer, so not even decoded.
    return [{ rejected: { candidate: c.text, reason: 'hash- or version-shaped string without its network named nearby', networks: [...HEX64_NETWORKS], location: 'text', offset, stage: 'context' } }];
  }
  const { matches, reason } = decode(c, ctx.decoded);
  if (!matches.length) return reason && c.origin !== 'joined' && c.origin !== 'segment' ? [rejection(c, offset, reason, [], 'verification')] : [];
  const out: Evaluation[] = [];
  for (const m of matches) {
    if (m.kind !== 'address') {
      out.push(rejection(c, offset, m.note ?? m.kind, m.networks, 'verification'));
      continue;
    }
    const constant = knownConstant(c.text, m.normalized);
    if (constant) {
      out.push(rejection(c, offset, `known non-wallet constant: ${constant}`, m.networks, 'constant'));
      continue;
    }
    if (m.strength === 'none' && c.origin === 'segment') {
      out.push(rejection(c, offset, 'no checksum, inside a longer identifier or base64url run', m.networks, 'context'));
      continue;
    }
    if (m.strength === 'none' && c.origin === 'joined') {
      out.push(rejection(c, offset, 'no checksum, would need joining across whitespace', m.networks, 'context'));
      continue;
    }
    if (m.strength === 'none' && inDottedToken(ctx.buf, c)) {
      out.push(rejection(c, offset, 'no checksum, part of a dotted token (JWT or similar)', m.networks, 'context'));
      continue;
    }
    if (HASH_SHAPED.test(m.format) && !c.via && !ctx.coinTab && !isPaymentScheme(c.scheme)
      && !mayNameNetwork(ctx.buf.slice(Math.max(0, c.start - CONTEXT_RADIUS), Math.min(ctx.buf.length, c.end + CONTEXT_RADIUS)), m.networks)) {
      // Fast path for the many hashes on a page: nothing around (no word, no explorer host) could name the network.
      out.push(rejection(c, offset, 'hash- or version-shaped string without its network named nearby', m.networks, 'context'));
      continue;
    }
    const contract = wellKnownContract(c.text) ?? wellKnownContract(m.normalized);
    if (contract) {
      out.push(rejection(c, offset, `well-known contract: ${contract.label} (${contract.chain}, ${contract.kind})`, m.networks, 'constant'));
      continue;
    }
    const location = classifyLocation(ctx.buf, c.start, ctx.ranges, ctx.html);
    const uri = c.via ? (c.decoded !== undefined && c.decodedStart !== undefined ? paymentUriAround(c.decoded, c.decodedStart, c.decodedStart + c.text.length) : undefined) : paymentUriAround(ctx.buf, c.start, c.end);
    if (location.tokenContractInUri || uri?.role === 'token-contract') {
      out.push(rejection(c, offset, 'token contract of an EIP-681 transfer URI', m.networks, 'context', location.label));
      continue;
    }
    if (uri?.role === 'key') {
      out.push(rejection(c, offset, `payment-URI parameter ${uri.param}= is a key or contract, not a destination`, m.networks, 'context', location.label));
      continue;
    }
    const linkPath = location.linkHost ? /\/(tx|txs|transaction|block|blocks|token|tokens|nft)\//.exec(location.linkHost)?.[1] : undefined;
    if (linkPath) {
      out.push(rejection(c, offset, `explorer link to a ${linkPath === 'token' || linkPath === 'tokens' || linkPath === 'nft' ? 'token contract' : 'transaction or block'} page`, m.networks, 'context', location.label));
      continue;
    }
    const handedForPayment = uri?.role === 'recipient' || (c.scheme !== undefined && isPaymentScheme(c.scheme));
    // Nearby words, but not across another address: those belong to it.
    const near = nearWindow(ctx.buf, c.start, c.end, c.text);
    const hints = findHints(near.text, near.candStart, near.candEnd);
    // Cheap rejections before the structure is read (most hash-shaped strings on a page end here).
    // A configuration key that names the network (`sol = "…"`, `btc: '…'`) states it.
    const keyNet = keyNetwork(ctx.buf, c.start, m.networks);
    const windowNamed = !!keyNet || m.networks.some((n) => hints.networks.has(n)) || (!!ctx.coinTab && m.networks.some((n) => ctx.coinTab?.networks.has(n)));
    if (HASH_SHAPED.test(m.format) && !windowNamed && !handedForPayment) {
      // 64 hex digits (or a bare 0.0.N) without a network named nearby is a hash or a version far more often than an account.
      out.push(rejection(c, offset, hints.hashWords ? 'transaction-hash shape next to hash/tx words' : 'hash- or version-shaped string without its network named nearby', m.networks, 'context', location.label));
      continue;
    }
    const windowHanded = location.handedOver || handedForPayment || hints.copyControl || !!ctx.coinTab;
    if (m.strength === 'none' && hints.hashWords && !windowHanded && !windowNamed) {
      out.push(rejection(c, offset, 'no checksum, next to hash/commit/tx words', m.networks, 'context', location.label));
      continue;
    }
    if (m.strength === 'none' && !windowHanded && !windowNamed && !location.linkHost) {
      const windowTokenNamed = [...hints.tokens].some(([t, d]) => d <= TOKEN_RADIUS && m.networks.some((n) => networkInfo(n).tokens.includes(t)));
      const pre = decideConfidence(m.strength, windowTokenNamed ? 'network' : hints.walletWords ? 'wallet-word' : 'none', location.kind);
      if (!pre.confidence) {
        out.push(rejection(c, offset, pre.reason, m.networks, 'context', location.label));
        continue;
      }
    }
    const label = handedForPayment ? {} : addressLabel(ctx.buf, c.start, c.end, ctx.html, c.text, location.kind === 'script');
    const contracts = m.networks.some(hasContracts);
    // A contract word labels only addresses that can be contracts ("Contract activates …" after a Bitcoin address does not).
    if (label.contract && contracts) {
      out.push(rejection(c, offset, `labelled as a contract ("${label.contract}"), not handed over for payment`, m.networks, 'context', location.label));
      continue;
    }
    const inCode = !ctx.html || location.kind === 'script';
    const structural = handedForPayment ? undefined : contractContext({ buf: ctx.buf, start: c.start, end: c.end, html: ctx.html, code: inCode, ranges: ctx.ranges, location, label, contracts });
    if (structural) {
      out.push(rejection(c, offset, structural, m.networks, 'context', location.label));
      continue;
    }
    if (label.hash) {
      out.push(rejection(c, offset, `labelled as a transaction or block hash ("${label.hash}")`, m.networks, 'context', location.label));
      continue;
    }
    const linkNet = explorerNetwork(location.linkHost);
    const scopes = structuralScopes(ctx.buf, c.start, c.end, ctx.ranges, ctx.html).map((scope) => new ScopeReading(scope));
    const { id: networkId, basis: networkBasis } = pickNetwork(m.networks, ctx, uri, linkNet, scopes, hints, keyNet);
    const { token, basis: tokenBasis, alternatives } = pickToken(networkId, ctx, uri, scopes, tokenWindow(near, hints));
    const info = networkInfo(networkId);
    const tabCompatible = !!ctx.coinTab && (ctx.coinTab.networks.has(networkId) || (!ctx.coinTab.networks.size && ctx.coinTab.tokens.has(token)));
    const networkNamed = !!keyNet || m.networks.some((n) => hints.networks.has(n)) || networkBasis === 'uri' || networkBasis === 'attribute' || networkBasis === 'structure';
    const tokenNamed = [...hints.tokens].some(([t, d]) => d <= TOKEN_RADIUS && m.networks.some((n) => networkInfo(n).tokens.includes(t))) || tokenBasis === 'structure' || tokenBasis === 'attribute' || tokenBasis === 'uri';
    const evidence: Evidence = location.handedOver || handedForPayment || tabCompatible || (linkNet !== undefined && m.networks.includes(linkNet)) || hints.copyControl ? 'handed-over'
      : networkNamed || tokenNamed ? 'network' : hints.walletWords ? 'wallet-word' : 'none';
    const decision = decideConfidence(m.strength, evidence, location.kind);
    if (!decision.confidence) {
      out.push(rejection(c, offset, decision.reason, m.networks, 'context', location.label));
      continue;
    }
    const before = visibleText(ctx.buf.slice(Math.max(0, c.start - SNIPPET_RADIUS * 2), c.start));
    const after = visibleText(ctx.buf.slice(c.end, Math.min(ctx.buf.length, c.end + SNIPPET_RADIUS * 2)));
    const address = displayForm(c.text, m);
    const memo = findMemo(networkId, uri, scopes.map((r) => r.scope), ctx.html, { buf: ctx.buf, start: c.start, end: c.end });
    const context = `${before.slice(-SNIPPET_RADIUS)} ${address} ${after.slice(0, SNIPPET_RADIUS)}`.trim();
    out.push({
      finding: {
        address, token, network: info.name, networkId, confidence: decision.confidence,
        source: c.via ?? ctx.via ?? (tabCompatible ? `coin-tab:${ctx.coinTab?.label}` : location.label), location: location.label,
        context, format: m.format, checksum: m.checksum, strength: m.strength, allowedNetworks: m.networks,
        networkBasis, tokenBasis, reason: decision.reason, offset, occurrences: 1,
        ...(memo ? { memo } : {}),
        ...(alternatives ? { tokenAlternatives: alternatives } : {}),
      },
    });
  }
  return out;
}
