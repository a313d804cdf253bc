// Contract context beyond the label right next to an address: the structure around it says that
// what it lists are contracts, not wallets. A table (HTML or Markdown) whose column is headed
// "Contract", "Token address", "Contract address" (or "<chain> Address" beside a symbol column), a
// code object of program or token entries (`{ address, name, type: "Defi" }`, token-list entries
// with `decimals`), a section headed "Deployed contracts" / "Contract addresses", an explorer link
// to a contract's code (`…#code`) and any link to a testnet explorer.
import { findNames } from './context-hints';
import type { Location, RawRange } from './html-location';
import { type AddressLabel, CONTRACT_WORDS_INTL, PAYMENT_WORDS } from './address-label';
import { enclosingObject, htmlTableHeader } from './structure-context';
import { visibleText } from './text-normalization';

export interface ContractContextInput {
  buf: string;
  start: number;
  end: number;
  html: boolean;
  /** Inside a script or JSON range of an HTML page (or the whole input is text / JSON). */
  code: boolean;
  ranges: RawRange[];
  location: Location;
  label: AddressLabel;
  /** Some network the address can be on has contracts. */
  contracts: boolean;
}

/** Explorer pages of a contract's source and methods. */
const CODE_FRAGMENT = /#(?:code|readcontract|writecontract|readproxycontract|writeproxycontract|contracts?)$/i;
/** Explorer API calls that only contracts answer (`?module=contract&action=getabi&address=0x…`). */
const CONTRACT_API = /[?&]module=contract\b|[?&]action=(?:getabi|getsourcecode|getcontractcreation)\b/i;
/** Testnet explorers: host labels, paths and query parameters of the public test networks. */
const TESTNET = /(?:^|[/.@-])(?:sepolia|goerli|holesky|hoodi|ropsten|rinkeby|kovan|testnet|devnet|amoy|mumbai|fuji|nile|shasta|chapel|alfajores)(?:[.-]|\/|$)|[?&]cluster=(?:devnet|testnet)|[?&](?:network|chain)=(?:testnet|devnet|sepolia|goerli)/i;

const ENGLISH_CONTRACT = /(?<![A-Za-z])(?:(?:smart |token |nft )?contracts?(?: address(?:es)?| addr)?|token address(?:es)?|mint(?: address)?|program(?: ids?| address(?:es)?)|jetton master)(?![A-Za-z])/i;
/** Header cells that make a column of symbols: "<chain> Address" beside one is a token list. */
const SYMBOL_HEADER = /^(?:symbol|ticker|token|token symbol|token name|asset|decimals)$/i;
const HEADING_CONTRACT = /(?<![A-Za-z])(?:(?:smart |token |deployed |core |periphery |protocol )?contracts?(?: address(?:es)?)?|token addresses|deployments?|deployed addresses|program ids?|programs)(?![A-Za-z])/i;
/** A key of the address's own that names an account of a person or organisation, not a contract. */
const ACCOUNT_KEY = /(?:^|[^a-z])(?:owner|authority|admin|creator|deployer|treasury|multisig|safe|recipient|receiver|beneficiary|deposit|wallet|donation|payto|fee ?recipient)/i;
/** Keys of a deposit or payment entry (a fake exchange's coin list): such an object is no token list. */
const DEPOSIT_KEYS = /["']?(?:network|chain|chain_?name)["']?\s*[:=]\s*["'`](?!(?:main|test)net\b)|["']?(?:memo|tag|destination_?tag|qr|qr_?code|qrcode|deposit\w*|wallet\w*|pay\w*|receiv\w*|min_?deposit|confirmations?)["']?\s*[:=]/i;
/** `type: "Defi"`-style categories of program and protocol entries. */
const CATEGORY = /["']?(?:type|category|kind|group|tags?)["']?\s*[:=]\s*\[?\s*["'`]([^"'`\n]{1,40})["'`]/gi;
const NON_WALLET_CATEGORY = /^(?:defi|dex|amm|clmm|dlmm|program|protocol|token|spl[- ]token|nft|lending|bridge|oracle|staking|stake pool|liquid staking|lst|perps?|perpetuals|aggregator|launchpad|contract|smart contract|system|native|vault|farm|yield|derivatives|dao|governance|game|gaming|marketplace|pool|router|infrastructure|memecoin|stablecoin)s?$/i;

const PAYMENT_RE = new RegExp(PAYMENT_WORDS.source, 'iu');
const INTL_RE = new RegExp(CONTRACT_WORDS_INTL.source, 'iu');

function namesContract(text: string): boolean {
  if (ENGLISH_CONTRACT.test(text)) return true;
  return INTL_RE.test(text.normalize('NFC'));
}

/** Whether a column header (with its row of header cells) says its column lists contracts. */
export function contractColumn(header: string, cells: readonly string[]): boolean {
  const h = header.replace(/[*_`:#|]/g, ' ').replace(/\s+/g, ' ').trim();
  if (!h || PAYMENT_RE.test(h)) return false;
  if (namesContract(h)) return true;
  // "Ethereum Address", "BSC address" beside a Symbol / Ticker column.
  if (/^[\p{L}\d ().-]{2,30} address(?:es)?$/iu.test(h) && findNames(h, 0, 0).networks.size) {
    return cells.some((c) => SYMBOL_HEADER.test(c.replace(/[*_`:]/g, '').trim()));
  }
  return false;
}

