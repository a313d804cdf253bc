// Fonts for every script a scam site writes in. The npm package's Chromium (@sparticuz/chromium)
// brings one Latin font and the machine may have no more, so a Chinese, Thai or Arabic page's
// screenshot would show empty boxes ("tofu") where its text is: evidence nobody can read. The fonts
// come as npm packages (Noto, SIL Open Font License), never downloaded: @fontsource-variable/* for
// the scripts (one variable-weight file per Unicode slice) and @fontsource/noto-emoji.
//
// The packages ship WOFF2 only, which Chromium's FreeType does not read as a system font (TTF and
// OTF it does; tested), so the files are decompressed once to TTF (wawoff2: Google's woff2 decoder
// compiled to WebAssembly) into <root>/<key>/ beside a fonts.conf listing them. FONTCONFIG_FILE
// points every Chromium the platform launches (the crawler's, the report renderer's) at it; the
// crawler's runs as the unprivileged fip-chromium user, so the directory is root-owned and readable
// by all (infra/chromium-sandbox.ts passes the variable through the browser's short environment).
// The key changes with the packages' versions, so an upgrade prepares a new directory.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

export const FONTS_ROOT_AS_ROOT = '/var/cache/fip/fonts';

export interface FontPackage {
  /** The npm package. */
  name: string;
  /** Which of its `files/` to take (the upright, variable-weight WOFF2 of each slice). */
  files: RegExp;
  /** The scripts it is here for (documentation and start-up output). */
  scripts: string;
}

/** Every script's slices; the Latin slices of the other families are left out (Noto Sans has them). */
export const FONT_PACKAGES: readonly FontPackage[] = [
  { name: '@fontsource-variable/noto-sans', files: /-wght-normal\.woff2$/, scripts: 'Latin (Vietnamese included), Cyrillic, Greek' },
  { name: '@fontsource-variable/noto-sans-sc', files: /-\d+-wght-normal\.woff2$/, scripts: 'Simplified Chinese' },
  { name: '@fontsource-variable/noto-sans-tc', files: /-\d+-wght-normal\.woff2$/, scripts: 'Traditional Chinese' },
  { name: '@fontsource-variable/noto-sans-jp', files: /-\d+-wght-normal\.woff2$/, scripts: 'Japanese' },
  { name: '@fontsource-variable/noto-sans-kr', files: /-\d+-wght-normal\.woff2$/, scripts: 'Korean' },
  { name: '@fontsource-variable/noto-sans-thai', files: /-thai-standard-normal\.woff2$/, scripts: 'Thai' },
  { name: '@fontsource-variable/noto-sans-arabic', files: /-arabic-standard-normal\.woff2$/, scripts: 'Arabic' },
  { name: '@fontsource-variable/noto-sans-hebrew', files: /-hebrew-standard-normal\.woff2$/, scripts: 'Hebrew' },
  { name: '@fontsource-variable/noto-sans-devanagari', files: /-devanagari-standard-normal\.woff2$/, scripts: 'Devanagari' },
  { name: '@fontsource/noto-emoji', files: /-400-normal\.woff2$/, scripts: 'emoji' },
];

export interface PreparedFonts {
  /** The directory of the TTF files and fonts.conf. */
  dir: string;
  /** What FONTCONFIG_FILE is set to for Chromium. */
  fontconfigFile: string;
  files: number;
  bytes: number;
  /** Milliseconds spent converting; 0 when an earlier process had prepared them. */
  preparedMs: number;
}

export interface PrepareFontsOptions {
  /** Where prepared directories go; default /var/cache/fip/fonts as root, else ~/.cache/fip/fonts. */
  root?: string;
  packages?: readonly FontPackage[];
}

const load = createRequire(__filename);

type Woff2Decompress = (woff2: Uint8Array) => Promise<Uint8Array>;

function defaultRoot(): string {
  return process.getuid?.() === 0 ? FONTS_ROOT_AS_ROOT : path.join(os.homedir(), '.cache', 'fip', 'fonts');
}

interface Source {
  pkg: FontPackage;
  dir: string;
  version: string;
  files: string[];
}

function sources(packages: readonly FontPackage[]): Source[] {
  return packages.map((pkg) => {
    let manifest: string;
    try {
      manifest = load.resolve(`${pkg.name}/package.json`);
    } catch {
      throw new Error(`the font package ${pkg.name} is not installed (npm ci installs it)`);
    }
    const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string };
    const dir = path.join(path.dirname(manifest), 'files');
    const files = fs.readdirSync(dir).filter((f) => pkg.files.test(f)).sort();
    if (files.length === 0) throw new Error(`the font package ${pkg.name}@${version} has no file matching ${pkg.files}`);
    return { pkg, dir, version, files };
  });
}

