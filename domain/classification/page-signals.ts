// What a captured page's HTML shows of the scam's mechanics, beside its words: a deposit page (a
// wallet address next to a deposit word), coin tabs (several tabs or buttons named by coin tickers),
// login and registration forms (password fields, a repeated password), a countdown and a shopping
// cart. Pure: the classifier (scam-classification.ts) weighs them.
import { Parser } from 'htmlparser2';

export interface PageSignals {
  /** The visible text (scripts, styles and templates left out), whitespace collapsed. */
  text: string;
  depositPage: boolean;
  /** Distinct coin tickers named by tabs, buttons or list items (BTC, ETH, USDT...). */
  coinTabs: string[];
  loginForm: boolean;
  registrationForm: boolean;
  countdown: boolean;
  cart: boolean;
}

const INVISIBLE = new Set(['script', 'style', 'noscript', 'template', 'svg']);
const TAB_TAGS = new Set(['button', 'a', 'li', 'label', 'span', 'div']);
const TICKERS = new Set(['btc', 'eth', 'usdt', 'usdc', 'trx', 'bnb', 'ltc', 'xrp', 'sol', 'doge', 'ada', 'matic', 'dai']);
const MAX_TEXT = 200_000;

/** Addresses of the common chains (the wallet extractor validates them; here only their shape counts). */
const ADDRESS = /\b(?:bc1[a-z0-9]{25,60}|[13][a-km-zA-HJ-NP-Z1-9]{25,34}|0x[a-fA-F0-9]{40}|T[1-9A-HJ-NP-Za-km-z]{33})\b/;
const DEPOSIT_WORDS = /deposit|top ?up|recharge|充值|充币|存款|nạp|depósito|deposito|пополн|депозит|ฝาก|setor|yatır|إيداع/i;
const COUNTDOWN_WORDS = /countdown|count-down|timer|倒计时|đếm ngược|cuenta regresiva|contagem regressiva|обратный отсчёт|นับถอยหลัง|hitung mundur|geri sayım|العد التنازلي/i;
const CLOCK = /\b\d{1,2}\s*:\s*\d{2}\s*:\s*\d{2}\b/;

export function pageSignals(html: string): PageSignals {
  const text: string[] = [];
  let textLength = 0;
  let hidden = 0;
  const stack: Array<{ tag: string; tabLike: boolean; text: string }> = [];
  let passwords = 0;
  let countdownAttr = false;
  let cart = false;
  const coins = new Set<string>();
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const tag = name.toLowerCase();
        if (INVISIBLE.has(tag)) hidden++;
        const marker = `${attrs.class ?? ''} ${attrs.id ?? ''} ${attrs['data-role'] ?? ''}`;
        if (COUNTDOWN_WORDS.test(marker)) countdownAttr = true;
        if (/\bcart\b|basket|购物车|carrito|carrinho|корзин|keranjang|sepet/i.test(`${marker} ${attrs.href ?? ''}`)) cart = true;
        if (tag === 'input' && (attrs.type ?? '').toLowerCase() === 'password') passwords++;
        stack.push({ tag, tabLike: attrs.role === 'tab' || TAB_TAGS.has(tag), text: '' });
      },
      ontext(data) {
        if (hidden > 0) return;
        const top = stack.at(-1);
        if (top && top.text.length < 200) top.text += data;
        if (textLength < MAX_TEXT) {
          text.push(data);
          textLength += data.length;
        }
      },
      onclosetag(name) {
        const tag = name.toLowerCase();
        if (INVISIBLE.has(tag) && hidden > 0) hidden--;
        const el = stack.pop();
        if (el?.tabLike) {
          const t = el.text.trim().toLowerCase();
          if (TICKERS.has(t)) coins.add(t.toUpperCase());
          // "USDT-TRC20", "BTC (Bitcoin)"
          const head = /^([a-z]{2,5})\b/.exec(t)?.[1];
          if (head && TICKERS.has(head) && t.length <= 24) coins.add(head.toUpperCase());
        }
        const parent = stack.at(-1);
        if (el && parent && parent.text.length < 200) parent.text += ` ${el.text}`;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  const visible = text.join(' ').replace(/\s+/g, ' ').trim();
  return {
    text: visible,
    depositPage: DEPOSIT_WORDS.test(visible) && ADDRESS.test(visible),
    coinTabs: [...coins].sort(),
    loginForm: passwords === 1,
    registrationForm: passwords >= 2,
    countdown: countdownAttr || (CLOCK.test(visible) && COUNTDOWN_WORDS.test(visible)),
    cart,
  };
}