const MD_SEPARATOR = /^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/;
const MD_LINES = 400;
/** A Markdown table row is shorter than this. */
const MD_LINE = 2000;

/** Start of the line holding `pos` (after its '\n', or 0), when it starts within `max` characters; else -1. */
function lastIndexWithin(buf: string, ch: string, pos: number, max: number): number {
  const from = Math.max(0, pos - max);
  const i = buf.slice(from, pos).lastIndexOf(ch);
  if (i >= 0) return from + i + 1;
  return from === 0 ? 0 : -1;
}

function mdCells(line: string): string[] {
  let t = line.trim();
  if (t.startsWith('|')) t = t.slice(1);
  if (t.endsWith('|')) t = t.slice(0, -1);
  return t.split('|').map((c) => c.trim());
}

/** The header row of the Markdown table row that holds `pos`, and the index of its cell. */
export function markdownTableHeader(buf: string, pos: number): { cells: string[]; index: number } | undefined {
  // Bounded: a minified page is one long line, and every search here runs once per candidate.
  const ls = lastIndexWithin(buf, '\n', pos, MD_LINE);
  if (ls < 0) return undefined;
  const tail = buf.slice(pos, pos + MD_LINE);
  const nl = tail.indexOf('\n');
  if (nl < 0 && pos + MD_LINE < buf.length) return undefined;
  const line = buf.slice(ls, nl < 0 ? buf.length : pos + nl);
  if (!line.includes('|')) return undefined;
  const lead = buf.slice(ls, pos);
  const index = (lead.match(/\|/g) ?? []).length - (lead.trimStart().startsWith('|') ? 1 : 0);
  let e = ls - 1;
  for (let n = 0; n < MD_LINES && e > 0; n++) {
    const s = lastIndexWithin(buf, '\n', e, MD_LINE);
    if (s < 0) return undefined;
    const prev = buf.slice(s, e);
    if (MD_SEPARATOR.test(prev)) {
      if (s === 0) return undefined;
      const hs = lastIndexWithin(buf, '\n', s - 1, MD_LINE);
      if (hs < 0) return undefined;
      const header = buf.slice(hs, s - 1);
      return header.includes('|') ? { cells: mdCells(header), index } : undefined;
    }
    if (!prev.includes('|')) return undefined;
    e = s - 1;
  }
  return undefined;
}

/** Characters that end a URL written in text. */
const URL_STOP = new Set([...' \t\n\r"\'<>()[]`|'].map((c) => c.charCodeAt(0)));

