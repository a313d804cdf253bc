// One canonical value per real-world thing (domain/intelligence/normalize-entity.ts).
import assert from 'node:assert/strict';
import { normalizeEntity } from '../../domain/intelligence/normalize-entity';

describe('graph entity normalization', () => {
  it('folds EVM addresses to one lower-case identity and displays the EIP-55 checksum', () => {
    const n = normalizeEntity('wallet', ' 0x52908400098527886E0F7030069857D2E4169EE7 ');
    assert.deepEqual(n, { value: '0x52908400098527886e0f7030069857d2e4169ee7', display: '0x52908400098527886E0F7030069857D2E4169EE7', attributes: {} });
    assert.equal(normalizeEntity('wallet', '0x52908400098527886e0f7030069857d2e4169ee7')!.value, n!.value);
  });

  it('lower-cases bech32 but keeps case-sensitive formats as they are', () => {
    assert.equal(normalizeEntity('wallet', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4')!.value, 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
    assert.equal(normalizeEntity('wallet', 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC')!.value, 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC');
    assert.equal(normalizeEntity('wallet', 'two words'), null);
  });

  it('normalizes domains (case, trailing dot, IDN) and rejects IPs and single labels', () => {
    assert.deepEqual(normalizeEntity('domain', 'Sub.Example.CO.UK.'), {
      value: 'sub.example.co.uk',
      display: 'sub.example.co.uk',
      attributes: { registrable_domain: 'example.co.uk', public_suffix: 'co.uk' },
    });
    assert.equal(normalizeEntity('domain', 'bücher.example')!.value, 'xn--bcher-kva.example');
    assert.equal(normalizeEntity('domain', '10.0.0.1'), null);
    assert.equal(normalizeEntity('domain', 'localhost'), null);
  });

  it('normalizes URLs without their fragment and refuses other schemes', () => {
    assert.equal(normalizeEntity('url', 'HTTPS://Scam.Example:443/Pay?x=1#top')!.value, 'https://scam.example/Pay?x=1');
    assert.equal(normalizeEntity('url', 'javascript:alert(1)'), null);
  });

  it('formats phones as E.164 with their country', () => {
    const n = normalizeEntity('phone', '+49 30 901820');
    assert.equal(n!.value, '+4930901820');
    assert.equal(n!.attributes.country, 'DE');
    assert.equal(normalizeEntity('phone', '030 901820', { default_country: 'DE' })!.value, '+4930901820');
    assert.equal(normalizeEntity('phone', '12'), null);
  });

  it('stores IBANs in electronic format, displays them in groups of four, with their country', () => {
    const n = normalizeEntity('bank_account', 'de89 3704 0044 0532 0130 00');
    assert.deepEqual(n, { value: 'DE89370400440532013000', display: 'DE89 3704 0044 0532 0130 00', attributes: { kind: 'iban', country: 'DE' } });
  });

  it('normalizes e-mail addresses, IPs, names and social handles', () => {
    assert.equal(normalizeEntity('email', ' Scammer@Mail.EXAMPLE ')!.value, 'scammer@mail.example');
    assert.equal(normalizeEntity('email', 'not an email'), null);
    assert.equal(normalizeEntity('ip', '2001:DB8:0:0:0:0:0:1')!.value, '2001:db8::1');
    assert.equal(normalizeEntity('ip', '999.1.1.1'), null);
    assert.deepEqual(normalizeEntity('person', '  John   SMITH '), { value: 'john smith', display: 'John SMITH', attributes: {} });
    assert.equal(normalizeEntity('social_handle', 'Telegram:@Crypto_Support')!.value, 'telegram:crypto_support');
    assert.equal(normalizeEntity('social_handle', '@name', { platform: 'whatsapp' })!.value, 'whatsapp:name');
    assert.equal(normalizeEntity('social_handle', '@name'), null);
  });
});
