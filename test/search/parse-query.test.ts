// The query language without a database: grammar precedence, validation against the field
// registry, error positions, and the bank-detail masking used on results.
import assert from 'node:assert/strict';
import { maskBankAccount, maskBankDetailsInText } from '../../domain/masking/masking-policy';
import { parseSearchQuery, type SearchExpr } from '../../domain/search/parse-query';
import { freeName, savedSearchAccess } from '../../domain/search/saved-search-access';

const ok = (q: string): SearchExpr => {
  const r = parseSearchQuery(q);
  assert.ok(r.ok, JSON.stringify(r));
  return r.expr;
};
const text = (value: string) => ({ kind: 'text', mode: 'words', value });

describe('search query language (domain)', () => {
  it('parses the example query into AND of a wallet prefix, a loss bound and a negated status', () => {
    assert.deepEqual(ok('wallet:TQ* AND loss>5000 NOT status:closed'), {
      kind: 'and',
      children: [
        { kind: 'keyword', field: 'wallet', value: 'TQ%', like: true },
        { kind: 'bounds', field: 'loss', from: { value: '5000', inclusive: false }, to: null },
        { kind: 'not', child: { kind: 'keyword', field: 'status', value: 'closed', like: false } },
      ],
    });
  });

  it('binds NOT tighter than AND and AND tighter than OR; parentheses override', () => {
    assert.deepEqual(ok('a OR b AND c'), { kind: 'or', children: [text('a'), { kind: 'and', children: [text('b'), text('c')] }] });
    assert.deepEqual(ok('(a OR b) c'), { kind: 'and', children: [{ kind: 'or', children: [text('a'), text('b')] }, text('c')] });
    assert.deepEqual(ok('NOT a b'), { kind: 'and', children: [{ kind: 'not', child: text('a') }, text('b')] });
    assert.deepEqual(ok('a or b'), { kind: 'and', children: [text('a'), text('or'), text('b')] }, 'lower-case or is a word');
  });

  it('turns dates into UTC bounds (a bare date is its whole day) and escapes LIKE metacharacters', () => {
    assert.deepEqual(ok('created:2026-02-14'), { kind: 'bounds', field: 'created', from: { value: '2026-02-14T00:00:00.000Z', inclusive: true }, to: { value: '2026-02-15T00:00:00.000Z', inclusive: false } });
    assert.deepEqual(ok('created:[2026-01-01 TO 2026-01-31]').kind, 'bounds');
    assert.deepEqual(ok('url:*100%_off*'), { kind: 'keyword', field: 'url', value: '%100\\%\\_off%', like: true });
  });

  it('reports syntax errors with offset, line, column and what was expected', () => {
    const r = parseSearchQuery('status:open AND\n(loss>');
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.kind === 'syntax');
    const p = !r.ok ? r.problems[0] : null;
    assert.deepEqual({ offset: p?.offset, line: p?.line, column: p?.column }, { offset: 22, line: 2, column: 7 });
    assert.ok(p?.expected?.includes('a value'), JSON.stringify(p));
  });

  it('rejects unknown fields, wrong operators, bad values and mid-word free-text wildcards, naming field and position', () => {
    const problems = (q: string) => {
      const r = parseSearchQuery(q);
      assert.ok(!r.ok && r.kind === 'invalid', JSON.stringify(r));
      return r.problems;
    };
    assert.deepEqual(problems('x colour:red').map((p) => [p.field, p.column]), [['colour', 3]]);
    assert.match(problems('status>1')[0].message, /does not take the operator >/);
    assert.match(problems('loss:[a TO 5]')[0].message, /range bounds/);
    assert.match(problems('priority:urgent')[0].message, /one of low, medium, high, critical/);
    assert.match(problems('in*vest')[0].message, /free-text wildcards/);
    assert.match(problems('wallet:**')[0].message, /matches everything/);
    assert.match(problems(Array.from({ length: 65 }, (_, i) => `w${i}`).join(' '))[0].message, /at most 64/);
  });

  it('masks IBANs as DE89 **** **** **** 3000, in running text and across highlight markers', () => {
    assert.equal(maskBankAccount('DE89370400440532013000'), 'DE89 **** **** **** 3000');
    assert.equal(maskBankAccount('DE89 3704 0044 0532 0130 00'), 'DE89 **** **** **** 3000');
    assert.equal(maskBankAccount('12345678'), '**** 5678');
    assert.equal(maskBankDetailsInText('to DE89 3704 0044 0532 0130 00 today'), 'to DE89 **** **** **** 3000 today');
    assert.equal(maskBankDetailsInText('to \u0002DE89370400440532013000\u0003.'), 'to DE89 **** **** **** 3000.', 'no highlight around a mask: it would tell the hidden part matched');
    assert.equal(maskBankDetailsInText('order AB12 is fine'), 'order AB12 is fine');
  });

  it('decides saved-search access: owner, editor, viewer by user or role, public, admins view, strangers nothing', () => {
    const s = { owner: 'o@x.org', visibility: 'private' as const };
    const shares = [
      { grantee_kind: 'user' as const, grantee: 'v@x.org', permission: 'viewer' as const },
      { grantee_kind: 'role' as const, grantee: 'reviewer', permission: 'editor' as const },
    ];
    assert.equal(savedSearchAccess(s, shares, { email: 'o@x.org', roles: ['analyst'] }), 'owner');
    assert.equal(savedSearchAccess(s, shares, { email: 'v@x.org', roles: ['analyst'] }), 'viewer');
    assert.equal(savedSearchAccess(s, shares, { email: 'r@x.org', roles: ['reviewer'] }), 'editor');
    assert.equal(savedSearchAccess(s, shares, { email: 'a@x.org', roles: ['admin'] }), 'viewer');
    assert.equal(savedSearchAccess(s, shares, { email: 'z@x.org', roles: ['analyst'] }), null);
    assert.equal(savedSearchAccess({ ...s, visibility: 'public' }, [], { email: 'z@x.org', roles: ['analyst'] }), 'viewer');
    assert.equal(freeName('Mine', new Set(['mine', 'Mine (2)'])), 'Mine (3)');
  });
});
