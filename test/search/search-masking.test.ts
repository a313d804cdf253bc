// Search hands nothing masked back: for a caller who sees bank details only masked, no prefix,
// exact match, rank, count or highlight depends on a hidden character (the finding: a prefix query
// on bank accounts highlighted a digit group, and the snippet showed it in clear). Each test seeds
// its own records with random IBANs and random words.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { insertIntake } from '../../db/repositories/intakes/intake-repository';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import type { Role } from '../../domain/accounts/roles';
import { maskBankAccount } from '../../domain/masking/masking-policy';
import { asUser, http } from '../support/http';
import { ibanOf, leakedPieces, revealsHidden, visibleParts, wordsArbitrary, writtenIbanArbitrary } from '../support/iban-arbitraries';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';

interface Hit {
  type: string;
  id: string;
  title: string;
  snippet: string;
  record: Record<string, unknown>;
}
interface Answer {
  items: Hit[];
  total_estimate: number;
  aggregates?: Array<{ type: string; count: number }>;
}

/** The text a reader gets of the hits (titles, snippets, record text and values), without ids and times. */
const shownText = (a: Answer) =>
  a.items.map((i) => [i.title, i.snippet, i.record.summary, i.record.value, i.record.display_value].filter((x) => typeof x === 'string').join(' ')).join(' ');
/** The digit-bearing words shown beyond what the mask shows (the seeded text's own words aside). */
const leakedDigits = (a: Answer, iban: string, tag: string) =>
  leakedPieces(shownText(a), iban, `Transfer ${tag} the victim paid as told mark`).filter((w) => /\d/.test(w));

const tagWord = () => `tag${randomUUID().replace(/[^a-f]/g, '').slice(0, 10)}`;
/** Groups of four, as IBANs are printed. */
const grouped = (iban: string) => iban.replace(/(.{4})/g, '$1 ').trim();

