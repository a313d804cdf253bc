// Where on an HTML page an offset lies: visible text, an attribute (which one, of which tag), a
// payment URI, an explorer link, an inline script (JSON or code), a style sheet or a comment.
// Works on a window of raw HTML without building a DOM, so it also works on streamed chunks.

export type RangeKind = 'script' | 'json' | 'style' | 'comment';

export interface RawRange {
  start: number;
  end: number; // exclusive; Infinity when still open at the end of the buffer
  kind: RangeKind;
}

/** Sticky, tried at each `<` (found with indexOf: every match starts with one, and a literal search is many times faster than the regex's own scan). */
const OPENERS = /<!--|<(\/?)(script|style)\b([^>]*)>/iy;

/** The first match of OPENERS at or after `from`, as the global form of the regex would find it. */
function nextOpener(buf: string, from: number): RegExpExecArray | null {
  for (let i = buf.indexOf('<', from); i >= 0; i = buf.indexOf('<', i + 1)) {
    OPENERS.lastIndex = i;
    const m = OPENERS.exec(buf);
    if (m) return m;
  }
  return null;
}

/**
 * Script, style and comment ranges of a buffer from `from` on (0: the whole buffer); `open` is the
 * range still open at `from`.
 */
export function computeRanges(buf: string, open: RangeKind | null, from = 0): { ranges: RawRange[]; openAtEnd: RangeKind | null } {
  const ranges: RawRange[] = [];
  let pos = from;
  let current: RawRange | null = open ? { start: from, end: Infinity, kind: open } : null;
  for (;;) {
    if (current) {
      const closer = current.kind === 'comment' ? '-->' : current.kind === 'style' ? '</style' : '</script';
      const idx = current.kind === 'comment' ? buf.indexOf(closer, pos) : indexOfCi(buf, current.kind === 'style' ? STYLE_CLOSE : SCRIPT_CLOSE, pos);
      if (idx < 0) {
        ranges.push(current);
        return { ranges, openAtEnd: current.kind };
      }
      current.end = idx;
      ranges.push(current);
      pos = idx + closer.length;
      current = null;
    }
    const m = nextOpener(buf, pos);
    if (!m) return { ranges, openAtEnd: null };
    pos = m.index + m[0].length;
    if (m[0] === '<!--') current = { start: pos, end: Infinity, kind: 'comment' };
    else if (!m[1]) {
      const tag = m[2].toLowerCase();
      const json = tag === 'script' && /type\s*=\s*["']?application\/(?:ld\+)?json/i.test(m[3]);
      current = { start: pos, end: Infinity, kind: tag === 'style' ? 'style' : json ? 'json' : 'script' };
    }
  }
}

const SCRIPT_CLOSE = /<\/script/iy;
const STYLE_CLOSE = /<\/style/iy;

/** First position at or after `from` where the sticky `re` (which starts with `</`) matches. */
function indexOfCi(buf: string, re: RegExp, from: number): number {
  for (let i = buf.indexOf('</', from); i >= 0; i = buf.indexOf('</', i + 2)) {
    re.lastIndex = i;
    if (re.test(buf)) return i;
  }
  return -1;
}

export function rangeAt(ranges: RawRange[], pos: number): RawRange | undefined {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = ranges[mid];
    if (pos < r.start) hi = mid - 1;
    else if (pos >= r.end) lo = mid + 1;
    else return r;
  }
  return undefined;
}

export interface Location {
  /** 'text' | 'attr:<name>' | 'input:value' | 'uri:<scheme>' | 'script' | 'script:json' | 'style' | 'comment' */
  label: string;
  kind: 'text' | 'attr' | 'uri' | 'script' | 'style' | 'comment';
  /** Copy-button attribute, input value or payment URI: the page hands this string to the visitor. */
  handedOver: boolean;
  /** Host of an explorer link the address sits in, when any. */
  linkHost?: string;
  /** In an EIP-681 `ethereum:<token>@chain/transfer?address=<to>` URI, the token contract position. */
  tokenContractInUri?: boolean;
}

const COPY_ATTRS = /^(?:data-clipboard(?:-text)?|data-copy(?:-text|-value)?|data-address|data-wallet|data-addr|data-value|data-text|value|cb-value|clipboard-text)$/;
const PAYMENT_SCHEMES = new Set([
  'bitcoin', 'bitcoincash', 'ethereum', 'litecoin', 'dogecoin', 'dash', 'zcash', 'monero', 'ripple', 'xrpl', 'xrp', 'tron', 'solana',
  'ton', 'cardano', 'web+cardano', 'stellar', 'web+stellar', 'algorand', 'tezos', 'cosmos', 'polkadot', 'kaspa', 'nano', 'hbar', 'near', 'bnb', 'binancecoin', 'avalanche', 'filecoin', 'eos',
]);

