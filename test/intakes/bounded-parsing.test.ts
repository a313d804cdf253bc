// The parser bounds on their own (services/intakes/bounded-parsing.ts, infra/isolated-process.ts):
// each hostile file is stopped at its bound in a process of its own, with a reason, and this
// process (which would have died of the same file) carries on. Small bounds, so the bombs are
// small. And htmlToText stays linear on hostile pages.
import assert from 'node:assert/strict';
import { createBoundedParser } from '../../services/intakes/bounded-parsing';
import { htmlToText } from '../../services/intakes/intake-text';
import { pdfTextBomb, pdfWithText } from '../support/intake-fixtures';

describe('bounded parsing of intake files', function () {
  this.timeout(60_000);
  const parser = createBoundedParser({ max_text_mb: 1, timeout_seconds: 3, max_memory_mb: 256, max_concurrent: 2 });
  const MiB = 1024 * 1024;

  it('reads an ordinary PDF and HTML page in full', async () => {
    const pdf = await parser.readFile(pdfWithText('Deposit address TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE'), 'application/pdf');
    assert.equal(pdf.status, 'read');
    assert.ok('text' in pdf && pdf.text.includes('TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE'));
    const html = await parser.readFile(Buffer.from('<html><body><p>Pay to <a href="https://pay.example.com/x">here</a></p></body></html>'), 'text/html');
    assert.equal(html.status, 'read');
    assert.ok('html' in html && html.html?.includes('href'));
  });

  it('keeps the first max_text_mb of a longer text and says it was truncated', async () => {
    const text = Buffer.from('fraud line 0123456789 abcdefghij\n'.repeat(Math.ceil((3 * MiB) / 33)));
    const got = await parser.readFile(text, 'text/plain');
    assert.equal(got.status, 'truncated');
    assert.ok('text' in got);
    assert.equal(got.text.length, MiB);
    assert.match(got.reason ?? '', /1 MiB of characters, SVC_PARSER__MAX_TEXT_MB/);
  });

  it('stops a parser at its time bound (a PDF of 40 MiB of short lines, with room for its text and memory)', async () => {
    const roomy = createBoundedParser({ max_text_mb: 64, timeout_seconds: 2, max_memory_mb: 4096, max_concurrent: 1 });
    const started = Date.now();
    const got = await roomy.readFile(pdfTextBomb(40, 'lines'), 'application/pdf');
    assert.equal(got.status, 'skipped_too_large', 'reason' in got ? String(got.reason) : '');
    assert.match(got.reason ?? '', /time bound \(2 s, SVC_PARSER__TIMEOUT_SECONDS\)/);
    assert.ok(Date.now() - started < 10_000, `stopped after ${Date.now() - started} ms`);
  });

  it('turns HTML into text in one linear pass, hostile pages included', () => {
    const page = '<html><body><p>Pay to <a class="x" href="https://pay.example.com/x">here</a></p><script>var w="TQn"</script><STYLE>p{}</STYLE>after<br/>x &amp;lt; y<noscript>no</noscript>end</body></html>';
    assert.equal(htmlToText(page), ' Pay to https://pay.example.com/x here \n after\nx &lt; y end ');
    assert.equal(htmlToText('<p>kept<script>an unclosed script runs to the end'), ' kept ');
    // With `<[^>]*>`-style expressions (quadratic) a tenth of each of these already takes 2 to 17 s
    // on this machine, so the whole would take minutes to hours; the linear pass takes under 1 s when
    // idle. The bound leaves room for a loaded CI machine (three test processes on two cores) and
    // still fails a quadratic pass by two orders of magnitude.
    for (const hostile of ['<script>'.repeat(250_000), '<a href="'.repeat(230_000), '<'.repeat(2_000_000), '<a '.repeat(700_000)]) {
      const started = Date.now();
      htmlToText(hostile);
      assert.ok(Date.now() - started < 15_000, `${hostile.slice(0, 12)}...: ${Date.now() - started} ms`);
    }
  });

  it('stops a parser at its memory bound: a small PDF whose one string is 150 MiB (it aborts V8 when unbounded)', async () => {
    const bomb = pdfTextBomb(150, 'one-string');
    assert.ok(bomb.length < 400 * 1024, `${bomb.length} bytes`);
    // A roomy time bound: on a slow, shared machine the 3 s of the suite's parser can run out before
    // the string reaches 256 MiB, and then this test would measure the clock instead of the memory bound.
    const slowButSmall = createBoundedParser({ max_text_mb: 1, timeout_seconds: 60, max_memory_mb: 256, max_concurrent: 1 });
    const got = await slowButSmall.readFile(bomb, 'application/pdf');
    assert.equal(got.status, 'skipped_too_large');
    assert.match(got.reason, /memory bound \(256 MiB, SVC_PARSER__MAX_MEMORY_MB\)/);
    assert.ok('failure' in got && got.failure && got.failure.peakMemoryMb >= 200, JSON.stringify('failure' in got ? got.failure : null));
  });

  it('marks a damaged file parse_failed with the parser\'s message, and skips types without text', async () => {
    const got = await parser.readFile(Buffer.from('%PDF-1.4\nthis is not a pdf at all'), 'application/pdf');
    assert.equal(got.status, 'parse_failed');
    assert.match(got.reason, /^the parser could not read it: \S/);
    const png = await parser.readFile(Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png');
    assert.deepEqual(png, { status: 'skipped', reason: 'no text is read from image/png files' });
  });

  it('finds the entities of a long text in a parser process, and of a short one inline', async () => {
    const long = `${'filler words without anything in them\n'.repeat(2000)}write to ledger@scam-bank.example`;
    const far = await parser.findEntities({ text: long, where: 'file:x.txt' });
    assert.ok(far.ok);
    assert.deepEqual(far.entities.map((e) => `${e.type}:${e.value}`), ['email:ledger@scam-bank.example']);
    const near = await parser.findEntities({ text: 'mail ledger@scam-bank.example', where: 'details' });
    assert.ok(near.ok && near.entities.length === 1);
  });

  it('several bombs at once are each stopped, and this process stays responsive meanwhile', async () => {
    const bomb = pdfTextBomb(150, 'one-string');
    let worstLagMs = 0;
    let last = Date.now();
    const lag = setInterval(() => {
      worstLagMs = Math.max(worstLagMs, Date.now() - last - 20);
      last = Date.now();
    }, 20);
    try {
      const got = await Promise.all([1, 2, 3].map(() => parser.readFile(bomb, 'application/pdf')));
      assert.deepEqual(got.map((g) => g.status), ['skipped_too_large', 'skipped_too_large', 'skipped_too_large']);
    } finally {
      clearInterval(lag);
    }
    assert.ok(worstLagMs < 500, `the event loop stalled ${worstLagMs} ms`);
  });
});
