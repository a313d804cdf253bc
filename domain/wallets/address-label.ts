// The label right next to an address, inside its element or line and not across another
// address: contract words (in the languages the funnel agent speaks, and Solidity file names),
// transaction / block hash words and payment words, or the JSON key / attribute name it is the
// value of. A label after the address counts only inside the address's own sentence.
import { camelWords, JSON_KEY, nextAlnumRun } from './structure-context';
import { visibleText } from './text-normalization';

const CONTRACT_WORDS = /(?<![A-Za-z])(?:(?:smart |token |nft )?contract(?: address| addr)?|token address|token addr|mint(?: address| authority)?|router|spender|approve|program(?: id| address)|jetton(?: master)?|pool address|pair address|lp address)(?![A-Za-z])|(?<![A-Za-z])CA(?![A-Za-z])/gi;
/**
 * Contract words in the languages the funnel agent speaks: Chinese (合约, 合約), Russian (контракт and
 * its cases), Spanish and Portuguese (contrato), Vietnamese (hợp đồng), Indonesian and Malay (kontrak),
 * Turkish (sözleşme, kontrat), Arabic (عقد, with or without its article), Thai (สัญญา, not สัญญาณ "signal").
 */
export const CONTRACT_WORDS_INTL = /合[约約]|(?<!\p{L})(?:контракт\p{L}{0,3}|contratos?|h[ợơ]p đ[ồô]ng|kontrak|kontrat\p{L}{0,3}|sözleşme\p{L}{0,4}|(?:ال)?عقد)(?!\p{L})|สัญญา(?!ณ)/giu;
/** A Solidity source file named beside an address (`Token.sol`, `contracts/Vault.sol`): a deployed contract. */
const SOLIDITY_FILE = /[A-Za-z_][A-Za-z0-9_]*\.sol(?![A-Za-z0-9])/g;
/** A Solana constant `const PROGRAM_ID = new PublicKey('…')` (or `declare_id!("…")`): the constant's name is the key. */
const PUBLIC_KEY_CONST = /([A-Za-z_$][\w$]{0,60})\s*(?::\s*[\w.<>]+\s*)?=\s*new\s+PublicKey\(\s*["'`]$/;
/** The end of a sentence: what follows it is not a label of what came before. */
const SENTENCE_END = /[.!?](?=\s)|[。！？]|\n/;
const SENTENCE_ENDS = new RegExp(SENTENCE_END.source, 'g');
const HASH_LABEL = /(?<![A-Za-z])(?:txid|tx ?id|tx ?hash|txn ?hash|transaction(?: hash| id)?|block hash|blockhash|tx)(?![A-Za-z])/gi;
export const PAYMENT_WORDS = /(?<![A-Za-z])(?:deposit|send|pay|payment|receive|receiving|recipient|wallet|donat(?:e|ion)s?|top[- ]?up|recharge|transfer to|fund)(?![A-Za-z])|钱包|錢包|充值|收款|кошел[её]к|(?<!\p{L})(?:billetera|cartera|carteira|dompet|cüzdan)(?!\p{L})|محفظة|กระเป๋า/giu;
const BLOCK_BREAK = /<\/?(?:p|div|li|tr|td|th|section|article|ul|ol|table|h[1-6]|dt|dd|br|hr|button|header|footer)\b[^>]*>|\n\s*\n/gi;

/** `name = "…"`, `name=…` (an attribute or assignment) ending right before the address. */
const KEY_EQUALS = /([\w:-]{1,40})\s*=\s*["']?$/;

const isQuote = (c: number): boolean => c === 34 || c === 39 || c === 96;

/** The last character at or before `i` that is not whitespace (as `\s` means), looking back at most 64 characters; or -1. */
function lastNonSpace(buf: string, i: number): number {
  for (const stop = Math.max(0, i - 64); i >= stop; i--) {
    const c = buf.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13 && !(c > 10 && c < 14) && !(c > 127 && /\s/.test(buf[i]))) return c;
  }
  return -1;
}

function nearest(re: RegExp, text: string, fromEnd: boolean): { word: string; distance: number } | undefined {
  re.lastIndex = 0;
  let best: { word: string; distance: number } | undefined;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const word = m[0];
    if (word === 'CA' || word.toLowerCase() !== 'ca') {
      const d = fromEnd ? text.length - (m.index + word.length) : m.index;
      if (!best || d < best.distance) best = { word, distance: d };
    }
  }
  return best;
}

/**
 * The part of the text before an address that can label it: from the start of the sentence that
 * holds the address ("The contract is audited. Donate: bc1…" is labelled by "Donate:" only). A
 * sentence end right before the address ("Token contract. 0x…") does not start a new sentence.
 */
function sentenceTail(before: string): string {
  let from = 0;
  const re = SENTENCE_ENDS;
  re.lastIndex = 0;
  for (let m = re.exec(before); m; m = re.exec(before)) {
    const rest = before.slice(m.index + m[0].length);
    if (/\p{L}/u.test(rest)) from = m.index + m[0].length;
  }
  return before.slice(from);
}

export interface AddressLabel {
  /** A contract word labels the address (and no payment word is closer). */
  contract?: string;
  /** A transaction / block hash word labels it. */
  hash?: string;
  /** A payment word (deposit, send, wallet, donate, …) is part of its label. */
  payment?: boolean;
}

/**
 * Reads the label right before (and right after) the candidate, inside its element or line and not
 * across another address: the JSON key or attribute name when there is one, else the visible text.
 */
export function addressLabel(buf: string, start: number, end: number, html: boolean, self?: string, inScript = false): AddressLabel {
  // The three end-anchored patterns tried only when the characters right before the address can end them.
  const quoted = isQuote(buf.charCodeAt(start - 1));
  const beforeQuote = quoted ? lastNonSpace(buf, start - 2) : -1;
  const beforeEq = lastNonSpace(buf, start - 1 - (buf.charCodeAt(start - 1) === 34 || buf.charCodeAt(start - 1) === 39 ? 1 : 0));
  const key = (quoted && (beforeQuote === 58 || beforeQuote === 61) ? JSON_KEY.exec(buf.slice(Math.max(0, start - 60), start)) : null)
    ?? (beforeEq === 61 ? KEY_EQUALS.exec(buf.slice(Math.max(0, start - 60), start)) : null)
    ?? (quoted && beforeQuote === 40 ? PUBLIC_KEY_CONST.exec(buf.slice(Math.max(0, start - 100), start)) : null);
  if (key && (key[1] ?? '').length) {
    const words = ` ${camelWords(key[1]).toLowerCase()} `;
    if ((/ (?:contract|ca|mint|router|spender|program|jetton|token address|token|pool|pair)(?: address| id)? /.test(words) || / (?:swap|farm|amm|market|dex|vault|oracle|stake|staking|lp) id /.test(words)) && !/ (?:deposit|wallet|receiv|recipient|pay|to|value|clipboard|copy|href|text) /.test(words)) return { contract: key[1] };
    if (/ (?:tx|txid|txn|hash|transaction|block)(?: hash| id)? /.test(words)) return { hash: key[1] };
    if (!/^(?:value|href|src|data-clipboard-text|data-clipboard|data-copy|content)$/i.test(key[1])) return / (?:deposit|wallet|receiv\w*|recipient|pay\w*|donat\w*|treasury) /.test(words) ? { payment: true } : {};
  }
  // In script code, words before a value are identifiers (`var CA = …`), not a label shown to anyone.
  if (inScript) return {};
  const raw = buf.slice(Math.max(0, start - 160), start);
  BLOCK_BREAK.lastIndex = 0;
  let cut = 0;
  for (let m = BLOCK_BREAK.exec(raw); m; m = BLOCK_BREAK.exec(raw)) cut = m.index + m[0].length;
  let beforeRaw = raw.slice(cut);
  if (self) beforeRaw = beforeRaw.split(self).join(' ');
  if (!(html ? visibleText(beforeRaw) : beforeRaw).replace(/[:：\s]/g, '').length) {
    // nothing in this element before the address: the previous element's text is its label
    const prev = raw.slice(0, cut).replace(/(?:<[^>]*>|\s)+$/, '');
    BLOCK_BREAK.lastIndex = 0;
    let c2 = 0;
    for (let m = BLOCK_BREAK.exec(prev); m; m = BLOCK_BREAK.exec(prev)) c2 = m.index + m[0].length;
    beforeRaw = prev.slice(c2) + beforeRaw;
  }
  let runEnd = 0;
  for (let r = nextAlnumRun(beforeRaw, 0, 0, beforeRaw.length); r; r = nextAlnumRun(beforeRaw, 0, r[1], beforeRaw.length)) if (!self || !self.includes(beforeRaw.slice(r[0], r[1]))) runEnd = r[1];
  beforeRaw = beforeRaw.slice(runEnd);
  const before = (html ? visibleText(beforeRaw) : beforeRaw).slice(-100);
  let afterRaw = buf.slice(end, Math.min(buf.length, end + 60));
  BLOCK_BREAK.lastIndex = 0;
  const br = BLOCK_BREAK.exec(afterRaw);
  if (br) afterRaw = afterRaw.slice(0, br.index);
  for (let r = nextAlnumRun(afterRaw, 0, 0, afterRaw.length); r; r = nextAlnumRun(afterRaw, 0, r[1], afterRaw.length)) {
    if (self && self.includes(afterRaw.slice(r[0], r[1]))) continue;
    afterRaw = afterRaw.slice(0, r[0]);
    break;
  }
  let after = html ? visibleText(afterRaw) : afterRaw;
  // A label after the address is in its own sentence: "bc1q… . Contract activates after …" labels nothing.
  const stop = SENTENCE_END.exec(after);
  if (stop) after = after.slice(0, stop.index);
  const labelBefore = sentenceTail(before);
  const pay = [nearest(PAYMENT_WORDS, labelBefore, true), nearest(PAYMENT_WORDS, after, false)].filter(Boolean).map((x) => x!.distance);
  const payDist = pay.length ? Math.min(...pay) : Infinity;
  const contract = [
    nearest(CONTRACT_WORDS, labelBefore, true), nearest(CONTRACT_WORDS, after, false),
    nearest(CONTRACT_WORDS_INTL, labelBefore.normalize('NFC'), true), nearest(CONTRACT_WORDS_INTL, after.normalize('NFC'), false),
    nearest(SOLIDITY_FILE, labelBefore, true), nearest(SOLIDITY_FILE, after, false),
  ].filter(Boolean).sort((a, b) => a!.distance - b!.distance)[0];
  const hash = [nearest(HASH_LABEL, before, true), nearest(HASH_LABEL, after, false)].filter(Boolean).sort((a, b) => a!.distance - b!.distance)[0];
  const out: AddressLabel = payDist < Infinity ? { payment: true } : {};
  if (contract && contract.distance < payDist) out.contract = contract.word;
  if (hash && hash.distance < payDist && hash.distance < 40) out.hash = hash.word;
  return out;
}

