// Playbook URL patterns: a small glob dialect matched against `host + path` of a URL, by a matcher
// that never builds a RegExp (so a pattern can never make Node's regular-expression engine
// backtrack): dynamic programming over pattern tokens × subject characters, O(|pattern|·|subject|).
//
// Dialect (case-insensitive; the subject is the URL's host name, without port, followed by its
// path as the URL parser leaves it (percent-encoded), without query or fragment —
// `https://Pay.Scam.test:8443/deposit?x=1` → `pay.scam.test/deposit`):
//   *        any run of characters except `/`, possibly empty (within one host or path segment;
//            unlike picomatch, `scam.test/*` also matches `scam.test/`)
//   **       any run of characters including `/`
//   ?        one character except `/`
//   [abc] [a-z] [!a-z]   one character from (or, with `!`/`^`, not from) a set
//   {a,b}    alternatives (not nested; at most 16 per group and 64 spellings in all)
//   \x       the character x literally
// Examples: `scam.test/**` (every page of scam.test), `*.scam.test/**` (its subdomains),
// `{scam.test,*.scam.test}/**` (both), `**/deposit*` (deposit pages on any host).
// Not supported (rejected): extglobs `+(…)`, `@(…)`, `!(…)`, negation `!pattern`, parentheses.

export const MAX_PATTERN_LENGTH = 200;
export const MAX_PATTERNS = 20;
const MAX_ALTERNATIVES = 16;
const MAX_EXPANSIONS = 64;
/** Subjects are cut to this many characters (URLs beyond this are matched on their start). */
export const MAX_SUBJECT_LENGTH = 4096;

type Token =
  | { t: 'lit'; c: string }
  | { t: 'star' }
  | { t: 'globstar' }
  | { t: 'one' }
  | { t: 'class'; negate: boolean; items: Array<[string, string]> };

export class GlobSyntaxError extends Error {
  override name = 'GlobSyntaxError';
}

function expandBraces(pattern: string): string[] {
  // Finds the first top-level {…} group (not escaped) and expands it; recursion handles the rest.
  let open = -1;
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i];
    if (c === '\\') {
      i += 1;
      continue;
    }
    if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close > 0) i = close;
      continue;
    }
    if (c === '{') {
      if (open >= 0) throw new GlobSyntaxError('nested { } groups are not supported');
      open = i;
    } else if (c === '}') {
      if (open < 0) throw new GlobSyntaxError('a } without its {');
      const alternatives = pattern.slice(open + 1, i).split(',');
      if (alternatives.length < 2) throw new GlobSyntaxError('a { } group needs at least two alternatives separated by ","');
      if (alternatives.length > MAX_ALTERNATIVES) throw new GlobSyntaxError(`at most ${MAX_ALTERNATIVES} alternatives in a { } group`);
      const head = pattern.slice(0, open);
      const rest = expandBraces(pattern.slice(i + 1));
      const out: string[] = [];
      for (const a of alternatives) {
        for (const r of rest) {
          out.push(head + a + r);
          if (out.length > MAX_EXPANSIONS) throw new GlobSyntaxError(`the { } groups expand to more than ${MAX_EXPANSIONS} patterns`);
        }
      }
      return out;
    }
  }
  if (open >= 0) throw new GlobSyntaxError('a { without its }');
  return [pattern];
}