/** Scheme written right before `start` in `buf` (`bitcoin:`, `ethereum:`, `kaspa:`, `0:`, `ton://transfer/` ...). */
export function schemeBefore(buf: string, start: number): string | undefined {
  if (start < 2) return undefined;
  const c = buf[start - 1];
  if (c === ':') {
    const m = /(?:^|[^a-zA-Z0-9+.-])([a-zA-Z][a-zA-Z0-9+.-]{1,24}|-1|0)$/.exec(buf.slice(Math.max(0, start - 27), start - 1));
    return m ? m[1].toLowerCase() : undefined;
  }
  if (c === '/') {
    const m = /([a-z][a-z0-9+.-]{1,24}):\/\/(?:transfer\/)?$/i.exec(buf.slice(Math.max(0, start - 40), start));
    return m ? m[1].toLowerCase() : undefined;
  }
  return undefined;
}

export function isPaymentScheme(s: string | undefined): s is string {
  return s !== undefined && PAYMENT_SCHEMES.has(s);
}

const WINDOW = 4096;

/** Classifies the location of offset `pos` in raw HTML. */
export function classifyLocation(buf: string, pos: number, ranges: RawRange[], html: boolean): Location {
  const scheme = schemeBefore(buf, pos);
  if (!html) {
    if (isPaymentScheme(scheme)) return { label: `uri:${scheme}`, kind: 'uri', handedOver: true };
    return { label: 'text', kind: 'text', handedOver: false };
  }
  const r = rangeAt(ranges, pos);
  if (r) {
    if (r.kind === 'style') return { label: 'style', kind: 'style', handedOver: false };
    if (r.kind === 'comment') return { label: 'comment', kind: 'comment', handedOver: false };
    return { label: r.kind === 'json' ? 'script:json' : 'script', kind: 'script', handedOver: false };
  }
  const lt = buf.lastIndexOf('<', pos);
  const gt = buf.lastIndexOf('>', pos - 1);
  if (lt > gt && pos - lt < WINDOW) {
    const tagText = buf.slice(lt, pos);
    const tag = (/^<([a-zA-Z][\w-]*)/.exec(tagText)?.[1] ?? '').toLowerCase();
    const attr = /([^\s"'=<>/]+)\s*=\s*(["']?)([^"'<>]*)$/.exec(tagText);
    if (attr) {
      const name = attr[1].toLowerCase();
      const value = attr[3];
      const uri = /^\s*([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(value);
      const uriScheme = uri?.[1].toLowerCase();
      if (isPaymentScheme(uriScheme)) {
        const tokenContract = uriScheme === 'ethereum' && /^\s*ethereum:(?:pay-)?$/i.test(value) && /^0x[0-9a-fA-F]{40}(?:@\d+)?\/transfer\b/.test(buf.slice(pos, pos + 80));
        return { label: `uri:${uriScheme}`, kind: 'uri', handedOver: true, tokenContractInUri: tokenContract };
      }
      if (name === 'href' || name === 'src' || name === 'action') {
        const host = /^\s*(?:https?:)?\/\/([^/?#\s]+)/i.exec(value)?.[1]?.toLowerCase();
        return { label: `attr:${name}`, kind: 'attr', handedOver: false, linkHost: host ? `${host}${value.slice(value.indexOf(host) + host.length).toLowerCase()}` : undefined };
      }
      if ((tag === 'input' || tag === 'textarea' || tag === 'option') && name === 'value') return { label: 'input:value', kind: 'attr', handedOver: true };
      return { label: `attr:${name}`, kind: 'attr', handedOver: COPY_ATTRS.test(name) || /copy/i.test(name) };
    }
    return { label: 'attr', kind: 'attr', handedOver: false };
  }
  if (isPaymentScheme(scheme)) return { label: `uri:${scheme}`, kind: 'uri', handedOver: true };
  // <textarea>…</textarea> content is an input value too.
  if (lt >= 0 && /^<textarea\b/i.test(buf.slice(lt, lt + 9)) && pos - lt < WINDOW) return { label: 'input:value', kind: 'attr', handedOver: true };
  return { label: 'text', kind: 'text', handedOver: false };
}
