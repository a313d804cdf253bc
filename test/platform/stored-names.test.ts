// Names people give things are stored without bidirectional formatting or control characters: an
// intake upload's file name (U+202E turns `invoice_<RLO>fdp.exe` into what reads as
// `invoice_exe.pdf`), case titles, campaign and saved-search names, and the other names and
// titles that go through domain/text-safety.ts.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sanitizeFilename } from '../../domain/intakes/intake-files';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { pageTitle } from '../../infra/crawler/page-actions';
import { hasUnsafeNameCharacters, nameText, stripUnsafeNameCharacters } from '../../domain/text-safety';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { intakeForm } from '../support/intake-fixtures';
import { startTestApi } from '../support/platform';

const RLO = '\u202e';
const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/; // eslint-disable-line no-control-regex -- what must not be stored

describe('stored names', () => {
  describe('the rules (domain/text-safety.ts)', () => {
    it('remove every bidirectional formatting character, C0, DEL, C1 and the BOM; breaks and tabs become a space', () => {
      for (const c of BIDI) assert.equal(stripUnsafeNameCharacters(`a${c}b`), 'ab', `U+${c.codePointAt(0)!.toString(16)}`);
      assert.equal(stripUnsafeNameCharacters('a\u0007b\u001bc\u007fd\u009be\ufefff'), 'abcdef');
      assert.equal(stripUnsafeNameCharacters('line\r\none\ttab\u2028sep\u0085nel'), 'line one tab sep nel');
      assert.equal(stripUnsafeNameCharacters('famille 👨\u200d👩\u200d👧 می\u200cخواهم'), 'famille 👨\u200d👩\u200d👧 می\u200cخواهم', 'joiners stay');
      assert.equal(hasUnsafeNameCharacters(`x${RLO}`), true);
      assert.equal(hasUnsafeNameCharacters('Ünïcödé ✓'), false);
      assert.equal(nameText(10).parse(`  ${RLO}Case\u2066 `), 'Case');
      assert.equal(nameText(10).safeParse(`${RLO}\u202c`).success, false, 'nothing left is not a name');
    });

    it('file names: bidi removed, C0 and C1 controls become underscores', () => {
      assert.equal(sanitizeFilename(`invoice_${RLO}fdp.exe`), 'invoice_fdp.exe');
      assert.equal(sanitizeFilename(`\u2067photo\u2069\u200f.jpg`), 'photo.jpg');
      assert.equal(sanitizeFilename('a\u009bb\u0085.txt'), 'a_b_.txt');
      assert.equal(sanitizeFilename(RLO), 'file');
    });
  });

  it('a crawled page\'s title (a hostile site names it) is kept without them too', async function () {
    this.timeout(60_000);
    const browser = await launchChromium(await resolveChromium());
    try {
      const page = await browser.newPage();
      await page.setContent('<title>\u202eTrusted Exchange\u202c\u0085Login</title><p>x</p>');
      assert.equal(await page.title(), '\u202eTrusted Exchange\u202c\u0085Login');
      assert.equal(await pageTitle(page), 'Trusted Exchange Login');
      await page.setContent('<title>\u2067\u2069</title>');
      assert.equal(await pageTitle(page), null);
    } finally {
      await browser.close();
    }
  });

  describe('through the API', () => {
    let url: string;
    let analyst: Record<string, string>;
    before(async () => {
      url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
      analyst = asUser((await usersForEveryRole()).analyst);
    });

    it('an intake upload\'s file name is stored without bidi or control characters', async () => {
      const key = await createTestApiKey(['intake:write']);
      const form = intakeForm({ summary: 'bidi file name', source: 'partner-hotline' }, [
        { name: `invoice_${RLO}fdp.exe`, type: 'application/octet-stream', bytes: 'MZ not really' },
        { name: `\u2066report\u2069\u0085.pdf`, type: 'application/pdf', bytes: 'not really' },
      ]);
      const res = await http(`${url}/intakes`, { method: 'POST', headers: { 'X-API-KEY': key }, body: form });
      assert.equal(res.status, 201, res.text);
      const detail = await http(`${url}/intakes/${res.body.id}`, { headers: analyst });
      assert.equal(detail.status, 200, detail.text);
      const names = detail.body.files.map((f: { filename: string }) => f.filename);
      assert.deepEqual(names, ['invoice_fdp.exe', 'report_.pdf']);
      for (const n of names) assert.doesNotMatch(n, UNSAFE);
    });

    it('case titles (create and change), campaign and saved-search names are stored stripped', async () => {
      const created = await http(`${url}/cases`, { method: 'POST', headers: analyst, json: { title: `Refund ${RLO}gpj.exe\u0007 scam` } });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.title, 'Refund gpj.exe scam');
      const patched = await http(`${url}/cases/${created.body.id}`, { method: 'PATCH', headers: analyst, json: { title: `\u202bRenamed\u202c\r\ncase` } });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(patched.body.title, 'Renamed case');
      const read = await http(`${url}/cases/${created.body.id}`, { headers: analyst });
      assert.equal(read.body.title, 'Renamed case');

      const tag = randomUUID().slice(0, 8);
      const campaign = await http(`${url}/campaigns`, { method: 'POST', headers: analyst, json: { name: `${RLO}Op ${tag}\u009b` } });
      assert.equal(campaign.status, 201, campaign.text);
      assert.equal(campaign.body.name, `Op ${tag}`);

      const saved = await http(`${url}/reviews/search/saved`, { method: 'POST', headers: analyst, json: { name: `\u2067Mine ${tag}\u2069`, query: '' } });
      assert.equal(saved.status, 201, saved.text);
      assert.equal(saved.body.name, `Mine ${tag}`);
    });

    it('a name of nothing but such characters is refused, not stored empty', async () => {
      const res = await http(`${url}/cases`, { method: 'POST', headers: analyst, json: { title: `${RLO}\u202c\u0007` } });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, 'validation_failed');
    });
  });
});
