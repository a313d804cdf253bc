// A scam site's text is readable in its screenshot whatever script it is written in: a page served
// on 127.0.0.1 with a few letters of each script, each in a cell of its own, is loaded and
// screenshotted through the crawler's real path (its sandboxed Chromium, CrawlerSession's routed
// requests, navigate, captureScreenshot), and every cell's ink is compared with a cell holding a
// codepoint no font has (U+10FFFD): a script without a font renders as that same box ("tofu"). The
// report renderer's Chromium is checked the same way, and a report PDF for the fonts it embeds.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { createBrowserProvider } from '../../infra/browser-pool';
import { resolveChromium } from '../../infra/chromium';
import { checkChromiumSandbox } from '../../infra/chromium-sandbox';
import { createCrawlerBrowser, type CrawlerBrowser } from '../../infra/crawler/crawler-browser';
import { CrawlerSession } from '../../infra/crawler/crawler-session';
import { captureScreenshot } from '../../infra/crawler/page-capture';
import { navigate } from '../../infra/crawler/page-actions';
import { renderPdf } from '../../services/reports/render-report';

/** A few letters of each script (isolated forms, no combining marks), and the language of the text. */
const SCRIPTS: ReadonlyArray<{ script: string; lang: string; letters: string[] }> = [
  { script: 'Latin (Vietnamese)', lang: 'vi', letters: ['ệ', 'ư', 'ặ', 'Đ'] },
  { script: 'Cyrillic', lang: 'ru', letters: ['Ж', 'Щ', 'Я', 'ф'] },
  { script: 'Greek', lang: 'el', letters: ['Ω', 'λ', 'ψ', 'Σ'] },
  { script: 'Simplified Chinese', lang: 'zh-Hans', letters: ['简', '体', '们', '钱'] },
  { script: 'Traditional Chinese', lang: 'zh-Hant', letters: ['繁', '體', '們', '錢'] },
  { script: 'Japanese', lang: 'ja', letters: ['あ', 'カ', '語', 'ぬ'] },
  { script: 'Korean', lang: 'ko', letters: ['한', '글', '말', '돈'] },
  { script: 'Thai', lang: 'th', letters: ['ก', 'ข', 'ษ', 'ฬ'] },
  { script: 'Arabic', lang: 'ar', letters: ['ب', 'ع', 'ش', 'ك'] },
  { script: 'Hebrew', lang: 'he', letters: ['א', 'ש', 'ת', 'ג'] },
  { script: 'Devanagari', lang: 'hi', letters: ['क', 'ख', 'ह', 'ञ'] },
  { script: 'emoji', lang: 'und', letters: ['😀', '🎉', '🚀', '💰'] },
];
const MISSING = '\u{10FFFD}';
const CELL = 80;
const PITCH = 90;

const cellAt = (row: number, col: number) => ({ left: 10 + col * PITCH, top: 10 + row * PITCH });

/** Row 0: the missing codepoint; then one row per script. No script, nothing external. */
function page(): string {
  const cell = (row: number, col: number, lang: string, text: string) => {
    const { left, top } = cellAt(row, col);
    return `<div lang="${lang}" style="position:absolute;left:${left}px;top:${top}px;width:${CELL}px;height:${CELL}px;font-size:48px;line-height:${CELL}px;text-align:center;overflow:hidden">${text}</div>`;
  };
  const rows = [cell(0, 0, 'und', MISSING), ...SCRIPTS.flatMap((s, i) => s.letters.map((l, j) => cell(i + 1, j, s.lang, l)))];
  return `<!doctype html><html><head><meta charset="utf-8"><title>scripts</title></head><body style="margin:0;background:#fff;color:#000">${rows.join('')}</body></html>`;
}

interface Gray { data: Buffer; width: number }

/** The cell's ink: which of its pixels are dark. */
function ink(img: Gray, row: number, col: number): boolean[] {
  const { left, top } = cellAt(row, col);
  const mask: boolean[] = [];
  for (let y = top; y < top + CELL; y++) for (let x = left; x < left + CELL; x++) mask.push(img.data[y * img.width + x]! < 160);
  return mask;
}

/** Overlap of two inks (intersection over union): 1 for the same drawing. */
function overlap(a: boolean[], b: boolean[]): number {
  let both = 0;
  let either = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] && b[i]) both++;
    if (a[i] || b[i]) either++;
  }
  return either === 0 ? 1 : both / either;
}