/** Every URL the address is part of or is the text of: its own link, an enclosing `<a href>`, a Markdown link. */
function linksOf(x: ContractContextInput): string[] {
  const out: string[] = [];
  if (x.location.linkHost) out.push(x.location.linkHost);
  const { buf, start, end } = x;
  // The address inside a URL written as text (Markdown, plain text, a link's text).
  let s = start;
  while (s > 0 && start - s < 300 && !URL_STOP.has(buf.charCodeAt(s - 1))) s--;
  if (buf.charCodeAt(s) === 104 && /^https?:\/\//i.test(buf.slice(s, s + 8))) {
    let e = end;
    while (e < buf.length && e - end < 300 && !URL_STOP.has(buf.charCodeAt(e))) e++;
    out.push(buf.slice(s, e));
  } else if (/^#[A-Za-z]/.test(buf.slice(end, end + 2))) {
    out.push(buf.slice(end, end + 40).split(/[\s"'<>()[\]`|]/)[0]);
  }
  // [text](url) with the address in the text.
  const md = buf.slice(end, end + 62).includes('](') ? /^[^\]\n]{0,60}\]\(([^)\s]{1,400})\)/.exec(buf.slice(end, end + 500)) : null;
  if (md) {
    const lead = buf.slice(Math.max(0, start - 80), start);
    if (lead.lastIndexOf('[') > lead.lastIndexOf(']')) out.push(md[1]);
  }
  if (x.html) {
    const lead = buf.slice(Math.max(0, start - 800), start);
    const rel = lead.lastIndexOf('<a ');
    const open = rel < 0 ? -1 : start - lead.length + rel;
    if (open >= 0 && lead.indexOf('</a', rel) < 0) {
      const href = /^<a\b[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(buf.slice(open, Math.min(buf.length, open + 800)));
      if (href) out.push(href[1] ?? href[2]);
    }
  }
  return out;
}

/** A cheap pre-check: a table cell opened not long before `pos` (else no HTML table header to read). */
function inTableCell(buf: string, pos: number): boolean {
  const from = Math.max(0, pos - 6000);
  const lead = buf.slice(from, pos);
  return lead.includes('<td') || lead.includes('<th');
}

/** The nearest heading before `pos` (Markdown `#` line or HTML h1–h6), within a few thousand characters. */
function headingBefore(buf: string, pos: number): string | undefined {
  const from = Math.max(0, pos - 4000);
  const w = buf.slice(from, pos);
  let best: { at: number; text: string } | undefined;
  const md = /(?:^|\n)#{1,6}[ \t]+([^\n]{1,160})/g;
  for (let m = md.exec(w); m; m = md.exec(w)) best = { at: m.index, text: m[1] };
  if (w.includes('<h') || w.includes('<H')) {
    const h = /<h([1-6])\b[^>]*>([\s\S]{0,400}?)<\/h\1>/gi;
    for (let m = h.exec(w); m; m = h.exec(w)) if (!best || m.index > best.at) best = { at: m.index, text: visibleText(m[2]) };
  }
  return best?.text;
}

/** Why the structure around the address says it is a contract, or undefined. */
export function contractContext(x: ContractContextInput): string | undefined {
  for (const url of linksOf(x)) {
    if (TESTNET.test(url)) return 'linked to a testnet explorer';
    if (x.contracts && CODE_FRAGMENT.test(url)) return "explorer link to a contract's code";
    if (x.contracts && CONTRACT_API.test(url)) return "explorer API link to a contract's ABI or source";
  }
  if (!x.contracts || x.label.payment) return undefined;
  const { buf, start } = x;
  if (x.code) {
    const obj = enclosingObject(buf, start, start, x.end);
    if (obj && obj.e - obj.s < 4000) {
      const own = /["']?([A-Za-z_$][\w$-]{0,40})["']?\s*[:=]\s*["'`]$/.exec(buf.slice(Math.max(0, start - 60), start))?.[1] ?? '';
      if (!ACCOUNT_KEY.test(own.replace(/([a-z])([A-Z])/g, '$1 $2'))) {
        const body = buf.slice(obj.s, obj.e);
        if (/["']?decimals["']?\s*[:=]/.test(body) && /["']?symbol["']?\s*[:=]/.test(body)) return 'token-list entry (symbol and decimals)';
        // A token's metadata without a deposit's: `{ address, decimals }`, `{ name, symbol, address }`
        // (token maps keyed by ticker). A deposit entry names its network, memo or QR code instead.
        if (!DEPOSIT_KEYS.test(body)) {
          if (/["']?decimals?["']?\s*[:=]\s*\d/.test(body)) return 'token-list entry (decimals)';
          if (/["']?symbol["']?\s*[:=]/.test(body) && /["']?name["']?\s*[:=]/.test(body)) return 'token-list entry (symbol and name)';
        }
        CATEGORY.lastIndex = 0;
        for (let m = CATEGORY.exec(body); m; m = CATEGORY.exec(body)) if (NON_WALLET_CATEGORY.test(m[1].trim())) return `program or protocol entry (${m[1].trim()})`;
      }
    }
  }
  const table = (x.html && !x.code && inTableCell(buf, start) ? htmlTableHeader(buf, start, x.ranges) : undefined) ?? markdownTableHeader(buf, start);
  if (table) {
    const header = table.cells[table.index];
    if (header !== undefined && contractColumn(header, table.cells)) return `in a contract list (column "${header.trim()}")`;
  }
  const heading = headingBefore(buf, start);
  if (heading && !PAYMENT_RE.test(heading) && (HEADING_CONTRACT.test(heading) || INTL_RE.test(heading.normalize('NFC')))) return `in a contract list (section "${heading.trim().slice(0, 60)}")`;
  return undefined;
}
