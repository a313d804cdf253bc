// Resolves Chromium with no configured path and no Debian package, so the npm package unpacks its
// browser into $TMPDIR, then launches it and prints the source, path and browser version as JSON.
// Tests run several at once with a fresh TMPDIR to check that processes take turns unpacking.
import { launchChromium, resolveChromium } from '../../infra/chromium';

async function main(): Promise<void> {
  const resolved = await resolveChromium({ debianPath: '/nonexistent/fip-test/chromium' });
  const browser = await launchChromium(resolved);
  try {
    process.stdout.write(`${JSON.stringify({ source: resolved.source, executablePath: resolved.executablePath, version: browser.version() })}\n`);
  } finally {
    await browser.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
