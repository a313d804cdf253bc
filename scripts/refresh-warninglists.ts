// Refreshes domain/similarity/warninglists/misp-subset.json, the pinned subset of the MISP
// warninglists (https://github.com/MISP/misp-warninglists, CC0) that tells shared infrastructure
// (CDN and hosting ranges, URL shorteners, parking, loopback and private ranges, disposable mail)
// from a real link between two sites. Reads the lists of a MISP warninglists copy: the `lists/`
// folder of a checkout of that repository, or of the PyPI package pymispwarninglists, which ships it
// (pymispwarninglists/data/misp-warninglists/lists):
//   pip download --no-deps pymispwarninglists==1.7.0 && unzip pymispwarninglists-1.7.0-py3-none-any.whl
//   node --import tsx scripts/refresh-warninglists.ts <path to lists/> [source label]
import fs from 'node:fs';
import path from 'node:path';

/** The lists kept, and what each stands for in a similarity reason. */
const KEPT: Record<string, string> = {
  cloudflare: 'cdn',
  fastly: 'cdn',
  akamai: 'cdn',
  stackpath: 'cdn',
  'amazon-aws': 'hosting',
  'google-gcp': 'hosting',
  'microsoft-azure': 'hosting',
  'ovh-cluster': 'hosting',
  'parking-domain': 'parking',
  'parking-domain-ns': 'parking',
  'url-shortener': 'url_shortener',
  'link-in-bio': 'url_shortener',
  rfc1918: 'private_range',
  rfc5735: 'loopback_or_reserved',
  'disposable-email': 'public_mail',
};

const [dir, source = 'MISP warninglists'] = process.argv.slice(2);
if (!dir) {
  console.error('usage: refresh-warninglists.ts <misp-warninglists lists/ folder> [source label]');
  process.exit(2);
}
const lists = Object.entries(KEPT).map(([id, category]) => {
  const file = JSON.parse(fs.readFileSync(path.join(dir, id, 'list.json'), 'utf8')) as { name: string; version: number; type: string; list: string[] };
  return { id, category, name: file.name, version: file.version, type: file.type, entries: [...new Set(file.list.map((e) => e.trim().toLowerCase()).filter(Boolean))].sort() };
});
const out = path.resolve(__dirname, '../domain/similarity/warninglists/misp-subset.json');
fs.writeFileSync(out, JSON.stringify({ source, license: 'CC0-1.0', lists }) + '\n');
console.log(`wrote ${lists.length} lists (${lists.reduce((n, l) => n + l.entries.length, 0)} entries) to ${path.relative(process.cwd(), out)}`);
