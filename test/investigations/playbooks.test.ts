// SSI playbooks: the glob dialect (pure), playbook validation and matching, and the /playbooks/ssi
// routes against the real API and PostgreSQL.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { findMatchingPlaybook, findMatchingPlaybooks } from '../../db/repositories/investigations/playbook-repository';
import { firstMatchingPlaybook, matchingPlaybooks, PlaybookInputSchema } from '../../domain/investigations/playbooks';
import { compileGlob, globMatches, globSubject, GlobSyntaxError } from '../../domain/investigations/url-glob';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const picomatch = require('picomatch') as { isMatch: (s: string, p: string, o: object) => boolean };

const matches = (pattern: string, url: string) => globMatches(compileGlob(pattern), globSubject(url)!);

describe('SSI playbooks', function () {
  this.timeout(60_000);

  describe('URL glob dialect', () => {
    it('matches host + path case-insensitively, ignoring scheme, port, query and fragment', () => {
      assert.equal(globSubject('https://Pay.Scam.TEST:8443/Deposit?coin=btc#x'), 'pay.scam.test/deposit');
      assert.equal(matches('pay.scam.test/deposit', 'https://Pay.Scam.TEST:8443/Deposit?coin=btc#x'), true);
      assert.equal(matches('scam.test/**', 'http://scam.test'), true, 'the root path is "/"');
      assert.equal(matches('scam.test/**', 'http://scam.test.evil.test/'), false);
      assert.equal(matches('scam.test/**', 'http://evil.test/scam.test/'), false);
    });

    it('gives *, **, ?, [..], [!..], {a,b} and \\ their documented meaning', () => {
      const table: Array<[string, string, boolean]> = [
        ['*.scam.test/**', 'http://pay.scam.test/x', true],
        ['*.scam.test/**', 'http://scam.test/x', false],
        ['*.scam.test/**', 'http://a.b.scam.test/x', true],
        ['scam.test/*', 'http://scam.test/a', true],
        ['scam.test/*', 'http://scam.test/a/b', false],
        ['scam.test/**', 'http://scam.test/a/b', true],
        ['**/deposit*', 'http://x.test/a/deposit-usdt', true],
        ['**/deposit*', 'http://x.test/a/withdraw', false],
        ['scam.test/p?', 'http://scam.test/p1', true],
        ['scam.test/p?', 'http://scam.test/p/', false],
        ['scam.test/[a-c]x', 'http://scam.test/bx', true],
        ['scam.test/[!a-c]x', 'http://scam.test/bx', false],
        ['scam.test/[!a-c]x', 'http://scam.test/dx', true],
        ['scam.test/[^a-c]x', 'http://scam.test/dx', true],
        ['{scam.test,*.scam.test}/**', 'http://scam.test/', true],
        ['{scam.test,*.scam.test}/**', 'http://w.scam.test/', true],
        ['{scam.test,*.scam.test}/**', 'http://scam2.test/', false],
        ['scam.test/a\\*b', 'http://scam.test/a*b', true],
        ['scam.test/a\\*b', 'http://scam.test/axb', false],
        ['scam.test/a.b', 'http://scam.test/axb', false],
      ];
      for (const [p, url, expected] of table) assert.equal(matches(p, url), expected, `${p} vs ${url}`);
    });

    it('agrees with picomatch on the shared subset (except that * may match an empty segment)', () => {
      const patterns = ['scam.test/**', '*.scam.test/**', '**/deposit*', 'scam.test/*', 'scam.test/[a-c]?', '{scam.test,*.scam.test}/**', 'scam.test/p?/*.html'];
      const subjects = ['scam.test/', 'scam.test/a/b', 'pay.scam.test/x', 'scam.test/x', 'scam.test/deposit', 'x.test/a/deposit-usdt', 'scam.test/bx', 'a.scam.test/', 'scam.test/p1/index.html', 'scam.test/p1/x/index.html'];
      assert.equal(matches('scam.test/*', 'http://scam.test/'), true, 'documented difference: * may match nothing');
      for (const p of patterns) {
        for (const s of subjects) {
          if (p === 'scam.test/*' && s === 'scam.test/') continue;
          assert.equal(globMatches(compileGlob(p), s), picomatch.isMatch(s, p, { nocase: true, dot: true, noextglob: true }), `${p} vs ${s}`);
        }
      }
    });

    it('rejects what is not in the dialect, with a reason', () => {
      const bad: Array<[string, RegExp]> = [
        ['', /empty/],
        ['a'.repeat(201), /longer than 200/],
        ['+(a|b).test/**', /extglobs/],
        ['@(a).test/**', /extglobs/],
        ['*(a).test', /extglobs/],
        ['!scam.test/**', /negated/],
        ['(a|b).test', /not part of the glob dialect/],
        ['{a,{b,c}}.test', /nested/],
        ['{a}.test', /at least two alternatives/],
        ['{a,b.test', /without its \}/],
        ['a}.test', /without its \{/],
        ['[a-c.test', /without its \]/],
        ['[z-a].test', /reversed/],
        ['https://scam.test/**', /without the scheme/],
        ['scam .test', /whitespace/],
        [`{${Array.from({ length: 17 }, (_, i) => `a${i}`).join(',')}}`, /at most 16 alternatives/],
        ['{a,b,c,d,e}{a,b,c,d,e}{a,b,c}', /more than 64 patterns/],
        ['a\\', /trailing/],
      ];
      for (const [p, reason] of bad) assert.throws(() => compileGlob(p), (e: unknown) => e instanceof GlobSyntaxError && reason.test(e.message), JSON.stringify(p));
    });

    it('stays linear on patterns that make backtracking regex engines explode', () => {
      const evil = `${'*a'.repeat(40)}b`;
      const subject = `x.test/${'a'.repeat(4000)}`;
      const started = process.hrtime.bigint();
      assert.equal(globMatches(compileGlob(evil), subject), false);
      assert.equal(globMatches(compileGlob(`${'**a'.repeat(40)}b`), subject), false);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      assert.ok(ms < 1000, `took ${ms} ms`);
    });
  });

  describe('playbook validation and matching (pure)', () => {
    it('validates steps as a discriminated union with field paths, and applies defaults', () => {
      const ok = PlaybookInputSchema.parse({
        name: ' deposit flow ',
        url_patterns: ['scam.test/**'],
        steps: [
          { type: 'click', selector: '#deposit' },
          { type: 'fill', selector: 'input[name=amount]', value: '100' },
          { type: 'wait_for_text', text: 'Deposit address' },
          { type: 'coin_tabs', selectors: ['.tab-btc', '.tab-eth'] },
          { type: 'limit_pages', max: 5 },
        ],
      });
      assert.equal(ok.name, 'deposit flow');
      assert.equal(ok.enabled, true);
      assert.deepEqual(ok.steps[2], { type: 'wait_for_text', text: 'Deposit address', timeout_s: 10 });
      const bad = PlaybookInputSchema.safeParse({ name: 'x', url_patterns: ['ok.test/**', '+(a)'], steps: [{ type: 'click' }, { type: 'teleport' }, { type: 'limit_pages', max: 0 }] });
      assert.equal(bad.success, false);
      const paths = bad.error!.issues.map((i) => i.path.join('.')).sort();
      assert.deepEqual(paths, ['steps.0.selector', 'steps.1.type', 'steps.2.max', 'url_patterns.1']);
    });

    it('firstMatchingPlaybook takes the first enabled playbook in the order given, with the pattern that matched', () => {
      const pbs = [
        { id: 'disabled', url_patterns: ['**'], enabled: false },
        { id: 'other', url_patterns: ['other.test/**'], enabled: true },
        { id: 'first', url_patterns: ['nope.test/**', '*.scam.test/deposit*'], enabled: true },
        { id: 'second', url_patterns: ['**/deposit'], enabled: true },
      ];
      const m = firstMatchingPlaybook(pbs, 'https://pay.scam.test/deposit');
      assert.equal(m?.playbook.id, 'first');
      assert.equal(m?.pattern, '*.scam.test/deposit*');
      assert.deepEqual(matchingPlaybooks(pbs, 'https://pay.scam.test/deposit').map((x) => [x.playbook.id, x.pattern]), [['first', '*.scam.test/deposit*'], ['second', '**/deposit']]);
      assert.equal(firstMatchingPlaybook(pbs, 'https://unrelated.test/'), null);
      assert.equal(firstMatchingPlaybook(pbs, 'not a url'), null);
      assert.equal(firstMatchingPlaybook([{ id: 'broken', url_patterns: ['+(x)'], enabled: true }], 'https://x/'), null, 'a stored pattern that does not parse never matches');
    });
  });

  describe('routes', () => {
    let url: string;
    let analyst: Record<string, string>;
    let researcher: Record<string, string>;
    let reviewer: Record<string, string>;
    let admin: Record<string, string>;
    let readKey: Record<string, string>;
    let writeKey: Record<string, string>;
    const site = () => `${randomUUID().slice(0, 8)}.scam.test`;
    const playbook = (host: string, over: Record<string, unknown> = {}) => ({
      name: `pb ${host}`,
      url_patterns: [`${host}/**`],
      steps: [{ type: 'click', selector: '#deposit' }, { type: 'coin_tabs', selectors: ['.coin'] }],
      ...over,
    });

    before(async () => {
      const users = await usersForEveryRole();
      analyst = asUser(users.analyst);
      admin = asUser(users.admin);
      researcher = asUser(users.researcher);
      reviewer = asUser(users.reviewer);
      readKey = { 'X-API-KEY': await createTestApiKey(['investigations:read']) };
      writeKey = { 'X-API-KEY': await createTestApiKey(['investigations:write']) };
      url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
    });

    it('creates (201), reads, replaces, lists and deletes a playbook, recording who did it', async () => {
      const host = site();
      const created = await http(`${url}/playbooks/ssi`, { method: 'POST', headers: analyst, json: playbook(host) });
      assert.equal(created.status, 201, created.text);
      const id = created.body.id as string;
      assert.equal(created.body.enabled, true);
      assert.match(created.body.created_by, /^analyst-/);
      assert.deepEqual(created.body.steps, [{ type: 'click', selector: '#deposit' }, { type: 'coin_tabs', selectors: ['.coin'] }]);

      const got = await http(`${url}/playbooks/ssi/${id}`, { headers: readKey });
      assert.equal(got.status, 200);
      assert.deepEqual(got.body, created.body);

      const put = await http(`${url}/playbooks/ssi/${id}`, {
        method: 'PUT',
        headers: writeKey,
        json: playbook(host, { name: 'renamed', enabled: false, steps: [{ type: 'wait_for_text', text: 'USDT', timeout_s: 5 }] }),
      });
      assert.equal(put.status, 200, put.text);
      assert.equal(put.body.name, 'renamed');
      assert.equal(put.body.enabled, false);
      assert.match(put.body.updated_by, /^service:test-/);
      assert.ok(put.body.updated_at >= created.body.updated_at);
      assert.equal(put.body.created_by, created.body.created_by);

      const listed = await http(`${url}/playbooks/ssi?enabled=false&limit=500`, { headers: admin });
      assert.equal(listed.status, 200);
      assert.ok(listed.body.items.some((p: { id: string }) => p.id === id));
      assert.ok(listed.body.items.every((p: { enabled: boolean }) => p.enabled === false));

      assert.equal((await http(`${url}/playbooks/ssi/${id}`, { method: 'DELETE', headers: admin })).status, 204);
      assert.equal((await http(`${url}/playbooks/ssi/${id}`, { headers: admin })).status, 404);
      assert.equal((await http(`${url}/playbooks/ssi/${id}`, { method: 'DELETE', headers: admin })).status, 404);
      assert.equal((await http(`${url}/playbooks/ssi/${id}`, { method: 'PUT', headers: admin, json: playbook(host) })).status, 404);
    });

    it('pages the list newest first with keyset cursors', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1) ids.push((await http(`${url}/playbooks/ssi`, { method: 'POST', headers: analyst, json: playbook(site()) })).body.id);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { status: number; body: { items: Array<{ id: string }>; next_cursor: string | null } } = await http(`${url}/playbooks/ssi?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { headers: analyst });
        assert.equal(page.status, 200);
        assert.ok(page.body.items.length <= 2);
        seen.push(...page.body.items.map((p) => p.id));
        cursor = page.body.next_cursor;
      } while (cursor);
      assert.equal(new Set(seen).size, seen.length, 'no playbook twice');
      const positions = ids.map((id) => seen.indexOf(id));
      assert.ok(positions.every((p) => p >= 0));
      assert.deepEqual([...positions].sort((a, b) => b - a), positions, 'newest first');
      assert.equal((await http(`${url}/playbooks/ssi?cursor=garbage`, { headers: analyst })).status, 400);
    });

    it('answers 400 with field paths for invalid playbooks and stores nothing', async () => {
      const before = Number((await testKnex()('ssi_playbooks').count({ n: '*' }))[0].n);
      const cases: Array<[unknown, string[]]> = [
        [{ ...playbook(site()), url_patterns: [] }, ['body.url_patterns']],
        [{ ...playbook(site()), url_patterns: ['ok.test/**', '+(a|b)'] }, ['body.url_patterns.1']],
        [{ ...playbook(site()), url_patterns: Array.from({ length: 21 }, (_, i) => `s${i}.test/**`) }, ['body.url_patterns']],
        [{ ...playbook(site()), steps: [{ type: 'click', selector: '#a' }, { type: 'fill', selector: '#b' }] }, ['body.steps.1.value']],
        [{ ...playbook(site()), steps: [{ type: 'jump' }] }, ['body.steps.0.type']],
        [{ ...playbook(site()), steps: [{ type: 'limit_pages', max: 201 }] }, ['body.steps.0.max']],
        [{ ...playbook(site()), steps: [{ type: 'wait_for_text', text: 'x', timeout_s: 0 }] }, ['body.steps.0.timeout_s']],
        [{ ...playbook(site()), steps: [{ type: 'coin_tabs', selectors: [] }] }, ['body.steps.0.selectors']],
        [{ ...playbook(site()), name: '' }, ['body.name']],
        [{ ...playbook(site()), regex: '.*' }, ['body']],
      ];
      for (const [body, paths] of cases) {
        const res = await http(`${url}/playbooks/ssi`, { method: 'POST', headers: analyst, json: body });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.error.code, 'validation_failed');
        assert.deepEqual(res.body.error.details.map((d: { path: string }) => d.path), paths, JSON.stringify(res.body));
      }
      const after = Number((await testKnex()('ssi_playbooks').count({ n: '*' }))[0].n);
      assert.equal(after, before);
      assert.equal((await http(`${url}/playbooks/ssi/not-a-uuid`, { headers: analyst })).status, 400);
    });

    it('test-match answers the matching enabled playbooks (oldest first) with the pattern that matched; the workflow lookup agrees', async () => {
      const host = site();
      const mk = async (over: Record<string, unknown>) => (await http(`${url}/playbooks/ssi`, { method: 'POST', headers: analyst, json: playbook(host, over) })).body.id as string;
      const first = await mk({ url_patterns: [`nothing.${host}/**`, `${host}/deposit*`] });
      const second = await mk({ url_patterns: [`{${host},*.${host}}/**`] });
      const disabled = await mk({ enabled: false });
      const elsewhere = await mk({ url_patterns: [`elsewhere.${host}/**`] });

      const res = await http(`${url}/playbooks/ssi/test-match`, { method: 'POST', headers: readKey, json: { url: `https://${host.toUpperCase()}:8443/deposit-usdt?x=1` } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.subject, `${host}/deposit-usdt`);
      const mine = res.body.matches.filter((m: { playbook: { id: string } }) => [first, second, disabled, elsewhere].includes(m.playbook.id));
      assert.deepEqual(mine.map((m: { playbook: { id: string }; pattern: string }) => [m.playbook.id, m.pattern]), [[first, `${host}/deposit*`], [second, `{${host},*.${host}}/**`]]);
      assert.equal(res.body.selected_playbook_id, res.body.matches[0].playbook.id);

      const viaRepo = await findMatchingPlaybooks(testKnex(), `https://${host}/deposit-usdt`);
      assert.deepEqual(viaRepo.map((m) => m.playbook.id), res.body.matches.map((m: { playbook: { id: string } }) => m.playbook.id));
      const one = await findMatchingPlaybook(testKnex(), `https://${host}/deposit-usdt`);
      assert.equal(one?.playbook.id, res.body.selected_playbook_id);
      assert.ok(one!.playbook.steps.length > 0);

      const none = await http(`${url}/playbooks/ssi/test-match`, { method: 'POST', headers: analyst, json: { url: `https://${host}/` } });
      assert.ok(!none.body.matches.some((m: { playbook: { id: string } }) => m.playbook.id === first), 'first matches only deposit pages');
      assert.ok(none.body.matches.some((m: { playbook: { id: string } }) => m.playbook.id === second));

      const put = await http(`${url}/playbooks/ssi/test-match`, { method: 'PUT', headers: analyst, json: playbook(host) });
      assert.equal(put.status, 405, 'test-match is not a playbook id');
      assert.equal(put.headers.get('allow'), 'POST');
      for (const bad of ['ftp://x.test/', 'not a url', '']) {
        const r = await http(`${url}/playbooks/ssi/test-match`, { method: 'POST', headers: analyst, json: { url: bad } });
        assert.equal(r.status, 400, bad);
        assert.equal(r.body.error.details[0].path, 'body.url');
      }
    });

    it('lets admins, analysts and investigations keys write; investigations:read keys read; researchers and reviewers neither', async () => {
      const host = site();
      for (const who of [researcher, reviewer, readKey]) {
        assert.equal((await http(`${url}/playbooks/ssi`, { method: 'POST', headers: who, json: playbook(host) })).status, 403);
      }
      for (const who of [researcher, reviewer]) {
        assert.equal((await http(`${url}/playbooks/ssi`, { headers: who })).status, 403);
        assert.equal((await http(`${url}/playbooks/ssi/test-match`, { method: 'POST', headers: who, json: { url: 'https://x.test/' } })).status, 403);
      }
      assert.equal((await http(`${url}/playbooks/ssi`)).status, 401);
      assert.equal((await http(`${url}/playbooks/ssi`, { headers: readKey })).status, 200);
      assert.equal((await http(`${url}/playbooks/ssi`, { method: 'POST', headers: writeKey, json: playbook(host) })).status, 201);
      assert.equal((await http(`${url}/playbooks/ssi`, { method: 'POST', headers: admin, json: playbook(host) })).status, 201);
    });
  });
});
