// The crawler's Chromium runs with its sandbox on and, when the platform is root, as the unprivileged
// fip-chromium user: every process of the launched browser is inspected in /proc (its uids, its
// command line, the renderer's namespaces and seccomp filter). Where the sandbox cannot run, the
// crawler refuses to browse unless SVC_CRAWLER__ALLOW_UNSANDBOXED says otherwise.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { resolveChromium } from '../../infra/chromium';
import { CHROMIUM_USER, checkChromiumSandbox, describeChromiumSandbox } from '../../infra/chromium-sandbox';
import { createCrawlerBrowser, type CrawlerBrowser } from '../../infra/crawler/crawler-browser';
import { shippedFonts } from '../../infra/fonts';

interface Proc { pid: number; ppid: number; uids: number[]; seccomp: number; cmdline: string[]; userNs: string; pidNs: string }

function readProc(pid: number): Proc | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => status.match(new RegExp(`^${name}:\\s*(.*)$`, 'm'))?.[1] ?? '';
    return {
      pid,
      ppid: Number(field('PPid')),
      uids: field('Uid').split(/\s+/).map(Number),
      seccomp: Number(field('Seccomp')),
      // Chromium's child processes rewrite their title: one string, arguments joined by spaces.
      cmdline: fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/).filter(Boolean),
      userNs: fs.readlinkSync(`/proc/${pid}/ns/user`),
      pidNs: fs.readlinkSync(`/proc/${pid}/ns/pid`),
    };
  } catch {
    return null; // gone meanwhile
  }
}

function allProcesses(): Proc[] {
  return fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map((d) => readProc(Number(d))).filter((p): p is Proc => p !== null);
}

/** The pids alive now: browsers other tests of the same run left open are not this test's. */
function pidsNow(): Set<number> {
  return new Set(allProcesses().map((p) => p.pid));
}

/**
 * The browser processes this test started: descended from this process, not alive before
 * `before` was taken, nor descended from a process that was (another test's browser).
 */
function browserProcesses(before: Set<number>): Proc[] {
  const all = allProcesses();
  const mine = new Set([process.pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of all) if (!mine.has(p.pid) && !before.has(p.pid) && mine.has(p.ppid)) { mine.add(p.pid); grew = true; }
  }
  return all.filter((p) => p.pid !== process.pid && mine.has(p.pid) && p.cmdline.some((a) => a.startsWith('--type=') || a.startsWith('--remote-debugging-pipe')));
}

async function renderSomething(browser: Browser): Promise<void> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.setContent('<h1>sandboxed</h1><p>a renderer must exist for this test</p>');
  assert.ok((await page.screenshot()).length > 1000);
  assert.match(await page.content(), /sandboxed/);
}

describe('the crawler\'s Chromium is sandboxed', function () {
  this.timeout(120_000);
  let crawler: CrawlerBrowser | undefined;
  afterEach(async () => {
    await crawler?.close();
    crawler = undefined;
  });

  it('runs as the unprivileged user when the platform is root, with the sandbox on in every process', async function () {
    const sandbox = checkChromiumSandbox();
    assert.equal(sandbox.available, true, `the sandbox must be able to run on this machine: ${sandbox.problem}`);
    const root = process.getuid?.() === 0;
    if (root) assert.equal(sandbox.runAs?.user, CHROMIUM_USER);
    assert.match(describeChromiumSandbox(sandbox, false), /^crawler browser sandboxed/);
    const before = pidsNow();
    crawler = createCrawlerBrowser(() => resolveChromium(), sandbox, { allowUnsandboxed: false });
    const browser = await crawler.get();
    await renderSomething(browser);

    const procs = browserProcesses(before);
    const main = procs.find((p) => !p.cmdline.some((a) => a.startsWith('--type=')));
    assert.ok(main, `the browser's main process; found ${procs.map((p) => p.cmdline.slice(0, 2).join(' '))}`);
    const renderers = procs.filter((p) => p.cmdline.includes('--type=renderer'));
    assert.ok(renderers.length >= 1, `a renderer process; found ${JSON.stringify(procs.map((p) => [p.pid, p.ppid, p.cmdline.slice(0, 3)]))}`);
    const expectedUid = root ? sandbox.runAs!.uid : process.getuid!();
    for (const p of procs) {
      assert.deepEqual(p.uids, [expectedUid, expectedUid, expectedUid, expectedUid], `pid ${p.pid} (${p.cmdline[1] ?? ''}) runs as uid ${expectedUid}`);
      assert.ok(!p.cmdline.includes('--no-sandbox'), `pid ${p.pid} has no --no-sandbox: ${p.cmdline.join(' ').slice(0, 300)}`);
    }
    // Its short environment carries the shipped fonts' configuration (infra/fonts.ts), which that user can read.
    const environ = fs.readFileSync(`/proc/${main.pid}/environ`, 'utf8').split('\0');
    assert.ok(environ.includes(`FONTCONFIG_FILE=${(await shippedFonts()).fontconfigFile}`), `FONTCONFIG_FILE in ${environ.map((e) => e.split('=')[0]).join(' ')}`);
    for (const r of renderers) {
      assert.equal(r.seccomp, 2, `renderer ${r.pid} runs under a seccomp-bpf filter`);
      assert.notEqual(r.userNs, main.userNs, `renderer ${r.pid} is in its own user namespace`);
      assert.notEqual(r.pidNs, main.pidNs, `renderer ${r.pid} is in its own PID namespace`);
    }
  });

  it('refuses to browse where the sandbox cannot run, saying why, unless SVC_CRAWLER__ALLOW_UNSANDBOXED', async () => {
    const sandbox = checkChromiumSandbox({ probe: () => 'user namespaces are refused (as a test says)' });
    assert.equal(sandbox.available, false);
    assert.match(describeChromiumSandbox(sandbox, false), /refuses to start: user namespaces are refused .* SVC_CRAWLER__ALLOW_UNSANDBOXED=true/);
    const before = pidsNow();
    crawler = createCrawlerBrowser(() => resolveChromium(), sandbox, { allowUnsandboxed: false });
    await assert.rejects(crawler.get(), (err: Error & { type?: string; nonRetryable?: boolean }) => {
      assert.equal(err.type, 'CrawlerSandboxUnavailable');
      assert.equal(err.nonRetryable, true);
      assert.match(err.message, /without Chromium's sandbox: user namespaces are refused .*SVC_CRAWLER__ALLOW_UNSANDBOXED=true/);
      return true;
    });
    assert.deepEqual(browserProcesses(before), [], 'no browser was started');
    await crawler.close();

    // Told to go on: still never as root, but without the sandbox (which could not start).
    crawler = createCrawlerBrowser(() => resolveChromium(), sandbox, { allowUnsandboxed: true });
    await renderSomething(await crawler.get());
    const procs = browserProcesses(before);
    assert.ok(procs.length > 0);
    if (process.getuid?.() === 0) for (const p of procs) assert.notEqual(p.uids[0], 0, `pid ${p.pid} is not root`);
    assert.ok(procs.some((p) => p.cmdline.includes('--no-sandbox')), 'the browser was told it has no sandbox');
  });
});