/** XML-escapes a path for fonts.conf. */
function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * The configuration Chromium's fontconfig reads: the shipped fonts, then the machine's own
 * configuration and fonts where there are any (Debian's /etc/fonts). The cache directory comes
 * first: a browser run by root writes the cache there once, the crawler's unprivileged user only
 * reads it (and scans the fonts itself, a few hundred milliseconds, if it is not there yet).
 */
export function fontsConf(dir: string): string {
  return [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
    '<!-- Written by infra/fonts.ts: the fonts the platform ships for every script. -->',
    '<fontconfig>',
    `  <dir>${xml(dir)}</dir>`,
    `  <cachedir>${xml(path.join(dir, 'cache'))}</cachedir>`,
    '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
    '</fontconfig>',
    '',
  ].join('\n');
}

async function convert(list: Source[], staging: string): Promise<{ files: number; bytes: number }> {
  const decompress = load('wawoff2/decompress.js') as Woff2Decompress;
  let files = 0;
  let bytes = 0;
  for (const source of list) {
    const out = path.join(staging, source.pkg.name.replace(/^@[^/]+\//, ''));
    fs.mkdirSync(out, { mode: 0o755 });
    for (const file of source.files) {
      const ttf = await decompress(await fs.promises.readFile(path.join(source.dir, file)));
      const target = path.join(out, file.replace(/\.woff2$/, '.ttf'));
      await fs.promises.writeFile(target, ttf, { mode: 0o644 });
      files++;
      bytes += ttf.length;
    }
  }
  return { files, bytes };
}

function countTtf(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.ttf')) continue;
    files++;
    bytes += fs.statSync(path.join(dir, entry)).size;
  }
  return { files, bytes };
}

/** Directories of other package versions, a day old and more. */
function pruneOld(root: string, current: string): void {
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const name of fs.readdirSync(root)) {
    if (name === current) continue;
    const stat = fs.statSync(path.join(root, name), { throwIfNoEntry: false });
    if (stat && stat.mtimeMs < dayAgo) fs.rmSync(path.join(root, name), { recursive: true, force: true });
  }
}

/**
 * The shipped fonts as TTF with their fonts.conf, converted once per set of package versions and
 * machine (under a second); later calls and processes find them ready. Concurrent processes each
 * convert into a staging directory and the first rename wins.
 */
export async function prepareFonts(options: PrepareFontsOptions = {}): Promise<PreparedFonts> {
  const root = options.root ?? defaultRoot();
  const list = sources(options.packages ?? FONT_PACKAGES);
  const key = crypto
    .createHash('sha256')
    .update(list.map((s) => `${s.pkg.name}@${s.version}:${s.files.join(',')}`).join('\n'))
    .digest('hex')
    .slice(0, 16);
  const dir = path.join(root, key);
  const fontconfigFile = path.join(dir, 'fonts.conf');
  if (fs.existsSync(fontconfigFile)) return { dir, fontconfigFile, ...countTtf(dir), preparedMs: 0 };

  const started = Date.now();
  fs.mkdirSync(root, { recursive: true, mode: 0o755 });
  // The crawler's unprivileged user reads the fonts: every directory on the way must let it through.
  if (root === FONTS_ROOT_AS_ROOT) for (const d of [path.dirname(root), root]) fs.chmodSync(d, 0o755);
  const staging = fs.mkdtempSync(path.join(root, '.prepare-'));
  try {
    const counted = await convert(list, staging);
    fs.mkdirSync(path.join(staging, 'cache'), { mode: 0o755 });
    fs.writeFileSync(path.join(staging, 'fonts.conf'), fontsConf(dir), { mode: 0o644 });
    fs.chmodSync(staging, 0o755);
    try {
      fs.renameSync(staging, dir);
    } catch {
      fs.rmSync(staging, { recursive: true, force: true }); // another process prepared them first
    }
    pruneOld(root, key);
    return { dir, fontconfigFile, ...counted, preparedMs: Date.now() - started };
  } catch (err) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

// One preparation per process and root.
const preparing = new Map<string, Promise<PreparedFonts>>();

/** prepareFonts, once per process (a failure is not kept: the next launch tries again). */
export function shippedFonts(options: PrepareFontsOptions = {}): Promise<PreparedFonts> {
  const root = options.root ?? defaultRoot();
  let pending = preparing.get(root);
  if (!pending) {
    pending = prepareFonts({ ...options, root });
    preparing.set(root, pending);
    pending.catch(() => preparing.delete(root));
  }
  return pending;
}

/** One line for start-up output. */
export function describeFonts(fonts: PreparedFonts): string {
  const mb = (fonts.bytes / 1024 / 1024).toFixed(0);
  const when = fonts.preparedMs > 0 ? `, prepared in ${fonts.preparedMs} ms` : '';
  return `fonts for ${FONT_PACKAGES.map((p) => p.scripts).join(', ')}: ${fonts.files} files, ${mb} MiB in ${fonts.dir}${when}`;
}

/** Prepares the shipped fonts at start-up (not at the first capture) and says how it went, in one line. */
export async function startUpFonts(): Promise<string> {
  try {
    return describeFonts(await shippedFonts());
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return `fonts NOT prepared (${reason}): screenshots show only the scripts this machine has fonts for`;
  }
}
