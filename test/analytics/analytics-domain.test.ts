// The pure rules of the analytics layer: the scam taxonomy (validation, rollup, Sankey), countries
// from entity values, bank masking, campaign risk, and the LEA suggestion ranking.
import assert from 'node:assert/strict';
import { campaignRisk } from '../../domain/campaigns/campaign-risk';
import { entityCountry } from '../../domain/analytics/entity-country';
import { leaCandidatesFromHits, rankLeaCandidates, type LeaHit } from '../../domain/campaigns/lea-suggestions';
import { maskBankAccount, maskingFor } from '../../domain/masking/masking-policy';

const visibleEntityValue = (type: string, value: string, roles: Parameters<typeof maskingFor>[0]) => maskingFor(roles).value(type, value);
import { isTaxonomyPath, taxonomyLineage, taxonomySankey, taxonomyTree } from '../../domain/analytics/scam-taxonomy';

describe('analytics domain rules', () => {
  it('taxonomy: validates paths, gives lineages, rolls counts up and sends unknown paths to unclassified', () => {
    assert.equal(isTaxonomyPath('investment/crypto/pig-butchering'), true);
    assert.equal(isTaxonomyPath('impersonation/government'), true);
    assert.equal(isTaxonomyPath('crypto'), false);
    assert.deepEqual(taxonomyLineage('investment/crypto/pig-butchering'), ['investment', 'investment/crypto', 'investment/crypto/pig-butchering']);
    assert.deepEqual(taxonomyLineage('nope'), ['unclassified']);
    const tree = taxonomyTree([
      { taxonomy: 'investment/crypto/pig-butchering', cases: 2, campaigns: 1 },
      { taxonomy: 'investment', cases: 1, campaigns: 0 },
      { taxonomy: '', cases: 4, campaigns: 2 },
      { taxonomy: 'bogus/path', cases: 1, campaigns: 0 },
    ]);
    const inv = tree.nodes.find((n) => n.path === 'investment')!;
    assert.deepEqual([inv.cases, inv.campaigns], [3, 1]);
    assert.equal(inv.children.find((n) => n.slug === 'crypto')!.cases, 2);
    assert.equal(inv.children.find((n) => n.slug === 'forex')!.cases, 0);
    assert.deepEqual(tree.unclassified, { cases: 5, campaigns: 2 });
  });

  it('taxonomy Sankey: all -> top level -> children with rolled-up values, zero flows left out', () => {
    const s = taxonomySankey([{ taxonomy: 'investment/crypto/pig-butchering', cases: 2 }, { taxonomy: 'romance', cases: 1 }, { taxonomy: null, cases: 3 }]);
    assert.deepEqual(s.links, [
      { source: 'all', target: 'investment', value: 2 },
      { source: 'investment', target: 'investment/crypto', value: 2 },
      { source: 'investment/crypto', target: 'investment/crypto/pig-butchering', value: 2 },
      { source: 'all', target: 'romance', value: 1 },
      { source: 'all', target: 'unclassified', value: 3 },
    ]);
    assert.deepEqual(s.nodes.map((n) => n.id), ['all', 'investment', 'investment/crypto', 'investment/crypto/pig-butchering', 'romance', 'unclassified']);
    assert.deepEqual(taxonomySankey([]).links, []);
  });

  it('countries from phones, IBANs and country-code TLDs (public-suffix aware; generic TLDs and .eu give none)', () => {
    assert.deepEqual(entityCountry('phone', '+442079460958'), { country: 'GB', basis: 'phone' });
    assert.deepEqual(entityCountry('phone', '+33123456789', { country: 'FR' }), { country: 'FR', basis: 'phone' });
    assert.deepEqual(entityCountry('bank_account', 'DE89370400440532013000'), { country: 'DE', basis: 'iban' });
    assert.equal(entityCountry('bank_account', '12345678'), null);
    assert.deepEqual(entityCountry('domain', 'shop.example.co.uk'), { country: 'GB', basis: 'cctld' });
    assert.deepEqual(entityCountry('url', 'https://pay.example.de/x?y=1'), { country: 'DE', basis: 'cctld' });
    assert.deepEqual(entityCountry('email', 'scam@mail.example.nl'), { country: 'NL', basis: 'cctld' });
    assert.equal(entityCountry('domain', 'example.com'), null);
    assert.equal(entityCountry('domain', 'europa.eu'), null);
    assert.equal(entityCountry('wallet', '0xabc'), null);
  });

  it('bank accounts are masked (country, check digits and last four kept) for every role but analyst', () => {
    assert.equal(maskBankAccount('GB82WEST12345698765432'), 'GB82 **** **** **** 5432');
    assert.equal(maskBankAccount('gb82 west 1234 5698 7654 32'), 'GB82 **** **** **** 5432');
    assert.equal(maskBankAccount('12345678'), '**** 5678');
    assert.equal(visibleEntityValue('bank_account', 'GB82WEST12345698765432', ['analyst']), 'GB82WEST12345698765432');
    assert.equal(visibleEntityValue('bank_account', 'GB82WEST12345698765432', ['admin', 'reviewer']), 'GB82 **** **** **** 5432');
    assert.equal(visibleEntityValue('wallet', '0xabcdef0123', ['admin']), '0xabcdef0123');
  });

  it('campaign risk is the max of the scored members, with their mean; no scores gives nulls', () => {
    assert.deepEqual(campaignRisk([80, null, 40, 45]), { score: 80, max: 80, mean: 55, scored_entities: 3 });
    assert.deepEqual(campaignRisk([null]), { score: null, max: null, mean: null, scored_entities: 0 });
  });

  it('LEA ranking: weights per distinct entity, then more entities, then newer evidence; referred members and self-only evidence left out', () => {
    const hit = (over: Partial<LeaHit>): LeaHit => ({
      candidate_kind: 'case', candidate_id: 'x', title: 't', candidate_campaign_id: null, referral_status: null,
      entity_id: 'w', type: 'wallet', value: 'v', source_kind: 'case', source_id: 'x', observed_at: '2026-01-01T00:00:00.000Z', owners: ['m1'], ...over,
    });
    const candidates = leaCandidatesFromHits('camp', [
      hit({ candidate_id: 'a', entity_id: 'd1', type: 'domain' }),
      hit({ candidate_id: 'a', entity_id: 'd2', type: 'domain' }),
      hit({ candidate_id: 'a', entity_id: 'd2', type: 'domain', source_kind: 'intake', source_id: 'i' }),
      hit({ candidate_id: 'b', entity_id: 'p', type: 'phone', observed_at: '2026-02-01T00:00:00.000Z' }),
      hit({ candidate_id: 'c', entity_id: 'w', observed_at: '2026-01-01T00:00:00.000Z' }),
      hit({ candidate_id: 'm1', candidate_campaign_id: 'camp', owners: ['m1'] }),
      hit({ candidate_id: 'm2', candidate_campaign_id: 'camp', referral_status: 'submitted' }),
      hit({ candidate_id: 'm3', candidate_campaign_id: 'camp', referral_status: 'draft', owners: ['m1', 'm3'] }),
    ]);
    const ranked = rankLeaCandidates(candidates);
    assert.deepEqual(ranked.map((r) => [r.id, r.score, r.shared_entities, r.reason]), [
      ['c', 3, 1, 'not_in_campaign'],
      ['m3', 3, 1, 'not_referred'],
      ['a', 2, 2, 'not_in_campaign'],
      ['b', 2, 1, 'not_in_campaign'],
    ]);
    assert.equal(ranked[2]!.evidence.length, 3);
  });
});