/** Every script whose letters are blank or drawn as the missing codepoint's box, with why. */
async function unreadable(png: Buffer): Promise<string[]> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  assert.equal(info.channels, 1);
  const img = { data, width: info.width };
  const tofu = ink(img, 0, 0);
  assert.ok(tofu.filter(Boolean).length > 50, 'the missing codepoint draws a box (the reference)');
  const bad: string[] = [];
  SCRIPTS.forEach((s, i) => {
    const problems = s.letters.flatMap((letter, j) => {
      const cell = ink(img, i + 1, j);
      const dark = cell.filter(Boolean).length;
      if (dark < 30) return [`${letter} blank (${dark} dark pixels)`];
      const same = overlap(cell, tofu);
      return same > 0.6 ? [`${letter} drawn as the missing-glyph box (overlap ${same.toFixed(2)})`] : [];
    });
    if (problems.length > 0) bad.push(`${s.script}: ${problems.join(', ')}`);
  });
  return bad;
}

describe('screenshots show every script the site writes in', function () {
  this.timeout(180_000);
  let server: http.Server;
  let origin: string;
  let crawler: CrawlerBrowser | undefined;

  before(async () => {
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await crawler?.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('the crawler\'s sandboxed Chromium draws Latin/Vietnamese, Cyrillic, Greek, Chinese, Japanese, Korean, Thai, Arabic, Hebrew, Devanagari and emoji', async () => {
    const sandbox = checkChromiumSandbox();
    assert.equal(sandbox.available, true, `the sandbox must be able to run on this machine: ${sandbox.problem}`);
    crawler = createCrawlerBrowser(() => resolveChromium(), sandbox, { allowUnsandboxed: false });
    const session = await CrawlerSession.open(await crawler.get(), 'screenshot-scripts', async () => ({ allowed: true, addresses: ['127.0.0.1'] }), 20_000);
    try {
      const response = await navigate(session.page, `${origin}/scripts`, 20_000);
      assert.equal(response?.status(), 200);
      const png = await captureScreenshot(session.page);
      assert.deepEqual(await unreadable(png), [], 'every script is drawn, none as boxes');
    } finally {
      await session.close();
    }
  });

  it('the report renderer\'s Chromium draws them too', async () => {
    const provider = createBrowserProvider({ chromium: () => resolveChromium() });
    try {
      const png = await provider.withPage(async (p: Page) => {
        await p.setViewportSize({ width: 1280, height: 1300 });
        await p.setContent(page());
        return p.screenshot({ type: 'png' });
      });
      assert.deepEqual(await unreadable(png), [], 'every script is drawn, none as boxes');
    } finally {
      await provider.close();
    }
  });

  it('a report PDF embeds the shipped fonts for the scripts the report font lacks', async () => {
    const provider = createBrowserProvider({ chromium: () => resolveChromium() });
    try {
      const text = '立即转账 한국어 ภาษาไทย हिन्दी 🎉';
      const pdf = await renderPdf(
        {
          template: 'wallet-activity',
          title: 'Scripts',
          asOf: '2025-03-31T09:00:00.000Z',
          generatedAt: '2025-03-31T09:00:04.000Z',
          scopeSummary: 'entity types: wallet',
          sections: [{ entityType: 'wallet', title: 'Wallets', columns: [{ key: 'a', label: 'Label' }], rows: [{ a: text }], emptyNote: '' }],
        },
        provider,
      );
      // Subset fonts are named XXXXXX+<PostScript name> in their descriptors.
      const embedded = new Set([...pdf.toString('latin1').matchAll(/\/FontName\s*\/[A-Z]{6}\+([\w-]+)/g)].map((m) => m[1]!));
      const names = [...embedded].join(' ');
      for (const [script, family] of [['Chinese', /\bNotoSans(SC|TC|JP|KR)-/], ['Korean', /\bNotoSans(KR|SC|TC|JP)-/], ['Thai', /\bNotoSansThai-/], ['Devanagari', /\bNotoSans(Devanagari)?-/], ['emoji', /\bNotoEmoji-/]] as const) {
        assert.match(names, family, `${script}: a shipped font is embedded; embedded: ${names}`);
      }
    } finally {
      await provider.close();
    }
  });
});
