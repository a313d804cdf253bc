// The shipped fonts (infra/fonts.ts): the npm packages' WOFF2 decompressed once to TTF beside a
// fonts.conf, readable by the crawler's unprivileged user, prepared again only for other package
// versions; a Chromium whose fonts cannot be prepared still starts, and says so once. Why convert at
// all: Chromium draws the TTF, not the WOFF2 the packages ship.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { checkChromiumSandbox } from '../../infra/chromium-sandbox';
import { FONT_PACKAGES, FONTS_ROOT_AS_ROOT, fontsConf, prepareFonts, shippedFonts, startUpFonts } from '../../infra/fonts';

describe('shipped fonts', function () {
  this.timeout(120_000);
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-fonts-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('decompresses every package\'s chosen WOFF2 files to TrueType once, beside a fonts.conf that lists them first', async () => {
    const first = await prepareFonts({ root });
    assert.ok(first.preparedMs > 0);
    assert.equal(path.dirname(first.dir), root);
    assert.equal(first.fontconfigFile, path.join(first.dir, 'fonts.conf'));
    const conf = fs.readFileSync(first.fontconfigFile, 'utf8');
    assert.equal(conf, fontsConf(first.dir));
    assert.match(conf, new RegExp(`<dir>${first.dir}</dir>\\s*<cachedir>${first.dir}/cache</cachedir>\\s*<include ignore_missing="yes">/etc/fonts/fonts.conf</include>`));
    let files = 0;
    for (const pkg of FONT_PACKAGES) {
      const dir = path.join(first.dir, pkg.name.split('/')[1]!);
      const ttf = fs.readdirSync(dir);
      assert.ok(ttf.length > 0 && ttf.every((f) => f.endsWith('.ttf')), `${pkg.name}: ${ttf.length} TTF files`);
      // TrueType outlines (0x00010000), not WOFF2 ('wOF2') any more.
      const head = fs.readFileSync(path.join(dir, ttf[0]!)).subarray(0, 4);
      assert.equal(head.toString('hex'), '00010000', `${pkg.name}: ${ttf[0]} starts as TrueType`);
      files += ttf.length;
    }
    assert.equal(first.files, files);
    assert.ok(first.bytes > 10_000_000 && first.bytes < 80_000_000, `${first.bytes} bytes`);

    const again = await prepareFonts({ root });
    assert.deepEqual({ ...again, preparedMs: 0 }, { ...first, preparedMs: 0 });
    assert.equal(again.preparedMs, 0, 'found ready, not converted again');
    assert.deepEqual(fs.readdirSync(root), [path.basename(first.dir)], 'no staging directory left behind');
  });

  it('names a font package that is missing or has no matching file', async () => {
    await assert.rejects(prepareFonts({ root, packages: [{ name: '@fontsource-variable/not-a-font', files: /x/, scripts: 'none' }] }), /font package @fontsource-variable\/not-a-font is not installed/);
    await assert.rejects(prepareFonts({ root, packages: [{ name: '@fontsource/noto-emoji', files: /\.otf$/, scripts: 'none' }] }), /@fontsource\/noto-emoji@[\d.]+ has no file matching/);
    assert.deepEqual(fs.readdirSync(root), [], 'nothing half-prepared');
  });

  it('as root, puts them where the crawler\'s unprivileged user can read them, and says so at start-up', async function () {
    const fonts = await shippedFonts();
    assert.match(await startUpFonts(), /^fonts for Latin \(Vietnamese included\), Cyrillic, Greek, .*emoji: \d+ files, \d+ MiB in \S+/);
    if (process.getuid?.() !== 0) return this.skip();
    assert.equal(path.dirname(fonts.dir), FONTS_ROOT_AS_ROOT);
    const runAs = checkChromiumSandbox().runAs!;
    const ttf = path.join(fonts.dir, 'noto-sans-sc', fs.readdirSync(path.join(fonts.dir, 'noto-sans-sc'))[0]!);
    for (const file of [fonts.fontconfigFile, ttf]) {
      assert.equal(spawnSync('test', ['-r', file], { uid: runAs.uid, gid: runAs.gid, cwd: '/' }).status, 0, `${runAs.user} can read ${file}`);
      assert.notEqual(spawnSync('test', ['-w', file], { uid: runAs.uid, gid: runAs.gid, cwd: '/' }).status, 0, `${runAs.user} cannot write ${file}`);
    }
    assert.notEqual(spawnSync('test', ['-w', fonts.dir], { uid: runAs.uid, gid: runAs.gid, cwd: '/' }).status, 0, `${runAs.user} cannot add fonts`);
  });

  it('gives Chromium the fonts\' configuration, and starts it without them (saying so once) when they cannot be prepared', async () => {
    const configuredPath = process.execPath; // any executable: nothing is launched
    const fonts = await shippedFonts();
    assert.equal((await resolveChromium({ configuredPath })).fontconfigFile, fonts.fontconfigFile);

    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      const failing = { configuredPath, fonts: () => Promise.reject(new Error('no space left on device (as a test says)')) };
      const resolved = await resolveChromium(failing);
      assert.equal(resolved.fontconfigFile, undefined);
      assert.equal(resolved.executablePath, configuredPath);
      await resolveChromium(failing);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    assert.equal(warnings.length, 1, `one warning: ${JSON.stringify(warnings)}`);
    assert.match(warnings[0]!, /without the shipped fonts .*: no space left on device/);
  });

  it('converts because Chromium\'s FreeType reads TTF as a system font, and the packages\' WOFF2 not at all', async () => {
    const prepared = await shippedFonts();
    const woff2 = path.join(path.dirname(createRequire(__filename).resolve('@fontsource-variable/noto-sans-sc/package.json')), 'files');
    const drawn = async (fontDir: string): Promise<boolean> => {
      const conf = path.join(root, `${path.basename(fontDir)}.conf`);
      fs.writeFileSync(conf, `<?xml version="1.0"?>\n<fontconfig><dir>${fontDir}</dir><cachedir>${root}/cache</cachedir></fontconfig>\n`);
      const browser = await launchChromium({ ...(await resolveChromium()), fontconfigFile: conf });
      try {
        const page = await browser.newPage();
        const cell = (text: string) => `<span style="display:inline-block;width:60px;height:60px;font-size:48px">${text}</span>`;
        await page.setContent(`<body style="margin:0">${cell('中')}${cell('\u{10FFFD}')}</body>`);
        const [han, missing] = await Promise.all([0, 1].map((i) => page.locator('span').nth(i).screenshot()));
        return !han!.equals(missing!);
      } finally {
        await browser.close();
      }
    };
    assert.equal(await drawn(path.join(prepared.dir, 'noto-sans-sc')), true, 'the converted TTF draws 中');
    assert.equal(await drawn(woff2), false, 'the WOFF2 files draw nothing but the missing-glyph box: if they now do, the conversion can go');
  });
});
