// The structure that holds an address, read from raw HTML/text/JSON without building a DOM (so it
// works on streamed windows): its payment URI (scheme, chain id, parameters), the attributes of its
// own tag and of the elements around it (data-network, data-chain, data-coin, aria-label, ...), its
// table row and column header, its JSON key and object, the enclosing blocks (a heading inside the
// same block), the line and paragraph of plain text. Scopes come innermost first; a scope holding
// other addresses is cut to the segment between them, and the part before the address is read
// before the part after it (a label precedes what it labels). Also: memo or destination-tag
// fields. The label right next to an address (contract / hash / payment words): address-label.ts.
import { isPaymentScheme, rangeAt, type RawRange } from './html-location';
import { isNetworkId, networkInfo } from './network-catalog';
import { visibleText } from './text-normalization';
import type { NetworkId } from './wallet-types';

// ---------------------------------------------------------------------------------------------
// Payment URIs

/** EIP-155 chain ids of the EVM networks we name. */
export const CHAIN_IDS: ReadonlyMap<number, NetworkId> = new Map<number, NetworkId>([
  [1, 'ethereum'], [56, 'bsc'], [137, 'polygon'], [42161, 'arbitrum'], [10, 'optimism'], [8453, 'base'], [43114, 'avalanche-c'], [61, 'ethereum-classic'], [30, 'rootstock'],
]);

export interface PaymentUri {
  scheme: string;
  /** Where the candidate sits: right after the scheme (the target), EIP-681 token position, or a `name=` parameter. */
  role: 'recipient' | 'token-contract' | 'key' | 'param';
  /** Parameter name when role is key/param. */
  param?: string;
  chainId?: number;
  /** Lower-cased parameter names to their decoded values. */
  params: Map<string, string>;
  /** EIP-681 transfer: the token contract written after the scheme. */
  tokenContract?: string;
}

const URI_STOP = /[\s"'<>`()[\]{},;\\]/;
const RECIPIENT_PARAMS = new Set(['address', 'to', 'destination', 'recipient', 'account', 'addr']);
/** Parameters that carry keys or contracts, never the destination (Solana Pay reference, SPL mint, token contracts). */
const KEY_PARAMS = new Set(['reference', 'spl-token', 'token', 'mint', 'contract', 'contractaddress', 'jetton', 'token_address', 'tokenaddress', 'asset_id']);

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** The payment URI the candidate [start, end) of buf is part of, when any. */
export function paymentUriAround(buf: string, start: number, end: number): PaymentUri | undefined {
  let s = start;
  while (s > 0 && start - s < 400 && !URI_STOP.test(buf[s - 1])) s--;
  // The last payment scheme before the candidate starts the URI (it can sit inside another URL's parameter).
  const SCHEME = /(?:^|[^a-zA-Z0-9+.-])([a-zA-Z][a-zA-Z0-9+.-]{1,24}):/g;
  const lead = buf.slice(s, start);
  let found = -1;
  for (let x = SCHEME.exec(lead); x; x = SCHEME.exec(lead)) if (isPaymentScheme(x[1].toLowerCase())) found = x.index + x[0].length - x[1].length - 1;
  if (found < 0) return undefined;
  s += found;
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]{1,24}):/.exec(buf.slice(s, s + 32));
  if (!m) return undefined;
  let e = end;
  while (e < buf.length && e - end < 600 && !URI_STOP.test(buf[e])) e++;
  const uri = buf.slice(s, e).replace(/&amp;/g, '&');
  const scheme = m[1].toLowerCase();
  const rel = start - s;
  const q = uri.indexOf('?');
  const path = q >= 0 ? uri.slice(0, q) : uri;
  const params = new Map<string, string>();
  if (q >= 0) {
    for (const kv of uri.slice(q + 1).split('&')) {
      const eq = kv.indexOf('=');
      if (eq > 0) params.set(kv.slice(0, eq).toLowerCase(), safeDecode(kv.slice(eq + 1)));
    }
  }
  const chain = /@(\d{1,12})(?=[/?]|$)/.exec(path);
  const uriOut: PaymentUri = { scheme, role: 'param', params, chainId: chain ? Number(chain[1]) : undefined };
  const head = /^[a-zA-Z][a-zA-Z0-9+.-]*:(?:\/\/)?(?:transfer\/|pay-|pay\?destination=)?/.exec(uri)?.[0] ?? '';
  if (rel <= head.length + 1 && rel >= m[0].length) {
    const transfer = scheme === 'ethereum' && /^[^?]*\/transfer\b/.test(uri.slice(rel));
    uriOut.role = transfer ? 'token-contract' : 'recipient';
    return uriOut;
  }
  const p = /[?&]([A-Za-z_][\w.-]{0,30})=$/.exec(uri.slice(Math.max(0, rel - 40), rel));
  if (p) {
    const name = p[1].toLowerCase();
    uriOut.param = name;
    uriOut.role = RECIPIENT_PARAMS.has(name) ? 'recipient' : KEY_PARAMS.has(name) ? 'key' : 'param';
    if (uriOut.role === 'recipient' && scheme === 'ethereum') {
      const tc = /^[a-zA-Z]+:(?:pay-)?(0x[0-9a-fA-F]{40})(?:@\d+)?\/transfer/.exec(uri);
      if (tc) uriOut.tokenContract = tc[1];
    }
    // `stellar:pay?destination=G…` style: destination is the recipient.
  }
  return uriOut;
}

