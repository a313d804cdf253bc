// The one masking policy (domain/masking/masking-policy.ts): who sees which kind in clear, the value
// mask, and free text and snippets, with fast-check properties over random valid IBANs written in
// any spacing, in running text, cut anywhere (as a search snippet is) and highlighted anywhere.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  FRAGMENT_DELIMITER,
  HIGHLIGHT_END,
  HIGHLIGHT_START,
  maskBankAccount,
  maskBankDetailsInSnippet,
  maskBankDetailsInText,
  maskingFor,
} from '../../domain/masking/masking-policy';
import { DIGIT_ACCOUNT_COUNTRIES, ibanArbitrary, ibanOf, leakedPieces, visibleParts, wordsArbitrary, writtenIbanArbitrary, writtenIbanOf } from '../support/iban-arbitraries';

const RUNS = { numRuns: 400 };

describe('masking policy: one place decides who sees what', () => {
  it('shows bank details in clear to analysts only; service keys and every other role get the mask', () => {
    const iban = 'DE89370400440532013000';
    assert.equal(maskingFor(['analyst']).value('bank_account', iban), iban);
    assert.equal(maskingFor(['admin', 'analyst']).value('bank_account', iban), iban);
    for (const viewer of [['admin'], ['reviewer'], ['researcher'], [], null, { kind: 'service', keyId: 'k', name: 'feed', scopes: ['taxii:read'] }] as const) {
      const policy = maskingFor(viewer as Parameters<typeof maskingFor>[0]);
      assert.equal(policy.sees('bank_account'), false, JSON.stringify(viewer));
      assert.equal(policy.value('bank_account', iban), 'DE89 **** **** **** 3000');
      assert.equal(policy.text(`pay to ${iban} now`), 'pay to DE89 **** **** **** 3000 now');
    }
    assert.equal(maskingFor({ kind: 'user', email: 'a@example.org', roles: ['analyst'] }).text(`pay to ${iban}`), `pay to ${iban}`);
  });

  it('masks every value for researchers and nothing but bank details for reviewers', () => {
    assert.equal(maskingFor(['researcher']).value('domain', 'example-invest.com'), 'ex****om');
    assert.equal(maskingFor(['reviewer']).value('domain', 'example-invest.com'), 'example-invest.com');
    assert.equal(maskingFor(['researcher']).aggregateOnly, true);
    assert.equal(maskingFor(['researcher', 'reviewer']).aggregateOnly, false);
  });

  it('masks entity-like records and JSON documents, leaving identifiers and times alone', () => {
    const policy = maskingFor(['reviewer']);
    const e = policy.entity({ id: 'x', type: 'bank_account', value: 'GB82WEST12345698765432', display_value: 'GB82 WEST 1234 5698 7654 32', attributes: { bank: 'West' } });
    assert.deepEqual(e, { id: 'x', type: 'bank_account', value: 'GB82 **** **** **** 5432', display_value: 'GB82 **** **** **** 5432', attributes: {} });
    const id = '0b6f7c1e-2d7f-4a53-9d39-6a1f1b3c5d7e';
    const sha = 'de12345678901234567890123456789012345678901234567890123456789012';
    const doc = policy.json({ note: 'acct 12345678901', nested: [{ type: 'bank_account', value: 'DE89370400440532013000' }], id, sha, at: '2026-11-26T10:15:00.000Z', n: 5 });
    assert.deepEqual(doc, { note: 'acct **** 8901', nested: [{ type: 'bank_account', value: 'DE89 **** **** **** 3000' }], id, sha, at: '2026-11-26T10:15:00.000Z', n: 5 });
  });

  it('recognises IBANs in any spacing and case, mistyped or partial ones, and long account numbers; leaves dates and short numbers', () => {
    const t = maskBankDetailsInText;
    assert.equal(t('to de89-3704-0044-0532-0130-00.'), 'to DE89 **** **** **** 3000.');
    assert.equal(t('IBAN: D E 8 9 3 7 0 4 0 0 4 4 0 5 3 2 0 1 3 0 0 0'), 'IBAN: DE89 **** **** **** 3000');
    assert.equal(t('to DE89 3704 0044 0532 0130 01 (typo)'), 'to DE89 **** (typo)', 'an IBAN that does not validate keeps only its country and check digits');
    assert.equal(t('starts DE89 3704 0044 and'), 'starts DE89 **** and', 'a partial IBAN');
    assert.equal(t('Konto 0532013000, BLZ 37040044'), 'Konto **** 3000, BLZ **** 0044');
    assert.equal(t('on 2026-01-15 we paid 5000 EUR, ref 1234'), 'on 2026-01-15 we paid 5000 EUR, ref 1234');
    assert.equal(t('order AB12 is fine, MH17 crash site'), 'order AB12 is fine, MH17 crash site');
  });

  it('masks the cut edges of a snippet and keeps highlights balanced and outside masks', () => {
    const s = maskBankDetailsInSnippet;
    assert.equal(s('0532 0130 00 was the account'), '**** was the account', 'the tail of an IBAN cut at the start');
    assert.equal(s('the account was DE89 3704 00'), 'the account was ****', 'the head of an IBAN cut at the end');
    assert.equal(s(`sent to 3704 0044${FRAGMENT_DELIMITER}WEST 1234 5698 the mule`), `sent to ****${FRAGMENT_DELIMITER}**** the mule`);
    assert.equal(s(`pay ${HIGHLIGHT_START}DE89${HIGHLIGHT_END} 3704 0044 0532 0130 00 now`), `pay ${HIGHLIGHT_START}DE89 **** **** **** 3000 now`.replace(HIGHLIGHT_START, ''), 'a highlight into a mask is dropped');
    assert.equal(s(`to ${HIGHLIGHT_START}DE89370400440532013000${HIGHLIGHT_END}.`), 'to DE89 **** **** **** 3000.', 'no highlight around a mask (it would say the hidden part matched)');
    assert.equal(s(`to DE89 **** **** **** ${HIGHLIGHT_START}3000${HIGHLIGHT_END}.`), `to DE89 **** **** **** ${HIGHLIGHT_START}3000${HIGHLIGHT_END}.`, 'a highlight of what the mask shows stays');
  });

  it('property: a valid IBAN in any spacing and case, in running text, shows exactly its mask', () => {
    fc.assert(
      fc.property(writtenIbanArbitrary, wordsArbitrary, wordsArbitrary, ({ iban, written }, pre, post) => {
        const text = [pre, written, post].filter(Boolean).join(' ');
        const out = maskBankDetailsInText(text);
        assert.equal(out, [pre, maskBankAccount(iban), post].filter(Boolean).join(' '));
        assert.deepEqual(leakedPieces(out, iban, `${pre} ${post}`), []);
      }),
      RUNS,
    );
  });

  // Letters alone cut off from an account's digits are not recognisable (bank-details.ts, rule 1):
  // the property covers the accounts whose letters are at most a bank code, and digit-bearing pieces.
  it('property: a snippet cut anywhere through text with an IBAN, highlighted anywhere, shows no digit-bearing piece beyond the mask', () => {
    const cutText = fc.tuple(writtenIbanOf(ibanOf(DIGIT_ACCOUNT_COUNTRIES)), wordsArbitrary, wordsArbitrary, fc.nat(), fc.nat(), fc.array(fc.boolean(), { maxLength: 40 }), fc.boolean());
    fc.assert(
      fc.property(cutText, ([{ iban, written }, pre, post, a, b, highlight, twoFragments]) => {
        // Words highlighted at random, as ts_headline marks matched words, then cut anywhere.
        let w = 0;
        const text = [pre, written, post].filter(Boolean).join(' ').replace(/[A-Za-z0-9]+/g, (word) => (highlight[w++ % Math.max(1, highlight.length)] ? `${HIGHLIGHT_START}${word}${HIGHLIGHT_END}` : word));
        const from = a % (text.length + 1);
        const to = from + (b % (text.length - from + 1));
        let cut = text.slice(from, to);
        if (twoFragments) cut = `${cut}${FRAGMENT_DELIMITER}${text.slice(to)}`;
        const out = maskBankDetailsInSnippet(cut);
        const plain = out.replaceAll(HIGHLIGHT_START, '').replaceAll(HIGHLIGHT_END, '');
        const leaked = leakedPieces(plain, iban, `${pre} ${post}`).filter((w) => /\d/.test(w));
        assert.deepEqual(leaked, [], `${JSON.stringify(cut)} -> ${JSON.stringify(out)}`);
        // Highlights never point into a mask: each one is balanced and holds no asterisk.
        // eslint-disable-next-line no-control-regex -- the highlight markers are control characters on purpose
        const marks = [...out.matchAll(/[\u0002\u0003]/g)].map((m) => m[0]);
        assert.ok(marks.every((m, i) => m === (i % 2 === 0 ? HIGHLIGHT_START : HIGHLIGHT_END)) && marks.length % 2 === 0, JSON.stringify(out));
        // eslint-disable-next-line no-control-regex -- the highlight markers are control characters on purpose
        assert.doesNotMatch(out, /\u0002[^\u0003]*\*/);
      }),
      RUNS,
    );
  });

  it('property: the value mask of any valid IBAN keeps its country code, check digits and last four only', () => {
    fc.assert(
      fc.property(ibanArbitrary, (iban) => {
        const { head, tail } = visibleParts(iban);
        const masked = maskBankAccount(iban);
        assert.match(masked, new RegExp(`^${head}( \\*{4})+ ${tail}$`));
      }),
      RUNS,
    );
  });
  it('an e-mail address whose local part holds eight digits is a user, not an account number: kept whole, while the same digits alone are masked', () => {
    assert.equal(maskBankDetailsInText('claimed by reviewer-69312533@example.org'), 'claimed by reviewer-69312533@example.org');
    assert.equal(maskBankDetailsInText('account 69312533 at the bank'), 'account **** 2533 at the bank');
  });
});
