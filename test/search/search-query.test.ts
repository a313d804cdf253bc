// The search engine over seeded data on real PostgreSQL, through the API: every operator,
// precedence, NOT, phrases, wildcards, number and date ranges, record types, pagination, masking
// per role, researchers' aggregates, the legacy form, the schema route and history isolation.
// Each test seeds its own records with its own random words (no test reads another's data).
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { createCase, linkToCase } from '../../db/repositories/cases/case-repository';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { insertInvestigation } from '../../db/repositories/investigations/investigation-repository';
import { insertIntake } from '../../db/repositories/intakes/intake-repository';
import { upsertWallets } from '../../db/repositories/wallets/wallet-repository';
import type { Role } from '../../domain/accounts/roles';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const tronLike = (prefix: string) => prefix + Array.from(randomBytes(34 - prefix.length), (b) => B58[b % 58]).join('');
const word = (stem: string) => `${stem}${randomUUID().replace(/-/g, '').slice(0, 10)}`;

/** A valid German IBAN with a random account number (mod-97 check digits). */
function randomIban(): string {
  const bban = Array.from(randomBytes(18), (b) => String(b % 10)).join('');
  const numeric = `${bban}131400`; // D=13 E=14, check digits 00
  let mod = 0;
  for (const d of numeric) mod = (mod * 10 + Number(d)) % 97;
  return `DE${String(98 - mod).padStart(2, '0')}${bban}`;
}

interface Hit {
  type: string;
  id: string;
  title: string;
  snippet: string;
  score: number;
  matched_fields: string[];
  record: Record<string, unknown>;
}