// ---------------------------------------------------------------------------------------------
// Structural scopes

export type ScopeKind = 'attribute' | 'json-key' | 'json' | 'table-row' | 'column-header' | 'panel' | 'block' | 'line' | 'paragraph';

export interface Scope {
  kind: ScopeKind;
  /** The scope text lies before the address, after it, or is a label of the structure around it. */
  side: 'before' | 'after' | 'label';
  /** Text to read (raw HTML/text; the hint scanner copes with markup). */
  text: string;
}

const LOOK = 6000;
const TAG_RE = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
/** Inline elements are read together with their block. */
const INLINE = new Set(['span', 'b', 'i', 'em', 'strong', 'code', 'small', 'font', 'u', 'mark', 'a', 'label', 'kbd', 'samp', 'tt', 'abbr', 'bdi', 'sup', 'sub']);
const STOP = new Set(['html', 'body', 'main']);
const LABEL_ATTRS = /\b(data-(?:network|chain|chain-id|chainid|coin|token|currency|asset|symbol|net)|aria-label|title|name|id)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;

interface OpenTag {
  name: string;
  start: number;
  openEnd: number;
  attrs: string;
}

/** Attribute values that can name a network or token, as text ("data-network=bsc aria-label=USDT"). */
function labelAttributes(attrs: string): string {
  const out: string[] = [];
  LABEL_ATTRS.lastIndex = 0;
  for (let m = LABEL_ATTRS.exec(attrs); m; m = LABEL_ATTRS.exec(attrs)) {
    const v = m[2] ?? m[3] ?? m[4] ?? '';
    if (v.length >= 25 && /^[0-9A-Za-z]+$/.test(v)) continue; // an address or hash value, not a label
    const name = m[1].toLowerCase();
    const asId = v.trim().toLowerCase().replace(/[\s_]+/g, '-');
    if (name.startsWith('data-chain') && name.endsWith('id')) out.push(`chainId=${v}`);
    else if (isNetworkId(asId)) out.push(networkInfo(asId).name); // data-network="base" names Base
    else out.push(v.replace(/[-_]/g, ' '));
  }
  return out.join(' | ');
}

/** The last openElements answer: structuralScopes and htmlTableHeader ask for the same position in turn. Its stack is never mutated by callers. */
let lastOpen: { buf: string; pos: number; ranges: RawRange[]; result: { stack: OpenTag[]; ownTag?: OpenTag } } | undefined;