function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i];
    if (c === '\\') {
      if (i + 1 >= pattern.length) throw new GlobSyntaxError('a trailing \\ escapes nothing');
      tokens.push({ t: 'lit', c: pattern[i + 1].toLowerCase() });
      i += 1;
    } else if (c === '*') {
      if (pattern[i + 1] === '*') {
        while (pattern[i + 1] === '*') i += 1;
        tokens.push({ t: 'globstar' });
      } else {
        tokens.push({ t: 'star' });
      }
      if (pattern[i + 1] === '(') throw new GlobSyntaxError('extglobs like *(…) are not supported');
    } else if (c === '?') {
      if (pattern[i + 1] === '(') throw new GlobSyntaxError('extglobs like ?(…) are not supported');
      tokens.push({ t: 'one' });
    } else if (c === '[') {
      let j = i + 1;
      let negate = false;
      if (pattern[j] === '!' || pattern[j] === '^') {
        negate = true;
        j += 1;
      }
      const items: Array<[string, string]> = [];
      let first = true;
      while (j < pattern.length && (pattern[j] !== ']' || first)) {
        let lo = pattern[j];
        if (lo === '\\' && j + 1 < pattern.length) lo = pattern[++j];
        if (pattern[j + 1] === '-' && j + 2 < pattern.length && pattern[j + 2] !== ']') {
          let hi = pattern[j + 2];
          j += 2;
          if (hi === '\\' && j + 1 < pattern.length) hi = pattern[++j];
          if (hi < lo) throw new GlobSyntaxError(`the range ${lo}-${hi} is reversed`);
          items.push([lo.toLowerCase(), hi.toLowerCase()]);
        } else {
          items.push([lo.toLowerCase(), lo.toLowerCase()]);
        }
        j += 1;
        first = false;
      }
      if (j >= pattern.length) throw new GlobSyntaxError('a [ without its ]');
      tokens.push({ t: 'class', negate, items });
      i = j;
    } else if ((c === '+' || c === '@' || c === '!') && pattern[i + 1] === '(') {
      throw new GlobSyntaxError(`extglobs like ${c}(…) are not supported`);
    } else if (c === '(' || c === ')' || c === '|') {
      throw new GlobSyntaxError(`"${c}" is not part of the glob dialect (escape it as \\${c} to match it literally)`);
    } else {
      tokens.push({ t: 'lit', c: c.toLowerCase() });
    }
  }
  return tokens;
}

export interface CompiledGlob {
  source: string;
  alternatives: Token[][];
}

/** True if `s` has whitespace or a control character (U+0000-U+001F, U+007F). */
export function hasControlOrSpace(s: string): boolean {
  for (let i = 0; i < s.length; i += 1) {
    const code = s.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f || /\s/.test(s[i])) return true;
  }
  return false;
}

/** Parses a pattern; throws GlobSyntaxError with a readable reason. */
export function compileGlob(pattern: string): CompiledGlob {
  if (pattern.length === 0) throw new GlobSyntaxError('empty pattern');
  if (pattern.length > MAX_PATTERN_LENGTH) throw new GlobSyntaxError(`longer than ${MAX_PATTERN_LENGTH} characters`);
  if (hasControlOrSpace(pattern)) throw new GlobSyntaxError('whitespace and control characters are not allowed');
  if (pattern.startsWith('!')) throw new GlobSyntaxError('negated patterns (!…) are not supported');
  if (pattern.includes('://')) throw new GlobSyntaxError('write host and path without the scheme, e.g. scam.test/** (the scheme is not matched)');
  return { source: pattern, alternatives: expandBraces(pattern).map(tokenize) };
}

function tokenMatches(tok: Token, ch: string): boolean {
  switch (tok.t) {
    case 'lit':
      return tok.c === ch;
    case 'one':
      return ch !== '/';
    case 'class': {
      if (ch === '/') return false;
      const hit = tok.items.some(([lo, hi]) => ch >= lo && ch <= hi);
      return tok.negate ? !hit : hit;
    }
    default:
      return false;
  }
}

function matchTokens(tokens: Token[], s: string): boolean {
  const n = s.length;
  // cur[j]: tokens[0..i) match s[0..j)
  let cur = new Array<boolean>(n + 1).fill(false);
  cur[0] = true;
  for (const tok of tokens) {
    const next = new Array<boolean>(n + 1).fill(false);
    if (tok.t === 'globstar') {
      let any = false;
      for (let j = 0; j <= n; j += 1) {
        any = any || cur[j];
        next[j] = any;
      }
    } else if (tok.t === 'star') {
      let any = false;
      for (let j = 0; j <= n; j += 1) {
        if (j > 0 && s[j - 1] === '/') any = false;
        any = any || cur[j];
        next[j] = any;
      }
    } else {
      for (let j = 1; j <= n; j += 1) next[j] = cur[j - 1] && tokenMatches(tok, s[j - 1]);
    }
    cur = next;
  }
  return cur[n];
}

/** `host + path` of a URL, lower-cased (see the dialect above); null for a URL that does not parse. */
export function globSubject(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  return `${u.hostname}${u.pathname}`.toLowerCase().slice(0, MAX_SUBJECT_LENGTH);
}

export function globMatches(glob: CompiledGlob, subject: string): boolean {
  const s = subject.toLowerCase().slice(0, MAX_SUBJECT_LENGTH);
  return glob.alternatives.some((tokens) => matchTokens(tokens, s));
}