describe('search: no oracle over masked bank details', function () {
  this.timeout(180_000);
  let url: string;
  let as: Record<Role, Record<string, string>>;

  before(async () => {
    const users = await usersForEveryRole();
    as = Object.fromEntries(Object.entries(users).map(([r, e]) => [r, asUser(e)])) as Record<Role, Record<string, string>>;
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
  });

  const query = async (role: Role, q: string, extra: Record<string, unknown> = {}) =>
    http<Answer & { error?: { code: string } }>(`${url}/reviews/search/query`, { method: 'POST', headers: as[role], json: { query: q, limit: 50, ...extra } });
  const search = async (role: Role, q: string, extra: Record<string, unknown> = {}) => {
    const res = await query(role, q, extra);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };

  /** An intake whose details hold the IBAN (as written), and the bank-account entity sighted in it. */
  async function seed(iban: string, written: string, tag: string): Promise<{ intakeId: string; entityId: string }> {
    const intakeId = randomUUID();
    await testKnex().transaction((trx) =>
      insertIntake(trx, {
        id: intakeId, source: 'search-masking', summary: `Transfer ${tag}`, details: `${tag} the victim paid ${written} as told`, loss_amount: null, loss_currency: null,
        occurred_at: null, urls: [], submitted_by: 'search-masking', task_id: `intake-${intakeId}`, files: [], jobs: [{ id: randomUUID(), step: 'extract_text', position: 0 }],
      }),
    );
    const r = await recordSourceEntities(testKnex(), { kind: 'intake', id: intakeId }, [{ type: 'bank_account', value: iban }]);
    return { intakeId, entityId: r.entities[0]!.id };
  }

  it('finding: a prefix query on bank accounts neither matches nor highlights hidden digits for a reviewer (the analyst still finds it)', async () => {
    const [iban] = fc.sample(ibanOf(['DE']), 1);
    const tag = tagWord();
    const { intakeId, entityId } = await seed(iban, grouped(iban), tag);
    const group = grouped(iban).split(' ')[2]!; // a hidden group of four
    for (const q of [`type:bank_account ${group.slice(0, 1)}*`, `${tag} ${group.slice(0, 2)}*`, `${tag} ${group}`, iban, `type:bank_account ${iban.slice(0, 6)}*`]) {
      const analyst = await search('analyst', q, { types: ['entity', 'intake'] });
      assert.ok(analyst.items.some((i) => i.id === entityId || i.id === intakeId), `the analyst finds it with ${q}`);
      for (const role of ['reviewer', 'admin'] as const) {
        const answer = await search(role, q, { types: ['entity', 'intake'] });
        assert.ok(!answer.items.some((i) => i.id === entityId || i.id === intakeId), `${role}: ${q} must not match a hidden character`);
        assert.equal(revealsHidden(JSON.stringify(answer), iban), false, `${role}: ${q}`);
      }
    }
    // Found by what they may see: its snippet shows the mask, highlighted only where the mask shows the value.
    const answer = await search('reviewer', tag, { types: ['intake'] });
    const hit = answer.items.find((i) => i.id === intakeId)!;
    assert.ok(hit.snippet.includes(maskBankAccount(iban)), hit.snippet);
    assert.deepEqual(leakedDigits(answer, iban, tag), [], hit.snippet);
    assert.doesNotMatch(hit.snippet, /<mark>[^<]*\*/);
  });

  it('no count or order depends on hidden characters: two prefixes, one of them hidden, answer alike', async () => {
    const [iban] = fc.sample(ibanOf(['DE']), 1);
    const tag = tagWord();
    await seed(iban, grouped(iban), tag);
    const hidden = visibleParts(iban).hidden;
    const other = hidden[0] === '9' ? '8' : '9';
    for (const role of ['reviewer', 'admin'] as const) {
      const a = await search(role, `${tag} ${hidden.slice(0, 3)}*`);
      const b = await search(role, `${tag} ${other}${hidden.slice(1, 3)}*`);
      assert.deepEqual([a.total_estimate, a.items.map((i) => i.id)], [b.total_estimate, b.items.map((i) => i.id)], role);
    }
    // Researchers count, so they may not count by word prefixes or value fields at all.
    const refused = await query('researcher', `${tag} ${hidden.slice(0, 3)}*`);
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.error?.code, 'invalid_query');
    assert.equal((await query('researcher', 'wallet:TQ*')).status, 400);
    const counted = await search('researcher', tag);
    assert.equal(counted.aggregates?.find((x) => x.type === 'intake')?.count, 1);
  });

  it('property: for random valid IBANs and random prefixes, nothing a reviewer or researcher receives holds more than the mask', async () => {
    const cases = fc.tuple(ibanOf(['DE', 'AT', 'SE']), fc.integer({ min: 1, max: 6 }), fc.nat(), fc.integer({ min: 1, max: 4 }));
    await fc.assert(
      fc.asyncProperty(cases, async ([iban, size, at, len]) => {
        const tag = tagWord();
        const written = iban.match(new RegExp(`.{1,${size}}`, 'g'))!.join(' ');
        const { intakeId } = await seed(iban, written, tag);
        // A prefix of a word of the written IBAN that holds hidden characters (not the country and check digits).
        const words = written.split(' ');
        const hiddenWords = words.filter((_, i) => words.slice(0, i).join('').length >= 4 && words.slice(0, i + 1).join('').length <= iban.length - 4);
        const word = hiddenWords.length > 0 ? hiddenWords[at % hiddenWords.length]! : iban.slice(4, 8);
        const prefix = word.slice(0, len);
        const analyst = await search('analyst', `${tag} ${prefix}*`, { types: ['intake'] });
        assert.ok(analyst.items.some((i) => i.id === intakeId), 'the analyst finds it');
        const reviewer = await search('reviewer', `${tag} ${prefix}*`, { types: ['intake'] });
        assert.deepEqual(reviewer.items, [], `reviewer: ${tag} ${prefix}*`);
        const browse = await search('reviewer', tag, { types: ['intake', 'entity'] });
        assert.deepEqual(leakedDigits(browse, iban, tag), [], shownText(browse));
        assert.equal((await query('researcher', `${tag} ${prefix}*`)).status, 400);
        const researcher = await search('researcher', tag);
        assert.deepEqual(researcher.items, []);
      }),
      { numRuns: 12 },
    );
  });

  it('property: the index masking (fip_mask_bank_details) hides at least what the answer hides', async () => {
    await fc.assert(
      fc.asyncProperty(writtenIbanArbitrary, wordsArbitrary, async ({ iban, written }, words) => {
        const text = `${words} ${written} ${words}`;
        const { rows } = await testKnex().raw<{ rows: Array<{ masked: string; lexemes: string }> }>(
          "SELECT fip_mask_bank_details(?) AS masked, to_tsvector('simple', fip_mask_bank_details(?))::text AS lexemes",
          [text, text],
        );
        const { head } = visibleParts(iban);
        const visibleHead = (w: string) => head.includes(w);
        assert.deepEqual(leakedPieces(rows[0]!.masked, iban, words).filter((w) => !visibleHead(w)), [], rows[0]!.masked);
        assert.deepEqual(leakedPieces(rows[0]!.lexemes.replace(/'|:\d+(,\d+)*/g, ' '), iban, words).filter((w) => !visibleHead(w)), [], rows[0]!.lexemes);
      }),
      { numRuns: 300 },
    );
  });
});
