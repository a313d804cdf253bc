// Researchers see entity values masked; no answer may let them recover what the mask hides. Three
// oracles an attacker used against the platform, each closed and proven here:
// - the quick search matched the real value while showing a masked one, so extending a prefix one
//   character at a time read a phone number or an e-mail address back (now: researchers match the
//   masked rendering only);
// - routes taking an entity's natural key answered 200 or 404, telling whether a value exists (now:
//   403 for researchers before any lookup, whatever the value);
// - (aggregates suppressed by victims: test/exports/victim-suppression.test.ts).
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Knex } from 'knex';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import type { Role } from '../../domain/accounts/roles';
import { maskOpaque } from '../../domain/masking/masking-policy';
import { opaqueMask } from '../../db/repositories/intelligence/masked-search-repository';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';

const DIGITS = '0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const pick = (alphabet: string) => alphabet[randomInt(alphabet.length)]!;
const word = (alphabet: string, n: number) => Array.from({ length: n }, () => pick(alphabet)).join('');

/**
 * A valid Swiss mobile number nobody else uses (E.164, as the graph stores it): not German, whose
 * country lists other suites read (many fresh numbers would crowd their entities out).
 */
const phone = () => `+4179${word(DIGITS, 7)}`;
/** An e-mail address whose visible characters (first two, last two) are rare among the tests' entities. */
const email = () => `${word(LOWER + DIGITS, 2)}${word(LOWER, 6)}.${randomUUID().slice(0, 6)}@mail.x${word(LOWER, 2)}`;

/** A character of `alphabet` other than `c`. */
const otherThan = (c: string, alphabet: string) => {
  const rest = alphabet.replace(c, '');
  return rest[randomInt(rest.length)]!;
};

async function seedEntity(knex: Knex, type: 'phone' | 'email', value: string): Promise<string> {
  await recordSourceEntities(knex, { kind: 'manual', id: `oracle-${randomUUID()}` }, [{ type, value }]);
  return ((await knex('entities').where({ type, value }).first()) as { id: string }).id;
}

