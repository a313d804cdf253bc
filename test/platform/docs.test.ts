// The documentation stays true to the repository: the README stays short, every file or folder a
// page names exists (a module may be named as it is imported, without .ts), and every link between pages (and to a heading) lands.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const PAGES = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const TOP = ['app', 'api', 'services', 'domain', 'db', 'infra', 'cli', 'bin', 'config', 'workers', 'activities', 'workflows', 'scripts', 'test', 'bench', 'console', 'sdk', 'docs', '.ci'];
/** Built, not committed: named by the pages, present once the console is built. */
const BUILT = new Set(['console/dist', 'console/dist/']);

const read = (page: string) => fs.readFileSync(path.join(ROOT, page), 'utf8');

/** Repository paths a page names: `app/…`, `domain/…/x.ts`, … (not URLs, routes or patterns with placeholders). */
function namedPaths(text: string): string[] {
  const re = new RegExp(`(?<![\\w/.:-])((?:${TOP.map((t) => t.replace('.', '\\.')).join('|')})/[A-Za-z0-9_./-]*)`, 'g');
  const out: string[] = [];
  for (const m of text.matchAll(re)) {
    const after = text[m.index! + m[1]!.length] ?? '';
    if ('<{*…'.includes(after)) continue; // a pattern such as api/routes/<feature>/
    out.push(m[1]!.replace(/[.,:;)]+$/, ''));
  }
  return out;
}

/** GitHub's anchor of a heading. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');

function anchors(page: string): Set<string> {
  return new Set(read(page).split('\n').filter((l) => /^#{1,6} /.test(l)).map((l) => slug(l.replace(/^#+ /, ''))));
}

describe('documentation', () => {
  it('the README fits on a few screens (at most 250 lines) and links every page of docs/', () => {
    const readme = read('README.md');
    assert.ok(readme.split('\n').length <= 250, `README.md has ${readme.split('\n').length} lines`);
    const linked = new Set([...readme.matchAll(/\]\((docs\/[^)#]+)/g)].map((m) => m[1]));
    const unlinked = PAGES.filter((p) => p.startsWith('docs/') && !linked.has(p));
    assert.deepEqual(unlinked, [], 'pages of docs/ the README does not link');
  });

  it('every file or folder a page names exists', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const page of PAGES) {
      for (const p of namedPaths(read(page))) {
        checked++;
        if (!BUILT.has(p) && !['', '.ts', '.tsx'].some((ext) => fs.existsSync(path.join(ROOT, p + ext)))) missing.push(`${page}: ${p}`);
      }
    }
    assert.ok(checked > 100, `only ${checked} paths found: the scan is broken`);
    assert.deepEqual(missing, []);
  });

  it('every relative link lands on a page, and on a heading of it when it names one', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      for (const m of read(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        const [file, anchor] = target.split('#');
        const resolved = file ? path.normalize(path.join(path.dirname(page), file)) : page;
        if (!fs.existsSync(path.join(ROOT, resolved))) broken.push(`${page}: ${target}`);
        else if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(anchor)) broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    assert.deepEqual(broken, []);
  });
});