/** The element stack (innermost last) around `pos`, from a forward parse of the window before it. */
function openElements(buf: string, pos: number, ranges: RawRange[]): { stack: OpenTag[]; ownTag?: OpenTag } {
  if (lastOpen && lastOpen.pos === pos && lastOpen.ranges === ranges && lastOpen.buf === buf) return lastOpen.result;
  const result = parseOpenElements(buf, pos, ranges);
  lastOpen = { buf, pos, ranges, result };
  return result;
}

function parseOpenElements(buf: string, pos: number, ranges: RawRange[]): { stack: OpenTag[]; ownTag?: OpenTag } {
  const from = Math.max(0, pos - LOOK);
  const stack: OpenTag[] = [];
  TAG_RE.lastIndex = from;
  for (let m = TAG_RE.exec(buf); m && m.index < pos; m = TAG_RE.exec(buf)) {
    if (ranges.length && rangeAt(ranges, m.index)) continue;
    const name = m[2].toLowerCase();
    if (m.index + m[0].length > pos) return { stack, ownTag: { name, start: m.index, openEnd: m.index + m[0].length, attrs: m[3] } };
    if (m[1]) {
      for (let i = stack.length - 1; i >= 0; i--) {
        if (stack[i].name === name) {
          stack.length = i;
          break;
        }
      }
    } else if (!VOID.has(name) && !m[3].endsWith('/')) stack.push({ name, start: m.index, openEnd: m.index + m[0].length, attrs: m[3] });
  }
  // A tag still open at `pos` (the candidate is inside an attribute value).
  const lt = buf.lastIndexOf('<', pos);
  if (lt >= 0 && lt > buf.lastIndexOf('>', pos - 1) && pos - lt < LOOK) {
    const t = /^<([a-zA-Z][a-zA-Z0-9-]*)([\s\S]*)$/.exec(buf.slice(lt, Math.min(buf.length, buf.indexOf('>', pos) + 1 || pos + 2000)));
    if (t) return { stack, ownTag: { name: t[1].toLowerCase(), start: lt, openEnd: lt + t[0].length, attrs: t[2] } };
  }
  return { stack };
}

/** Per tag name: its opening or closing tag (global, case-insensitive). */
const CLOSE_OF = new Map<string, RegExp>();

/** End of the element opened at `tag` (its closing tag), or a bounded end. */
function closeOf(buf: string, tag: OpenTag, after: number): number {
  const limit = Math.min(buf.length, after + LOOK);
  let re = CLOSE_OF.get(tag.name);
  if (!re) CLOSE_OF.set(tag.name, (re = new RegExp(`<(/?)${tag.name}\\b[^>]*>`, 'gi')));
  re.lastIndex = after;
  let depth = 0;
  for (let m = re.exec(buf); m && m.index < limit; m = re.exec(buf)) {
    if (m[1]) {
      if (depth === 0) return m.index + m[0].length;
      depth--;
    } else depth++;
  }
  return limit;
}

const isAlnum = (c: number): boolean => (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122);

/**
 * The next maximal run of at least 25 alphanumerics in [from, e) of buf, as the global regex
 * `/(?<![0-9A-Za-z])[0-9A-Za-z]{25,}/g` finds it on buf.slice(s, e) from lastIndex from - s (the
 * slice ends the runs at s and e), for `from` = s or the end of the previous run: probed every 25
 * characters instead of the regex's lookbehind at every position (scopes can be thousands of
 * characters of markup and base64). Returns [start, end) or undefined.
 */
export function nextAlnumRun(buf: string, s: number, from: number, e: number): [number, number] | undefined {
  let i = from;
  // Inside a run that started before `from`: the regex's lookbehind skips the rest of it.
  if (i > s) while (i < e && isAlnum(buf.charCodeAt(i - 1))) i++;
  for (;;) {
    const probe = i + 24;
    if (probe >= e) return undefined;
    if (!isAlnum(buf.charCodeAt(probe))) {
      i = probe + 1;
      continue;
    }
    let a = probe;
    while (a > i && isAlnum(buf.charCodeAt(a - 1))) a--;
    let b = probe + 1;
    while (b < e && isAlnum(buf.charCodeAt(b))) b++;
    if (b - a >= 25) return [a, b];
    i = b + 1;
  }
}

