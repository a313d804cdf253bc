// The MISP event mapping alone (domain/exports/misp-event.ts): RFC 4122 UUIDv5, the one TLP of an
// event, the coin-address relation per network, the threat level, and the hashes.csv lines.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { coinAddressRelation, eventTlp, mispEvent, mispHashLines, threatLevelOf, uuidV5 } from '../../domain/exports/misp-event';

const at = new Date('2026-11-20T10:00:00.000Z');
const subject = { kind: 'campaign' as const, id: '5f0c1d2e-0000-4000-8000-000000000001', name: 'Ring', status: 'active', priority: null, taxonomies: ['romance'], created_at: at, updated_at: at };

describe('MISP event mapping', () => {
  it('uuidV5 is RFC 4122 version 5 (the RFC\'s DNS namespace example)', () => {
    assert.equal(uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com'), '2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('takes the most restrictive marking, counting an entity without an indicator as amber', () => {
    assert.equal(eventTlp([]), 'amber');
    assert.equal(eventTlp([{ tlp: 'clear' }, { tlp: 'green' }]), 'green');
    assert.equal(eventTlp([{ tlp: 'clear' }, { tlp: null }]), 'amber');
    assert.equal(eventTlp([{ tlp: 'red' }, { tlp: 'amber+strict' }, { tlp: null }]), 'red');
  });

  it('types a wallet btc on Bitcoin, xmr on Monero, the generic address elsewhere', () => {
    assert.deepEqual(coinAddressRelation('Bitcoin'), { relation: 'address', type: 'btc' });
    assert.deepEqual(coinAddressRelation('bitcoin'), { relation: 'address', type: 'btc' });
    assert.deepEqual(coinAddressRelation('Monero', `4${'A'.repeat(94)}`), { relation: 'address-xmr', type: 'xmr' });
    assert.deepEqual(coinAddressRelation('Monero', `4${'A'.repeat(105)}`), { relation: 'address-crypto', type: 'text' }, 'an integrated address');
    assert.deepEqual(coinAddressRelation('Ethereum'), { relation: 'address-crypto', type: 'text' });
    assert.deepEqual(coinAddressRelation(null), { relation: 'address-crypto', type: 'text' });
  });

  it('threat level: a case by priority, a campaign by its riskiest entity', () => {
    assert.equal(threatLevelOf({ kind: 'case', priority: 'critical' }, []), 1);
    assert.equal(threatLevelOf({ kind: 'case', priority: 'low' }, []), 3);
    assert.equal(threatLevelOf({ kind: 'campaign', priority: null }, [{ risk_score: null }]), 4);
    assert.equal(threatLevelOf({ kind: 'campaign', priority: null }, [{ risk_score: 45 }, { risk_score: 12 }]), 2);
  });

  it('one TLP tag, one hash line per attribute value (object attributes included), the same uuids every time', () => {
    const entities = [
      { id: 'e1', type: 'wallet', value: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', attributes: { network: 'Bitcoin' }, first_seen_at: at, last_seen_at: at, risk_score: 80, tlp: 'green' as const },
      { id: 'e2', type: 'domain', value: 'evil.example', attributes: {}, first_seen_at: at, last_seen_at: at, risk_score: null, tlp: 'clear' as const },
      { id: 'e3', type: 'person', value: 'A Person', attributes: {}, first_seen_at: at, last_seen_at: at, risk_score: null, tlp: null },
    ];
    const e = mispEvent(subject, entities, { clearBankDetails: false });
    assert.deepEqual(e.Event.Tag.map((t) => t.name), ['tlp:green', 'fip:scam-taxonomy="romance"'], 'the person left out does not raise the marking');
    const withPhone = mispEvent(subject, [...entities, { id: 'e4', type: 'phone', value: '+442079460958', attributes: {}, first_seen_at: at, last_seen_at: at, risk_score: null, tlp: null }], { clearBankDetails: false });
    assert.deepEqual(withPhone.Event.Tag.map((t) => t.name), ['tlp:amber', 'fip:scam-taxonomy="romance"'], 'a phone (no indicator) counts as amber');
    assert.equal(e.Event.threat_level_id, '1');
    assert.deepEqual(e.Event.Attribute.map((a) => a.value), ['evil.example'], 'persons are left out');
    const md5 = (v: string) => createHash('md5').update(v).digest('hex');
    assert.deepEqual(mispHashLines(e), [`${md5('evil.example')},${e.Event.uuid}`, `${md5(entities[0]!.value)},${e.Event.uuid}`, `${md5('BTC')},${e.Event.uuid}`, `${md5('network: Bitcoin')},${e.Event.uuid}`]);
    assert.deepEqual(mispEvent(subject, entities, { clearBankDetails: false }), e);
  });
});
