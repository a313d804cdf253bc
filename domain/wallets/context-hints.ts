// Context evidence around a candidate: network and token names (ERC20, TRC20, BEP20, Polygon, USDT,
// ...), explorer links, wallet words (deposit, send, address, ...), copy buttons and hash/tx words.
// Each hint carries its distance to the candidate, so the nearest compatible hint wins.
import { NETWORKS } from './network-catalog';
import type { NetworkId } from './wallet-types';

/** Names found in a window: what structural scopes are read for (network, token, native coin). */
export interface NameHints {
  /** Nearest distance of each network named in the window. */
  networks: Map<NetworkId, number>;
  /** Nearest distance of each token symbol named in the window (USDT, USDC, DAI, native symbols). */
  tokens: Map<string, number>;
  /**
   * Networks named by a word for the coin or chain itself (Tron, TRX, Ethereum, BNB...), not only by
   * a token standard (TRC20, ERC20, BEP20, SPL, jetton): such a name makes the native coin the token.
   */
  natives: Map<NetworkId, number>;
  /** Networks named by explorer links in the window. */
  explorers: Set<NetworkId>;
}

export interface ContextHints extends NameHints {
  walletWords: boolean;
  copyControl: boolean;
  hashWords: boolean;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

const CI_KEYWORDS = new Map<string, NetworkId[]>();
const CS_KEYWORDS = new Map<string, NetworkId[]>();
const EXPLORERS: Array<[string, NetworkId]> = [];
for (const n of NETWORKS) {
  for (const k of n.keywords) CI_KEYWORDS.set(k, [...(CI_KEYWORDS.get(k) ?? []), n.id]);
  for (const k of n.exactKeywords ?? []) CS_KEYWORDS.set(k, [...(CS_KEYWORDS.get(k) ?? []), n.id]);
  for (const e of n.explorers) EXPLORERS.push([e, n.id]);
}
// Longest explorer host first, so optimistic.etherscan.io beats etherscan.io.
EXPLORERS.sort((a, b) => b[0].length - a[0].length);
const EXPLORER_OF = new Map(EXPLORERS);
const EXPLORER_RE = new RegExp(EXPLORERS.map(([h]) => escape(h)).join('|'), 'gi');

const wordRe = (words: string[], flags: string): RegExp =>
  new RegExp(`(?<![A-Za-z0-9])(?:${[...words].sort((a, b) => b.length - a.length).map(escape).join('|')})(?![A-Za-z0-9])`, flags);

/** Token-standard words: they name a network but say a token other than the native coin is meant. */
const STANDARDS = new Set(['erc20', 'erc-20', 'erc 20', 'bep20', 'bep-20', 'bep 20', 'trc20', 'trc-20', 'trc 20', 'spl', 'jetton', 'bep2', 'bep-2', 'usdt-ton', 'usdt ton']);
/** `chainId: 56`, `data-chain-id="0x38"`, `chain_id=137`. */
const CHAIN_ID_RE = /chain[ _-]?id["']?\s*[:=]\s*["']?(0x[0-9a-fA-F]{1,8}|\d{1,8})(?![0-9A-Za-z])/gi;
const CHAIN_ID_OF = new Map<number, NetworkId>([[1, 'ethereum'], [56, 'bsc'], [137, 'polygon'], [42161, 'arbitrum'], [10, 'optimism'], [8453, 'base'], [43114, 'avalanche-c'], [61, 'ethereum-classic'], [30, 'rootstock']]);

const CI_RE = wordRe([...CI_KEYWORDS.keys()], 'gi');
const CS_RE = wordRe([...CS_KEYWORDS.keys()], 'g');
const TOKEN_RE = /(?<![A-Za-z0-9])(usdt|tether|usdc|usd coin|dai)(?![A-Za-z0-9])/gi;
const TOKEN_OF: Record<string, string> = { usdt: 'USDT', tether: 'USDT', usdc: 'USDC', 'usd coin': 'USDC', dai: 'DAI' };
const WALLET_RE = /(?<![A-Za-z])(?:address|addr|wallet|deposit|send|sending|pay|payment|receive|receiving|transfer|top[- ]?up|recharge|withdraw(?:al)?|donate|donation|fund|funding|invest|remit)|钱包|地址|充值|转账|收款/i;
/** A copy control in the markup (not the word "copy" in prose). */
const COPY_RE = /clipboard|copy-?(?:btn|button|icon|address|addr|text|wallet)|copy(?:Btn|Button|Icon|Address|Text)|onclick=["'][^"']{0,80}copy|<button\b[^>]*>\s*(?:<[^>]+>\s*)*copy|复制/i;
const HASH_RE = /(?<![A-Za-z])(?:txid|tx|tx[ _-]?hash|txn|transaction|hash|block|commit|sha-?256|checksum|integrity|signature|nonce|private key|public key|pubkey|topic)(?![A-Za-z])/i;

const BLOCK_BOUNDARY = /<\/(?:p|div|li|tr|td|th|section|article|ul|ol|table|h[1-6])>|<br\b|<hr\b/i;
const COPY_DISTANCE = 160;

/** A copy control right next to the candidate: close, and not across a block boundary. */
function copyControlNextTo(window: string, candStart: number, candEnd: number): boolean {
  const before = window.slice(Math.max(0, candStart - COPY_DISTANCE), candStart);
  const after = window.slice(candEnd, candEnd + COPY_DISTANCE);
  const b = COPY_RE.exec(before);
  if (b && !BLOCK_BOUNDARY.test(before.slice(b.index))) return true;
  const a = COPY_RE.exec(after);
  return !!a && !BLOCK_BOUNDARY.test(after.slice(0, a.index));
}

function record<K>(map: Map<K, number>, key: K, distance: number): void {
  const prev = map.get(key);
  if (prev === undefined || distance < prev) map.set(key, distance);
}

/** Distance of the match [i, i + len) to the candidate [candStart, candEnd) (0 when they overlap). */
function distanceTo(i: number, len: number, candStart: number, candEnd: number): number {
  return i + len <= candStart ? candStart - (i + len) : i >= candEnd ? i - candEnd : 0;
}

/** Network keywords of `re` (from `map`) in the window, outside the candidate itself. */
function scanKeywords(hints: NameHints, window: string, re: RegExp, map: Map<string, NetworkId[]>, ci: boolean, candStart: number, candEnd: number): void {
  re.lastIndex = 0;
  for (let m = re.exec(window); m; m = re.exec(window)) {
    if (m.index >= candStart && m.index < candEnd) continue; // inside the candidate itself
    const word = ci ? m[0].toLowerCase() : m[0];
    const ids = map.get(word);
    if (!ids) continue;
    const native = !STANDARDS.has(word.toLowerCase());
    const d = distanceTo(m.index, m[0].length, candStart, candEnd);
    for (const id of ids) {
      record(hints.networks, id, d);
      if (native) record(hints.natives, id, d);
    }
  }
}

/**
 * The names in a raw window (HTML or text) around a candidate that occupies [candStart, candEnd)
 * of it: networks, tokens, native coins and explorer hosts, each with its nearest distance.
 */
export function findNames(window: string, candStart: number, candEnd: number): NameHints {
  const hints: NameHints = { networks: new Map(), tokens: new Map(), natives: new Map(), explorers: new Set() };
  scanKeywords(hints, window, CI_RE, CI_KEYWORDS, true, candStart, candEnd);
  scanKeywords(hints, window, CS_RE, CS_KEYWORDS, false, candStart, candEnd);
  TOKEN_RE.lastIndex = 0;
  for (let m = TOKEN_RE.exec(window); m; m = TOKEN_RE.exec(window)) {
    const sym = TOKEN_OF[m[1].toLowerCase()];
    if (sym === 'DAI' && m[1] !== 'DAI') continue;
    record(hints.tokens, sym, distanceTo(m.index, m[0].length, candStart, candEnd));
  }
  if (window.includes('hain')) {
    CHAIN_ID_RE.lastIndex = 0;
    for (let m = CHAIN_ID_RE.exec(window); m; m = CHAIN_ID_RE.exec(window)) {
      const id = CHAIN_ID_OF.get(m[1].startsWith('0x') ? parseInt(m[1].slice(2), 16) : Number(m[1]));
      if (id) record(hints.networks, id, distanceTo(m.index, m[0].length, candStart, candEnd));
    }
  }
  EXPLORER_RE.lastIndex = 0;
  for (let m = EXPLORER_RE.exec(window); m; m = EXPLORER_RE.exec(window)) {
    const id = EXPLORER_OF.get(m[0].toLowerCase());
    if (!id) continue;
    hints.explorers.add(id);
    record(hints.networks, id, distanceTo(m.index, m[0].length, candStart, candEnd));
  }
  return hints;
}

/**
 * Scans a raw window (HTML or text) around a candidate that occupies [candStart, candEnd) of it:
 * the names (findNames) plus wallet words, a copy control and hash/tx words.
 */
export function findHints(window: string, candStart: number, candEnd: number): ContextHints {
  const names = findNames(window, candStart, candEnd);
  const outside = window.slice(0, candStart) + ' ' + window.slice(candEnd);
  return {
    networks: names.networks, tokens: names.tokens, natives: names.natives, explorers: names.explorers,
    walletWords: WALLET_RE.test(outside), copyControl: copyControlNextTo(window, candStart, candEnd), hashWords: HASH_RE.test(outside),
  };
}

/** What a coin-tab label (`BTC`, `USDT-TRC20`, `USDT (ERC20)`, `Tether on Tron`) says. */
export interface CoinTabHint {
  label: string;
  networks: Set<NetworkId>;
  tokens: Set<string>;
}

export function parseCoinTab(label: string): CoinTabHint {
  const hint: CoinTabHint = { label, networks: new Set(), tokens: new Set() };
  const h = findHints(` ${label} `, 0, 0);
  for (const id of h.networks.keys()) hint.networks.add(id);
  for (const t of h.tokens.keys()) hint.tokens.add(t);
  // A bare native symbol (BTC, ETH, TRX, SOL...) names both the token and its network.
  for (const n of NETWORKS) {
    if (n.registry) continue;
    if (new RegExp(`(?<![A-Za-z0-9])${n.native}(?![A-Za-z0-9])`, 'i').test(label)) {
      hint.tokens.add(n.native);
      if (!hint.networks.size || hint.networks.has(n.id)) hint.networks.add(n.id);
    }
  }
  return hint;
}

/** Per network: one regex of every word that names it (explorer hosts included), for cheap yes/no checks. */
const NAMED_RE = new Map<NetworkId, RegExp>();
const CHAIN_ID_WORD = /chain[ _-]?id/i;

/** Whether anything in `text` could name one of `networks` (a fast pre-check before findHints). */
export function mayNameNetwork(text: string, networks: readonly NetworkId[]): boolean {
  if (CHAIN_ID_WORD.test(text)) return true;
  for (const id of networks) {
    let re = NAMED_RE.get(id);
    if (!re) {
      const n = NETWORKS.find((x) => x.id === id);
      const words = [...(n?.keywords ?? []), ...(n?.explorers ?? []), ...(n?.exactKeywords ?? [])].map(escape);
      re = new RegExp(`(?<![A-Za-z0-9])(?:${words.join('|') || '(?!)'})`, 'i');
      NAMED_RE.set(id, re);
    }
    if (re.test(text)) return true;
  }
  return false;
}

const SHARED_NATIVES = new Set(NETWORKS.map((n) => n.native.toLowerCase()).filter((sym, i, all) => all.indexOf(sym) !== i));
/** What may stand between the names of an enumeration: "Ethereum, BSC, Polygon and Base", "ETH/BNB/Polygon". */
const LIST_GAP = /^[\s,/|&+·•;()-]*(?:(?:and|or|y|o|et|und|и|или|和|或|及)[\s,/|&+·•;()-]*)?$/i;

/**
 * When `nearest` is named in an enumeration of several of the `allowed` networks ("EVM (Ethereum,
 * BSC, Polygon, Arbitrum, Base): 0x…"), the first network of that enumeration: the address is on
 * all of them, and the list's last name (the nearest to the address) is no better than its first.
 */
export function enumerationFirst(text: string, allowed: readonly NetworkId[], nearest: NetworkId): NetworkId | undefined {
  const mentions: Array<{ id: NetworkId; start: number; end: number }> = [];
  for (const [re, map, ci] of [[CI_RE, CI_KEYWORDS, true], [CS_RE, CS_KEYWORDS, false]] as const) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      // A native symbol of several networks (ETH, AVAX, BNB) names the coin, not one chain: "ETH · Optimism".
      if (SHARED_NATIVES.has(m[0].toLowerCase())) continue;
      const id = map.get(ci ? m[0].toLowerCase() : m[0])?.find((x) => allowed.includes(x));
      if (id) mentions.push({ id, start: m.index, end: m.index + m[0].length });
    }
  }
  if (mentions.length < 2) return undefined;
  mentions.sort((a, b) => a.start - b.start);
  let runStart = 0;
  for (let i = 0; i <= mentions.length; i++) {
    const broken = i === mentions.length || (i > runStart && !LIST_GAP.test(visibleGap(text.slice(mentions[i - 1].end, mentions[i].start))));
    if (!broken) continue;
    const run = mentions.slice(runStart, i);
    if (new Set(run.map((x) => x.id)).size >= 2 && run.some((x) => x.id === nearest)) return run[0].id;
    runStart = i;
  }
  return undefined;
}

function visibleGap(gap: string): string {
  return gap.includes('<') ? gap.replace(/<[^>]*>/g, ' ') : gap;
}

/** Lower-case words that name one network when they are a configuration key: ids, keywords, symbols. */
const KEY_WORDS = new Map<string, NetworkId[]>();
for (const n of NETWORKS) {
  // A registry chain's symbol is any word (USDC is Noble's native coin): only its id names it here.
  for (const w of n.registry ? [n.id] : [n.id, n.native.toLowerCase(), ...n.keywords, ...(n.exactKeywords ?? []).map((k) => k.toLowerCase())]) {
    if (!/^[a-z0-9-]+$/.test(w)) continue;
    const ids = KEY_WORDS.get(w) ?? [];
    if (!ids.includes(n.id)) KEY_WORDS.set(w, [...ids, n.id]);
  }
}
const KEY_BEFORE = /(?:^|[\s{,;([])["']?([A-Za-z][A-Za-z0-9_-]{0,30})["']?\s*[:=]\s*["'`]$/;

/**
 * The network named by the configuration key the candidate is the value of (`sol = "…"`,
 * `btc: '…'`, `{"eth_address": "…"}`), among the networks the address can be on. Every word of
 * the key that names a network must name the same one.
 */
export function keyNetwork(buf: string, start: number, allowed: readonly NetworkId[]): NetworkId | undefined {
  const q = buf.charCodeAt(start - 1);
  if (q !== 34 && q !== 39 && q !== 96) return undefined;
  const key = KEY_BEFORE.exec(buf.slice(Math.max(0, start - 48), start))?.[1];
  if (!key) return undefined;
  let found: NetworkId | undefined;
  for (const word of key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[\s_-]+/)) {
    const ids = KEY_WORDS.get(word)?.filter((id) => allowed.includes(id));
    if (!ids?.length) continue;
    if (found && !ids.includes(found)) return undefined;
    found ??= ids[0];
  }
  return found;
}
