// What a page's HTML says about the kit that built it, robust to what an operator changes between
// sites (brand names, colours, texts, wallets, paths): the tag paths of its elements with their
// attribute names (values only for the few attributes that shape a kit: type, name, rel, method), as
// a simhash; its visible text as word shingles; and the favicon it links to.
import { Parser } from 'htmlparser2';
import { simhash, textShingles } from './locality-hashes';

/** Attributes whose values belong to the kit, not to the brand. */
const STRUCTURAL_VALUES = new Set(['type', 'name', 'rel', 'method', 'role']);
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const INVISIBLE = new Set(['script', 'style', 'noscript', 'template', 'svg']);

export interface PageStructure {
  /** 64-bit simhash of the tag-path features, 16 hex digits. */
  domSimhash: string;
  /** How many elements the page has (a near-empty page's simhash says little). */
  elements: number;
  /** The page's visible text as 3-word shingles. */
  shingles: Set<string>;
  /** The favicon the page links to (href as written), or null. */
  faviconHref: string | null;
}

export function pageStructure(html: string): PageStructure {
  const features = new Map<string, number>();
  const stack: string[] = [];
  const text: string[] = [];
  let hidden = 0;
  let elements = 0;
  let faviconHref: string | null = null;
  const add = (f: string, w = 1) => features.set(f, (features.get(f) ?? 0) + w);
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        elements++;
        const attrs = Object.keys(attribs)
          .filter((a) => !a.startsWith('data-fip'))
          .sort()
          .map((a) => (STRUCTURAL_VALUES.has(a) ? `${a}=${attribs[a]!.toLowerCase()}` : a))
          .join(',');
        const parent = stack.slice(-2).join('>');
        add(`t:${parent}>${name}`);
        add(`a:${name}[${attrs}]`);
        add(`p:${stack.at(-1) ?? ''}>${name}[${attrs}]`);
        if (name === 'link' && /\bicon\b/i.test(attribs.rel ?? '') && attribs.href && !faviconHref) faviconHref = attribs.href;
        if (INVISIBLE.has(name)) hidden++;
        if (!VOID.has(name)) stack.push(name);
      },
      onclosetag(name, implied) {
        if (VOID.has(name) && !implied) return;
        if (VOID.has(name)) return;
        const at = stack.lastIndexOf(name);
        if (at < 0) return;
        for (let i = stack.length - 1; i >= at; i--) if (INVISIBLE.has(stack[i]!)) hidden--;
        stack.length = at;
      },
      ontext(data) {
        if (hidden <= 0) text.push(data);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return { domSimhash: simhash(features), elements, shingles: textShingles(text.join(' ')), faviconHref };
}