describe('researchers cannot recover masked values (no oracles)', function () {
  this.timeout(180_000);
  let url: string;
  let as: Record<Role, Record<string, string>>;
  let knex: Knex;

  before(async () => {
    const users = await usersForEveryRole();
    as = Object.fromEntries(Object.entries(users).map(([r, e]) => [r, asUser(e)])) as Record<Role, Record<string, string>>;
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
    knex = testKnex();
  });

  const discovery = async (role: Role, q: string, type: string) => {
    const res = await http(`${url}/discovery/search?q=${encodeURIComponent(q)}&entity_type=${type}&limit=100`, { headers: as[role] });
    assert.equal(res.status, 200, res.text);
    return res.body as { q: string; items: Array<{ id: string; value: string; display_value: string; match: string }> };
  };
  /** The answer without the echo of the query: what the caller learns. */
  const learned = (a: { items: unknown[] }) => a.items;

  for (const kind of ['phone', 'email'] as const) {
    it(`a prefix-extension attack on a ${kind} through discovery learns nothing: the right and the wrong next character get the same answer`, async () => {
      const value = kind === 'phone' ? phone() : email();
      const id = await seedEntity(knex, kind, value);
      const alphabet = kind === 'phone' ? DIGITS : LOWER + DIGITS;
      let analystTold = 0;
      for (let k = 3; k < value.length; k++) {
        const right = value.slice(0, k + 1);
        const wrong = value.slice(0, k) + otherThan(value[k]!, alphabet);
        if (!alphabet.includes(value[k]!)) continue; // '@' and '.' are not guessed one by one
        const [r, w] = [await discovery('researcher', right, kind), await discovery('researcher', wrong, kind)];
        assert.deepEqual(learned(r), learned(w), `q=${right} and q=${wrong} answer alike`);
        assert.ok(!r.items.some((h) => h.id === id), `q=${right} does not find the entity for a researcher`);
        // The same attack by an analyst (who sees the value anyway) tells right from wrong: the test can fail.
        const [ar, aw] = [await discovery('analyst', right, kind), await discovery('analyst', wrong, kind)];
        if (ar.items.some((h) => h.id === id) && !aw.items.some((h) => h.id === id)) analystTold += 1;
      }
      assert.ok(analystTold > 3, 'without masking, the answers tell the right character from the wrong one');
      // What the researcher sees, the researcher can find.
      const seen = await discovery('researcher', maskOpaque(value), kind);
      const hit = seen.items.find((h) => h.id === id);
      assert.ok(hit, 'the masked rendering finds the entity');
      assert.equal(hit.value, maskOpaque(value));
      assert.equal(hit.match, 'exact');
    });
  }

  it('property: for random phone numbers and e-mail addresses, discovery answers a researcher alike whatever the hidden characters', async () => {
    // Twins: two values with the same visible characters (first two, last two, length) and
    // different hidden ones. Every query, whether cut from the real value or from its masked
    // rendering, must treat both alike, and find them only when it is part of the masked rendering.
    // (A phone's twin keeps its country and network code, +4179, to stay a valid number.)
    const twinOf = (v: string, alphabet: string, keep: number) =>
      v.slice(0, keep) + Array.from(v.slice(keep, -2), (c) => (alphabet.includes(c) ? otherThan(c, alphabet) : c)).join('') + v.slice(-2);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<'phone' | 'email'>('phone', 'email'),
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        async (kind, start, length, fromMasked) => {
          const alphabet = kind === 'phone' ? DIGITS : LOWER;
          const v1 = kind === 'phone' ? phone() : email();
          const v2 = twinOf(v1, alphabet, kind === 'phone' ? 5 : 2);
          const [id1, id2] = [await seedEntity(knex, kind, v1), await seedEntity(knex, kind, v2)];
          assert.equal(maskOpaque(v1), maskOpaque(v2));
          // From the masked rendering: a suffix, so that it holds the random last two characters and
          // matches few other entities (the answer's limit never cuts the twins). From the value: any slice.
          const source = fromMasked ? maskOpaque(v1) : v1;
          const from = start % (source.length - 2);
          const q = fromMasked ? source.slice(from) : source.slice(from, from + 3 + (length % (source.length - from - 2)));
          const a = await discovery('researcher', q, kind);
          const h1 = a.items.find((h) => h.id === id1);
          const h2 = a.items.find((h) => h.id === id2);
          const visible = maskOpaque(v1).toLowerCase().includes(q.toLowerCase());
          assert.equal(Boolean(h1), visible, `q=${q} finds ${v1} only when it is part of ${maskOpaque(v1)}`);
          assert.equal(Boolean(h2), visible, `q=${q}: its twin alike`);
          if (h1 && h2) assert.deepEqual({ ...h1, id: '' }, { ...h2, id: '' }, 'twins answer alike');
          // One more character, right or wrong, changes nothing either.
          if (!fromMasked && from + q.length < v1.length) {
            const next = v1[from + q.length]!;
            if (alphabet.includes(next)) {
              const r = await discovery('researcher', q + next, kind);
              const w = await discovery('researcher', q + otherThan(next, alphabet), kind);
              assert.deepEqual(learned(r), learned(w));
            }
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  it('property: the rendering the search matches in SQL is the one researchers are shown (maskOpaque), for any text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: 'binary', maxLength: 12 }).filter((v) => !v.includes('\u0000')), { minLength: 1, maxLength: 50 }), async (values) => {
        const { rows } = await knex.raw<{ rows: Array<{ m: string }> }>(`SELECT ${opaqueMask('v')} AS m FROM unnest(?::text[]) WITH ORDINALITY AS t(v, n) ORDER BY n`, [values]);
        assert.deepEqual(rows.map((r) => r.m), values.map(maskOpaque));
      }),
      { numRuns: 50 },
    );
  });

  it('answers any query a researcher types with 200, stars, wildcards and odd characters included', async () => {
    for (const q of ['\u0000abc', '\u202eab*', 'a%_*', '****', '\\*\\*', '😀😀*', "'; --"]) {
      const res = await http(`${url}/discovery/search?q=${encodeURIComponent(q)}`, { headers: as.researcher });
      assert.ok(res.status === 200 || res.status === 400, `${JSON.stringify(q)}: ${res.status} ${res.text}`);
      assert.equal(res.status, (await http(`${url}/discovery/search?q=${encodeURIComponent(q)}`, { headers: as.analyst })).status, 'as for an analyst');
    }
    // `%` and `_` are plain characters, not wildcards: they match no rendering.
    assert.deepEqual((await discovery('researcher', '%_%', 'email')).items, []);
  });

  const keyRoutes = (type: string, value: string) => [
    `/intelligence/entities/${type}/${encodeURIComponent(value)}`,
    `/intelligence/entities/${type}/${encodeURIComponent(value)}/activity?bucket=week`,
    `/intelligence/entities/${type}/${encodeURIComponent(value)}/neighbors`,
    `/intelligence/graph?seed=${encodeURIComponent(`${type}:${value}`)}`,
    `/intelligence/graph.png?seed=${encodeURIComponent(`${type}:${value}`)}&width=320&height=240`,
  ];

  it('answers 403 to researchers on every natural-key route and type:value graph seed, for an existing and a missing value alike', async () => {
    const existing = phone();
    const id = await seedEntity(knex, 'phone', existing);
    const missing = phone();
    for (const [a, b] of keyRoutes('phone', existing).map((path, i) => [path, keyRoutes('phone', missing)[i]!] as const)) {
      const [ra, rb] = [await http(`${url}${a}`, { headers: as.researcher }), await http(`${url}${b}`, { headers: as.researcher })];
      assert.equal(ra.status, 403, `${a}: ${ra.text}`);
      assert.equal(rb.status, 403, `${b}: ${rb.text}`);
      assert.deepEqual(ra.body, rb.body, `${a}: the same answer for an existing and a missing value`);
      assert.equal(ra.body.error.code, 'forbidden');
      // A reviewer, who may look values up, tells them apart: the routes do answer by value.
      const [va, vb] = [await http(`${url}${a}`, { headers: as.reviewer }), await http(`${url}${b}`, { headers: as.reviewer })];
      assert.equal(va.status, 200, `${a}: ${va.text}`);
      assert.equal(vb.status, 404, `${b}: ${vb.text}`);
    }
    // An invalid value, an unknown type and a seed among id seeds: 403 too, before any parsing.
    for (const seed of ['phone:not-a-phone', 'nosuchtype:x', `${id},phone:${missing}`]) {
      const q = seed.split(',').map((s) => `seed=${encodeURIComponent(s)}`).join('&');
      const res = await http(`${url}/intelligence/graph?${q}`, { headers: as.researcher });
      assert.equal(res.status, 403, `${seed}: ${res.text}`);
    }
    // Researchers still walk the graph from an entity id (ids carry no value), with masked nodes.
    const byId = await http(`${url}/intelligence/graph?seed=${id}`, { headers: as.researcher });
    assert.equal(byId.status, 200, byId.text);
    assert.deepEqual(byId.body.nodes.map((n: { value: string }) => n.value), [maskOpaque(existing)]);
  });
});