describe('intelligence search: query language and engine', function () {
  this.timeout(120_000);
  let url: string;
  let users: Record<Role, string>;
  let as: Record<Role, Record<string, string>>;
  const knex = () => testKnex();

  before(async () => {
    users = await usersForEveryRole();
    as = Object.fromEntries(Object.entries(users).map(([r, e]) => [r, asUser(e)])) as Record<Role, Record<string, string>>;
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
  });

  const newCase = async (title: string, opts: { description?: string; loss?: string; status?: string; created?: string } = {}) => {
    const row = await createCase(knex(), { title, description: opts.description ?? '', loss_amount: opts.loss ?? null, loss_currency: opts.loss ? 'EUR' : null }, users.analyst);
    const patch: Record<string, unknown> = {};
    if (opts.status) patch.status = opts.status;
    if (opts.created) patch.created_at = opts.created;
    if (Object.keys(patch).length) await knex()('cases').where({ id: row.id }).update(patch);
    return row.id;
  };

  const search = async (query: string, extra: Record<string, unknown> = {}, role: Role = 'analyst') => {
    const res = await http<{ items: Hit[]; next_cursor: string | null; total_estimate: number; aggregates?: unknown }>(`${url}/reviews/search/query`, { method: 'POST', headers: as[role], json: { query, ...extra } });
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const ids = async (query: string, extra: Record<string, unknown> = {}) => (await search(query, { types: ['case'], ...extra })).items.map((i) => i.id).sort();

  it('answers the example query wallet:TQ* AND loss>5000 NOT status:closed, ranked with matched fields', async () => {
    const stem = `TQ${randomUUID().replace(/-/g, '').slice(0, 6)}`;
    const topic = word('pigbutcher');
    const hit = await newCase(`Pig butchering ${topic}`, { description: `Victim sent USDT after a dating app contact ${topic}`, loss: '12000' });
    const closed = await newCase(`Closed ${topic}`, { loss: '9000', status: 'closed' });
    const small = await newCase(`Small ${topic}`, { loss: '100' });
    const otherWallet = await newCase(`Other wallet ${topic}`, { loss: '8000' });
    await recordSourceEntities(knex(), { kind: 'case', id: hit }, [{ type: 'wallet', value: tronLike(stem) }]);
    await recordSourceEntities(knex(), { kind: 'case', id: closed }, [{ type: 'wallet', value: tronLike(stem) }]);
    await recordSourceEntities(knex(), { kind: 'case', id: small }, [{ type: 'wallet', value: tronLike(stem) }]);
    await recordSourceEntities(knex(), { kind: 'case', id: otherWallet }, [{ type: 'wallet', value: tronLike('TX') }]);

    const result = await search(`wallet:${stem}* AND loss>5000 NOT status:closed`, { types: ['case'] });
    assert.deepEqual(result.items.map((i) => i.id), [hit]);
    assert.equal(result.total_estimate, 1);
    assert.deepEqual(result.items[0].matched_fields.sort(), ['loss', 'wallet']);
    assert.equal(result.items[0].type, 'case');
    assert.equal(result.items[0].title, `Pig butchering ${topic}`);
    assert.deepEqual(result.items[0].record.loss, { amount: '12000.00', currency: 'EUR' });

    const ranked = await search(`${topic} butchering`, { types: ['case'] });
    assert.deepEqual(ranked.items.map((i) => i.id), [hit]);
    assert.match(ranked.items[0].snippet, /<mark>butchering<\/mark>/i);
    assert.ok(ranked.items[0].matched_fields.includes('text'));
  });

  it('binds AND tighter than OR (a OR b AND c), honours parentheses, NOT and -', async () => {
    const [a, b, c] = [word('alpha'), word('beta'), word('gamma')];
    const onlyA = await newCase(`first ${a}`);
    const onlyB = await newCase(`second ${b}`);
    const bAndC = await newCase(`third ${b} ${c}`);
    assert.deepEqual(await ids(`${a} OR ${b} AND ${c}`), [onlyA, bAndC].sort());
    assert.deepEqual(await ids(`(${a} OR ${b}) AND ${c}`), [bAndC]);
    assert.deepEqual(await ids(`${a} OR ${b}`), [onlyA, onlyB, bAndC].sort());
    assert.deepEqual(await ids(`${b} NOT ${c}`), [onlyB]);
    assert.deepEqual(await ids(`${b} -${c}`), [onlyB]);
    assert.deepEqual(await ids(`${b} AND NOT (${c} OR ${a})`), [onlyB]);
    assert.deepEqual(await ids(`${b} ${c}`), [bAndC], 'whitespace is AND');
  });

  it('matches phrases in order, full-text prefixes, and keyword wildcards (prefix and substring)', async () => {
    const tag = word('phr');
    const inOrder = await newCase(`The pig butchering scheme ${tag}`);
    const reversed = await newCase(`Butchering of a pig ${tag}`);
    assert.deepEqual(await ids(`"pig butchering" ${tag}`), [inOrder]);
    assert.deepEqual(await ids(`pig butchering ${tag}`), [inOrder, reversed].sort());
    assert.deepEqual(await ids(`text:"butchering scheme" ${tag}`), [inOrder]);
    assert.deepEqual(await ids(`"butchering of a pig" ${tag}`), [reversed], 'stop words keep their place in a phrase');
    // prefix: the first 8 characters of the random word
    assert.deepEqual(await ids(`${tag.slice(0, 9)}* butcher*`), [inOrder, reversed].sort());

    const wallet = tronLike('TR');
    const withWallet = await newCase(`Wallet case ${tag}`);
    await recordSourceEntities(knex(), { kind: 'case', id: withWallet }, [{ type: 'wallet', value: wallet }]);
    assert.deepEqual(await ids(`wallet:${wallet.slice(0, 12)}*`), [withWallet]);
    assert.deepEqual(await ids(`wallet:*${wallet.slice(10, 24)}*`), [withWallet], 'substring');
    assert.deepEqual(await ids(`wallet:${wallet}`), [withWallet], 'exact');
    assert.deepEqual(await ids(`wallet:${wallet.slice(0, 12)}`), [], 'no wildcard: exact only');
  });

  it('compares and ranges numbers (loss) and dates (created), bare dates meaning the whole day', async () => {
    const tag = word('rng');
    const jan = await newCase(`January ${tag}`, { loss: '1000', created: '2026-01-05T10:00:00Z' });
    const feb = await newCase(`February ${tag}`, { loss: '3000.50', created: '2026-02-10T23:59:59Z' });
    const mar = await newCase(`March ${tag}`, { loss: '7000', created: '2026-03-20T00:00:00Z' });
    const none = await newCase(`No loss ${tag}`, { created: '2026-04-01T00:00:00Z' });
    assert.deepEqual(await ids(`${tag} loss:[1000 TO 3000.50]`), [jan, feb].sort());
    assert.deepEqual(await ids(`${tag} loss>=7000`), [mar]);
    assert.deepEqual(await ids(`${tag} loss>3000.50`), [mar]);
    assert.deepEqual(await ids(`${tag} loss<3000.50`), [jan]);
    assert.deepEqual(await ids(`${tag} loss<=3000.50`), [jan, feb].sort());
    assert.deepEqual(await ids(`${tag} loss:3000.5`), [feb]);
    assert.deepEqual(await ids(`${tag} loss:[5000 TO *]`), [mar]);
    assert.deepEqual(await ids(`${tag} NOT loss>0`), [none], 'a record without the value is not > 0');
    assert.deepEqual(await ids(`${tag} created:[2026-02-01 TO 2026-02-10]`), [feb], 'an end date includes its whole day');
    assert.deepEqual(await ids(`${tag} created:>=2026-03-20`), [mar, none].sort());
    assert.deepEqual(await ids(`${tag} created>2026-03-20`), [none], '> a day: after that day');
    assert.deepEqual(await ids(`${tag} created:2026-01-05`), [jan]);
    assert.deepEqual(await ids(`${tag} created<2026-02-10`), [jan]);
    assert.deepEqual(await ids(`${tag} created:<=2026-02-10`), [jan, feb].sort());
    assert.deepEqual(await ids(`${tag} created>=2026-02-10T12:00:00Z`), [feb, mar, none].sort());
  });

  it('searches every record type, narrows by types, and links wallets to cases, intakes and investigations', async () => {
    const tag = word('rec');
    const wallet = tronLike('TW');
    const caseId = await newCase(`Case ${tag}`);
    const intakeId = randomUUID();
    await knex().transaction((trx) => insertIntake(trx, { id: intakeId, source: 'web', summary: `Intake ${tag}`, details: 'lost money', loss_amount: '500.00', loss_currency: 'EUR', occurred_at: null, urls: [], submitted_by: 'test', task_id: `intake-${intakeId}`, files: [], jobs: [{ id: randomUUID(), step: 'extract_entities', position: 0 }] }));
    await recordSourceEntities(knex(), { kind: 'intake', id: intakeId }, [{ type: 'wallet', value: wallet }]);
    await linkToCase(knex(), caseId, { type: 'intake', id: intakeId }, users.analyst);
    const scanId = randomUUID();
    await insertInvestigation(knex(), { scanId, url: `https://${tag}.example/deposit`, domain: `${tag}.example`, requestedBy: 'test', playbookId: null, caseId: null, label: `Scan ${tag}`, options: {} });
    await upsertWallets(knex(), scanId, [{ address: wallet, token: 'USDT', network: 'tron', confidence: 'high', source: 'dom', context: `deposit ${tag}` }]);

    const all = await search(`wallet:${wallet}`);
    const byType = (t: string) => all.items.filter((i) => i.type === t).map((i) => i.id);
    assert.deepEqual(byType('case'), [caseId], 'a case reaches the wallet through its linked intake');
    assert.deepEqual(byType('intake'), [intakeId]);
    assert.deepEqual(byType('investigation'), [scanId], 'through the scan\'s wallet findings');
    assert.equal(byType('wallet').length, 1);
    assert.equal(byType('entity').length, 1);
    assert.equal(byType('indicator').length, 1, 'wallet entities are indicators');
    const intake = all.items.find((i) => i.type === 'intake') as Hit;
    assert.deepEqual(Object.keys(intake.record).sort(), ['case_id', 'created_at', 'id', 'loss', 'source', 'status', 'summary'], 'no contact fields');

    const narrowed = await search(`wallet:${wallet}`, { types: ['wallet', 'investigation'] });
    assert.deepEqual(narrowed.items.map((i) => i.type).sort(), ['investigation', 'wallet']);
    const tokens = await search(`token:usdt network:tron wallet:${wallet.slice(0, 14)}*`, { types: ['wallet'] });
    assert.equal(tokens.items.length, 1);
    assert.equal(tokens.items[0].record.address, wallet);
    const domain = await search(`domain:*${tag}*`, { types: ['investigation'] });
    assert.deepEqual(domain.items.map((i) => i.id), [scanId]);
    const filtered = await search('', { types: ['case', 'intake'], filters: { wallet: wallet, loss: '>100' } });
    assert.deepEqual(filtered.items.map((i) => i.id), [intakeId], 'filters AND the query; cases have no loss here');
  });

  it('reaches records through sightings whose source ids are not all UUIDs (imports, feeds), never failing on them', async () => {
    const tag = word('foreign');
    const wallet = tronLike('TF');
    const caseId = await newCase(`Case ${tag}`);
    const scanId = randomUUID();
    await insertInvestigation(knex(), { scanId, url: `https://${tag}.example/`, domain: `${tag}.example`, requestedBy: 'test', playbookId: null, caseId: null, label: `Scan ${tag}`, options: {} });
    await recordSourceEntities(knex(), { kind: 'case', id: caseId }, [{ type: 'wallet', value: wallet }]);
    await recordSourceEntities(knex(), { kind: 'investigation', id: scanId }, [{ type: 'wallet', value: wallet }]);
    // Sightings of the same wallet under ids that are no UUID: a ::uuid cast of them failed the query (500).
    await recordSourceEntities(knex(), { kind: 'case', id: `import-${tag}` }, [{ type: 'wallet', value: wallet }]);
    await recordSourceEntities(knex(), { kind: 'investigation', id: `legacy-${tag}` }, [{ type: 'wallet', value: wallet }]);
    await recordSourceEntities(knex(), { kind: 'intake', id: `feed-${tag}` }, [{ type: 'wallet', value: wallet }]);
    const all = await search(`wallet:"${wallet}"`, { types: ['case', 'investigation', 'intake'] });
    assert.deepEqual(all.items.filter((i) => i.type === 'case').map((i) => i.id), [caseId]);
    assert.deepEqual(all.items.filter((i) => i.type === 'investigation').map((i) => i.id), [scanId]);
    assert.deepEqual(all.items.filter((i) => i.type === 'intake').map((i) => i.id), []);
    const detail = await http(`${url}/intelligence/entities/wallet/${encodeURIComponent(wallet)}`, { headers: as.analyst });
    assert.equal(detail.status, 200, detail.text);
  });

  it('pages with an opaque keyset cursor over (score, id) without repeats', async () => {
    const tag = word('page');
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await newCase(`Paged ${tag} ${'match '.repeat(i + 1)}`));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { items: Hit[]; next_cursor: string | null; total_estimate: number } = await search(`${tag} match`, { types: ['case'], limit: 2, ...(cursor ? { cursor } : {}) });
      assert.equal(page.total_estimate, 5);
      seen.push(...page.items.map((i) => i.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    assert.equal(pages, 3);
    assert.deepEqual([...seen].sort(), [...created].sort());
    assert.equal(seen[0], created[4], 'the most frequent match ranks first');
    const bad = await http(`${url}/reviews/search/query`, { method: 'POST', headers: as.analyst, json: { query: tag, cursor: 'garbage' } });
    assert.equal(bad.status, 400, bad.text);
  });

  it('answers 400 naming the position for syntax errors, and the field for unknown fields, operators and values', async () => {
    const post = (query: string) => http(`${url}/reviews/search/query`, { method: 'POST', headers: as.analyst, json: { query } });
    const syntax = await post('romance AND (loss>5');
    assert.equal(syntax.status, 400, syntax.text);
    assert.equal(syntax.body.error.code, 'query_syntax');
    assert.deepEqual({ offset: syntax.body.error.details[0].offset, line: syntax.body.error.details[0].line, column: syntax.body.error.details[0].column }, { offset: 19, line: 1, column: 20 });
    assert.ok(syntax.body.error.details[0].expected.includes('")"'), syntax.text);
    assert.match(syntax.body.error.message, /line 1, column 20/);

    const unknown = await post('romance colour:red');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.code, 'invalid_query');
    assert.equal(unknown.body.error.details[0].field, 'colour');
    assert.equal(unknown.body.error.details[0].column, 9);
    const op = await post('status>3');
    assert.match(op.body.error.message, /status.*does not take the operator >/);
    const value = await post('loss>lots');
    assert.match(value.body.error.message, /loss.*number/);
    const date = await post('created:2026-02-30');
    assert.equal(date.status, 400);
    const filter = await http(`${url}/reviews/search/query`, { method: 'POST', headers: as.analyst, json: { query: '', filters: { loss: 'many' } } });
    assert.equal(filter.body.error.details[0].path, 'filters.loss');
    const noBody = await http(`${url}/reviews/search/query`, { method: 'POST', headers: as.analyst });
    assert.equal(noBody.status, 400, 'the query is required (an empty string matches everything)');
    const legacy = await http(`${url}/reviews/search?q=${encodeURIComponent('"open')}`, { headers: as.reviewer });
    assert.equal(legacy.status, 400);
    assert.equal(legacy.body.error.details[0].column, 6);
  });

  it('masks bank details for every role but analyst, and gives researchers counts per type only', async () => {
    const tag = word('bank');
    const iban = randomIban();
    const spaced = iban.replace(/(.{4})/g, '$1 ').trim();
    const caseId = await newCase(`Transfer ${tag}`, { description: `The victim wired money to ${spaced} on request ${tag}` });
    await recordSourceEntities(knex(), { kind: 'case', id: caseId }, [{ type: 'bank_account', value: iban }]);
    const masked = `${iban.slice(0, 4)} **** **** **** ${iban.slice(-4)}`;

    const analyst = await search(`${tag} OR ${iban}`, {}, 'analyst');
    const analystCase = analyst.items.find((i) => i.type === 'case') as Hit;
    assert.ok(analystCase.snippet.includes(spaced.slice(0, 9)), analystCase.snippet);
    const analystEntity = (await search(`${iban}`, { types: ['entity'] }, 'analyst')).items[0];
    assert.equal(analystEntity.record.value, iban);

    for (const role of ['reviewer', 'admin'] as const) {
      const res = await search(`${tag}`, { types: ['case'] }, role);
      assert.equal(res.items.length, 1);
      assert.ok(!res.items[0].snippet.includes(iban.slice(4, 12)) && !res.items[0].snippet.includes(spaced.slice(5, 14)), res.items[0].snippet);
      assert.ok(res.items[0].snippet.includes(masked), res.items[0].snippet);
      // The unmasked value finds nothing for them (no exact, prefix or substring match of hidden characters).
      assert.deepEqual((await search(`${iban}`, { types: ['entity'] }, role)).items, []);
      const entity = (await search('type:bank_account', { types: ['entity'], sort: 'newest', limit: 500 }, role)).items.find((i) => i.record.id === analystEntity.id) as Hit;
      assert.ok(entity, 'the bank account is listed by type');
      assert.equal(entity.record.value, masked);
      assert.equal(entity.record.display_value, masked);
      assert.equal(entity.title, masked);
      assert.ok(!JSON.stringify(entity).includes(iban.slice(4, 12)));
    }

    const researcher = await search(`${tag}`, {}, 'researcher');
    assert.deepEqual(researcher.items, []);
    assert.equal(researcher.next_cursor, null);
    const aggregates = researcher.aggregates as Array<{ type: string; count: number }>;
    assert.equal(aggregates.find((a) => a.type === 'case')?.count, 1);
    assert.equal(aggregates.length, 6);
  });

  it('escapes snippets: stored markup and highlight marker characters never become markup', async () => {
    const tag = word('esc');
    await newCase(`Escaping ${tag}`, { description: `<script>alert(1)</script> a < b & c \u0002fake\u0003 payment ${tag}` });
    const res = await search(`${tag} payment`, { types: ['case'] });
    assert.equal(res.items.length, 1);
    const snippet = res.items[0].snippet;
    assert.ok(!snippet.replace(/<\/?mark>/g, '').includes('<'), snippet);
    assert.ok(snippet.includes('a &lt; b &amp; c'), snippet);
    assert.deepEqual([...new Set(snippet.match(/<mark>[^<]*<\/mark>/g)?.map((m) => m.toLowerCase()))].sort(), [`<mark>${tag}</mark>`, '<mark>payment</mark>'].sort());
    assert.ok(!snippet.includes('<mark>fake') && !snippet.includes('\u0002') && !snippet.includes('\u0003'), snippet);
  });

  it('serves the legacy GET /reviews/search with the same engine, and the field registry', async () => {
    const tag = word('legacy');
    const a = await newCase(`Legacy ${tag}`, { loss: '6000' });
    await newCase(`Legacy ${tag} small`, { loss: '10' });
    const res = await http(`${url}/reviews/search?q=${encodeURIComponent(`${tag} loss>5000`)}&type=case,intake&limit=5`, { headers: as.reviewer });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.items.map((i: Hit) => i.id), [a]);
    const badType = await http(`${url}/reviews/search?q=x&type=case,thing`, { headers: as.reviewer });
    assert.equal(badType.status, 400);

    const schema = await http(`${url}/reviews/search/schema`, { headers: as.reviewer });
    assert.equal(schema.status, 200);
    const loss = schema.body.fields.find((f: { name: string }) => f.name === 'loss');
    assert.deepEqual(loss.record_types, ['case', 'intake']);
    assert.equal(loss.type, 'money');
    assert.ok(loss.operators.includes('>=') && loss.operators.includes('range'));
    const wallet = schema.body.fields.find((f: { name: string }) => f.name === 'wallet');
    assert.deepEqual(wallet.record_types, ['case', 'intake', 'investigation', 'entity', 'wallet', 'indicator']);
    assert.ok(wallet.examples.includes('wallet:TQ*'));
  });

  it('keeps a history per user: own entries only, deletable one by one or all, by their owner only', async () => {
    const tag = word('hist');
    await search(`${tag} first`, {}, 'analyst');
    await search(`${tag} second`, { types: ['case'] }, 'analyst');
    await search(`${tag} theirs`, {}, 'reviewer');
    const mine = await http(`${url}/reviews/search/history?limit=50`, { headers: as.analyst });
    assert.equal(mine.status, 200, mine.text);
    const entries = mine.body.items.filter((e: { query: string }) => e.query.startsWith(tag));
    assert.deepEqual(entries.map((e: { query: string }) => e.query), [`${tag} second`, `${tag} first`]);
    assert.deepEqual(entries[0].types, ['case']);
    assert.equal(entries[0].result_count, 0);
    assert.ok(!mine.body.items.some((e: { query: string }) => e.query === `${tag} theirs`));

    const other = await http(`${url}/reviews/search/history/${entries[0].id}`, { method: 'DELETE', headers: as.reviewer });
    assert.equal(other.status, 404, 'not deletable by someone else');
    const del = await http(`${url}/reviews/search/history/${entries[0].id}`, { method: 'DELETE', headers: as.analyst });
    assert.equal(del.status, 204);
    const after = await http(`${url}/reviews/search/history?limit=50`, { headers: as.analyst });
    assert.deepEqual(after.body.items.filter((e: { query: string }) => e.query.startsWith(tag)).map((e: { query: string }) => e.query), [`${tag} first`]);

    const cleared = await http(`${url}/reviews/search/history`, { method: 'DELETE', headers: as.reviewer });
    assert.equal(cleared.status, 200);
    assert.ok(cleared.body.deleted >= 1);
    const reviewerAfter = await http(`${url}/reviews/search/history`, { headers: as.reviewer });
    assert.deepEqual(reviewerAfter.body.items, []);
    const analystStill = await http(`${url}/reviews/search/history?limit=50`, { headers: as.analyst });
    assert.ok(analystStill.body.items.some((e: { query: string }) => e.query === `${tag} first`), 'clearing one user\'s history leaves the others');
  });

  it('wins over /reviews/{id}: the search paths are not taken for review ids', async () => {
    const res = await http(`${url}/reviews/search/history`, { headers: as.analyst });
    assert.equal(res.status, 200, res.text);
    const schema = await http(`${url}/reviews/search/schema`, { headers: as.analyst });
    assert.ok(Array.isArray(schema.body.fields));
  });
});
