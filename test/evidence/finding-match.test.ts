// The rule per-finding provenance uses to decide that a record's body holds a reported value.
import assert from 'node:assert/strict';
import { piiMatcher, walletMatcher } from '../../domain/evidence/finding-match';

describe('finding match: a record body holds a reported value as the site wrote it', () => {
  it('finds hex EVM and bech32 addresses in any letter case, base58 ones only byte for byte', () => {
    const evm = walletMatcher('0x52908400098527886E0F7030069857D2E4169EE7');
    assert.equal(evm.test('{"address":"0x52908400098527886e0f7030069857d2e4169ee7"}'), true);
    assert.equal(evm.test('pay 0x52908400098527886E0F7030069857D2E4169EE8'), false);
    const bech = walletMatcher('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    assert.equal(bech.test('<code>BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ</code>'), true);
    const base58 = walletMatcher('TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL');
    assert.equal(base58.test('send to TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL now'), true);
    assert.equal(base58.test('send to tnpeeaafb7k9cmo4uqpcu32zgk8g1nyqel now'), false);
    assert.equal(base58.test(base58.value.split('').reverse().join('')), false, 'a reversed copy in a script is not the address');
  });

  it('finds e-mail and handles in any case, phones with the separators people write', () => {
    assert.equal(piiMatcher('email', 'support@fast-profit.io').test('Mail: Support@Fast-Profit.io'), true);
    assert.equal(piiMatcher('telegram', '@fastprofit_help').test('href="https://t.me/FastProfit_help"'), true);
    assert.equal(piiMatcher('telegram', '@fastprofit_help').test('fastprofit_helpdesk'), false, 'a longer handle is another handle');
    const phone = piiMatcher('phone', '+442071838750');
    for (const written of ['call +44 20 7183 8750', 'tel:+442071838750', '0044 (20) 7183-8750', 'call 020 7183 8750']) assert.equal(phone.test(written), true, written);
    assert.equal(phone.test('id 14420718387501'), false, 'digits inside a longer number');
  });
});