/** The part of [s, e) of buf around the candidate that holds no other address-like run (`self`: the candidate's text, not a boundary). */
function segment(buf: string, s: number, e: number, cs: number, ce: number, self?: string): { before: string; after: string } {
  let lo = s;
  let hi = e;
  for (let r = nextAlnumRun(buf, s, s, e); r; r = nextAlnumRun(buf, s, r[1], e)) {
    const [a, b] = r;
    if (self) {
      const run = buf.slice(a, b);
      if (run === self || self.includes(run)) continue;
    }
    if (b <= cs && b > lo) lo = b;
    else if (a >= ce && a < hi) {
      hi = a;
      break;
    }
  }
  return { before: buf.slice(lo, cs), after: buf.slice(ce, hi) };
}

/** A heading, section, row or list item after the address starts the next labelled unit. */
const NEXT_UNIT = /<(?:h[1-6]|section|article|tr|li|table|hr|dt)\b|\n#{1,6}[ \t]/i;

/** Pushes the before-part and then the after-part of a scope (each only when it has text). */
function pushSegment(out: Scope[], kind: ScopeKind, buf: string, s: number, e: number, cs: number, ce: number, self?: string): void {
  const seg = segment(buf, s, e, cs, ce, self);
  const next = kind === 'table-row' || kind === 'json' ? -1 : seg.after.search(NEXT_UNIT);
  const after = next >= 0 ? seg.after.slice(0, next) : seg.after;
  if (seg.before.trim()) out.push({ kind, side: 'before', text: seg.before });
  if (after.trim()) out.push({ kind, side: 'after', text: after });
}

/** Column header of the cell that holds `pos`: the same-index `<th>` of the table's header row. */
function columnHeader(buf: string, cell: OpenTag, row: OpenTag, table: OpenTag | undefined): string | undefined {
  if (!table) return undefined;
  const cellsBefore = (buf.slice(row.openEnd, cell.start).match(/<t[dh]\b/gi) ?? []).length;
  const head = buf.slice(table.openEnd, row.start);
  const headerRow = /<tr\b[^>]*>([\s\S]*?)<\/tr>/i.exec(head) ?? /<tr\b[^>]*>([\s\S]*?<th\b[\s\S]*?)$/i.exec(head);
  if (!headerRow || !/<th\b/i.test(headerRow[1])) return undefined;
  const cells = headerRow[1].split(/<t[dh]\b[^>]*>/i).slice(1);
  return cells[cellsBefore];
}

/**
 * The header row of the HTML table cell that holds `pos`: every header cell's visible text and the
 * index of the cell holding `pos` (undefined outside a table with a `<th>` header row).
 */
export function htmlTableHeader(buf: string, pos: number, ranges: RawRange[]): { cells: string[]; index: number } | undefined {
  const { stack } = openElements(buf, pos, ranges);
  let cell = -1;
  for (let i = stack.length - 1; i >= 0 && stack.length - i <= 12; i--) {
    const t = stack[i];
    if (cell < 0 && (t.name === 'td' || t.name === 'th')) cell = i;
    else if (cell >= 0 && t.name === 'tr') {
      const table = stack.slice(0, i).reverse().find((x) => x.name === 'table');
      if (!table) return undefined;
      const index = (buf.slice(t.openEnd, stack[cell].start).match(/<t[dh]\b/gi) ?? []).length;
      const head = buf.slice(table.openEnd, t.start);
      const headerRow = /<tr\b[^>]*>([\s\S]*?)<\/tr>/i.exec(head) ?? /<tr\b[^>]*>([\s\S]*?<th\b[\s\S]*?)$/i.exec(head);
      if (!headerRow || !/<th\b/i.test(headerRow[1])) return undefined;
      return { cells: headerRow[1].split(/<t[dh]\b[^>]*>/i).slice(1).map((c) => visibleText(c)), index };
    }
  }
  return undefined;
}

