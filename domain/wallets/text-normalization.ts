// Normalisation of page text before matching: zero-width and soft-hyphen characters removed, HTML
// entities decoded, full-width ASCII folded (NFKC), inline tags that split a word removed.

export const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF\u00AD\u180E]/g;

const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', colon: ':', sol: '/', period: '.',
  lowbar: '_', hyphen: '-', dash: '-', equals: '=', plus: '+', num: '#', zwj: '', zwnj: '', shy: '', ZeroWidthSpace: '',
};

export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,15});/g, (all, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    return NAMED[body] ?? all;
  });
}

/** Inline (phrasing) tags that can split an address inside one element without adding a space. */
export const INLINE_TAG = /<\/?(?:span|b|i|em|strong|wbr|font|small|u|mark|code|sup|sub|s|bdi|bdo|ins|del|abbr|kbd|samp|var|tt)\b[^<>]{0,200}>|<!--[\s\S]{0,200}?-->/gi;

/** Text of an HTML fragment as an address would read on screen, inline splits joined. */
export function deobfuscate(fragment: string): string {
  let s = fragment.replace(INLINE_TAG, '');
  s = decodeEntities(s).replace(ZERO_WIDTH, '');
  // NFKC folds full-width digits and letters (ｂｃ１…) to ASCII.
  if (/[\u0080-\uffff]/.test(s)) s = s.normalize('NFKC');
  return s;
}

/** Visible text of an HTML fragment for context snippets: tags become spaces, whitespace collapsed. */
export function visibleText(fragment: string): string {
  let s = fragment;
  const firstLt = s.indexOf('<');
  const firstGt = s.indexOf('>');
  if (firstGt >= 0 && (firstLt < 0 || firstGt < firstLt)) s = s.slice(firstGt + 1); // started inside a tag
  const lastLt = s.lastIndexOf('<');
  if (lastLt >= 0 && s.indexOf('>', lastLt) < 0) s = s.slice(0, lastLt); // ends inside a tag
  if (s.includes('<')) s = s.replace(/<script\b[^>]*>|<\/script>|<style\b[\s\S]*?<\/style>/gi, ' ').replace(/<[^>]*>/g, ' ');
  return decodeEntities(s).replace(ZERO_WIDTH, '').replace(/\s+/g, ' ').trim();
}