/** `aria-labelledby="x"` resolved to the text of the element with id x (a tab button). */
function labelledBy(buf: string, attrs: string): string | undefined {
  const id = /aria-labelledby\s*=\s*["']([^"']+)["']/i.exec(attrs)?.[1];
  if (!id) return undefined;
  const at = buf.indexOf(`id="${id}"`);
  if (at < 0) return undefined;
  const gt = buf.indexOf('>', at);
  return gt < 0 ? undefined : visibleText(buf.slice(gt + 1, Math.min(buf.length, gt + 200)).split(/<\/(?:button|a|li|div)>/i)[0]);
}

export function camelWords(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_$-]+/g, ' ');
}

export const JSON_KEY = /["']?([A-Za-z_$][\w$-]{0,40})["']?\s*[:=]\s*["'`]$/;

/** Enclosing `{…}` of pos (brace counting, bounded), or undefined. */
export function enclosingObject(buf: string, pos: number, from = pos, to = pos): { s: number; e: number } | undefined {
  let depth = 0;
  let s = -1;
  for (let i = from - 1; i >= Math.max(0, pos - 2000); i--) {
    const c = buf.charCodeAt(i);
    if (c === 125) depth++;
    else if (c === 123) {
      if (depth === 0) {
        s = i;
        break;
      }
      depth--;
    }
  }
  if (s < 0) return undefined;
  depth = 0;
  for (let i = to; i < Math.min(buf.length, pos + 2000); i++) {
    const c = buf.charCodeAt(i);
    if (c === 123) depth++;
    else if (c === 125) {
      if (depth === 0) return { s, e: i + 1 };
      depth--;
    }
  }
  return undefined;
}

/**
 * Scopes around the candidate [start, end) of buf, innermost first. `inScript` = inside a script
 * or JSON range (JSON keys and objects instead of elements).
 */
export function structuralScopes(buf: string, start: number, end: number, ranges: RawRange[], html: boolean): Scope[] {
  const out: Scope[] = [];
  const self = buf.slice(start, end);
  const script = html && !!rangeAt(ranges, start);
  // JSON / JS: the key of the value, its object, the parent object.
  if (!html || script) {
    const key = JSON_KEY.exec(buf.slice(Math.max(0, start - 60), start));
    if (key) out.push({ kind: 'json-key', side: 'label', text: ` ${camelWords(key[1])} ` });
    const obj = enclosingObject(buf, start, start, end);
    if (obj && obj.e - obj.s < 4000) {
      pushSegment(out, 'json', buf, obj.s, obj.e, start, end, self);
      const parent = enclosingObject(buf, start, obj.s, obj.e);
      if (parent) pushSegment(out, 'json', buf, parent.s, parent.e, start, end, self);
    }
  }
  if (!html) {
    const ls = buf.lastIndexOf('\n', start - 1) + 1;
    let le = buf.indexOf('\n', end);
    if (le < 0) le = buf.length;
    pushSegment(out, 'line', buf, ls, le, start, end, self);
    const ps = Math.max(buf.lastIndexOf('\n\n', start), start - 2000, 0);
    let pe = buf.indexOf('\n\n', end);
    if (pe < 0 || pe > end + 2000) pe = Math.min(buf.length, end + 2000);
    pushSegment(out, 'paragraph', buf, ps, pe, start, end, self);
    return out;
  }
  if (script) return out;
  const { stack, ownTag } = openElements(buf, start, ranges);
  if (ownTag) {
    const own = labelAttributes(ownTag.attrs);
    if (own) out.push({ kind: 'attribute', side: 'label', text: ` ${own} ` });
  }
  let cell: OpenTag | undefined;
  for (let i = stack.length - 1; i >= 0 && stack.length - i <= 10; i--) {
    const t = stack[i];
    if (STOP.has(t.name)) break;
    const attrs = labelAttributes(t.attrs);
    const by = labelledBy(buf, t.attrs);
    if (attrs || by) out.push({ kind: 'panel', side: 'label', text: ` ${[attrs, by].filter(Boolean).join(' | ')} ` });
    if (t.name === 'td' || t.name === 'th') cell = t;
    if (INLINE.has(t.name)) continue;
    const close = closeOf(buf, t, ownTag ? Math.max(end, ownTag.openEnd) : end);
    pushSegment(out, t.name === 'tr' ? 'table-row' : 'block', buf, t.start, close, ownTag ? ownTag.start : start, ownTag ? ownTag.openEnd : end, self);
    if (t.name === 'tr' && cell) {
      const table = stack.slice(0, i).reverse().find((x) => x.name === 'table');
      const header = columnHeader(buf, cell, t, table);
      if (header) out.push({ kind: 'column-header', side: 'label', text: ` ${header} ` });
    }
  }

  return out;
}

// ---------------------------------------------------------------------------------------------
// Memo / destination tag

/** Networks whose exchange deposits carry a memo, tag or comment that identifies the account. */
export const MEMO_NETWORKS: ReadonlySet<NetworkId> = new Set<NetworkId>(['xrp', 'stellar', 'ton', 'eos', 'hedera', 'cosmos', 'osmosis', 'bnb-beacon', 'algorand']);

const MEMO_PARAMS = ['dt', 'tag', 'dtag', 'destinationtag', 'destination_tag', 'memo', 'memo_id', 'memoid', 'text', 'comment', 'note'];
const MEMO_TEXT = /(?<![A-Za-z])(destination[\s_-]*tag|dest\.?[\s_-]*tag|tag|memo(?:[\s_-]*(?:id|text))?|comment|note)(?![A-Za-z])\s*(?:\((?:required|optional|mandatory)\)\s*)?(?:[:#=：]|\bis\b)?\s*["'“]?([A-Za-z0-9_-]{1,64})/gi;
const NOT_A_MEMO = /^(?:is|are|the|a|an|required|optional|mandatory|field|below|above|must|and|or|to|for|if|when|please|only|will|be|not|of|with|your|this|that|you)$/i;

function memoFromText(text: string, network: NetworkId): string | undefined {
  MEMO_TEXT.lastIndex = 0;
  for (let m = MEMO_TEXT.exec(text); m; m = MEMO_TEXT.exec(text)) {
    const v = m[2];
    if (NOT_A_MEMO.test(v)) continue;
    const label = m[1].toLowerCase();
    if (network === 'xrp' && !/^\d{1,10}$/.test(v)) continue;
    if (label === 'tag' && !/^\d{1,12}$/.test(v)) continue;
    if (label === 'note' && network !== 'algorand') continue;
    return v;
  }
  return undefined;
}

/**
 * Memo / destination tag for an address on `network`: its payment URI first, then its scopes, then
 * the text right after it (up to 200 characters, not past another address).
 */
export function findMemo(network: NetworkId, uri: PaymentUri | undefined, scopes: Scope[], html: boolean, near?: { buf: string; start: number; end: number }): string | undefined {
  if (!MEMO_NETWORKS.has(network)) return undefined;
  if (uri && uri.role === 'recipient') {
    for (const p of MEMO_PARAMS) {
      const v = uri.params.get(p);
      if (v && v.length <= 64) return v;
    }
  }
  for (const s of scopes) {
    if (s.kind === 'panel' || s.kind === 'column-header') continue;
    const m = memoFromText(html ? visibleText(` ${s.text} `) : s.text, network);
    if (m) return m;
  }
  if (!near) return undefined;
  const { after } = segment(near.buf, near.start, Math.min(near.buf.length, near.end + 200), near.start, near.end);
  return memoFromText(html ? visibleText(after) : after, network);
}
