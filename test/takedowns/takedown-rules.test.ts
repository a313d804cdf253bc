// The takedowns' pure rules: which RDAP server answers (the pinned IANA bootstrap: TLD, longest
// IPv4/IPv6 prefix), who to tell from an RDAP answer, the registrable name, the XARF type of a scam
// type, and what a site check means.
import assert from 'node:assert/strict';
import bootstrap from '../../domain/takedowns/rdap-bootstrap.json';
import { abusePartiesOf, rdapQueryOfHost, rdapQueryUrl, rdapServerFor, registrableDomain, type RdapBootstrap } from '../../domain/takedowns/rdap';
import { siteStatusOf } from '../../domain/takedowns/site-status';
import { xarfTypeOf } from '../../domain/takedowns/xarf-report';
import { domainAnswer, ipAnswer } from '../support/rdap-server';

const pinned = bootstrap as RdapBootstrap;

describe('takedown rules: RDAP bootstrap and answers, XARF types, site status', () => {
  it('finds the RDAP server of a TLD and of the longest matching IPv4 and IPv6 prefix; none for an unknown TLD or a private address', () => {
    assert.equal(rdapServerFor(pinned, { kind: 'domain', name: 'scam-shop.com' }), 'https://rdap.verisign.com/com/v1/');
    assert.equal(rdapServerFor(pinned, { kind: 'ip', address: '185.199.108.153' }), 'https://rdap.db.ripe.net/');
    assert.equal(rdapServerFor(pinned, { kind: 'ip', address: '104.16.1.1' }), 'https://rdap.arin.net/registry/');
    assert.equal(rdapServerFor(pinned, { kind: 'ip', address: '2a01:4f8::1' }), 'https://rdap.db.ripe.net/');
    assert.equal(rdapServerFor(pinned, { kind: 'domain', name: 'x.nosuchtld' }), null);
    assert.equal(rdapServerFor(pinned, { kind: 'ip', address: '10.0.0.1' }), null);
    assert.equal(rdapQueryUrl('https://rdap.example/rdap', { kind: 'ip', address: '2001:db8::1' }), 'https://rdap.example/rdap/ip/2001%3Adb8%3A%3A1');
  });

  it('queries the registrable name of a host, an IP literal as an address', () => {
    assert.deepEqual(rdapQueryOfHost('login.secure.scam-shop.com'), { kind: 'domain', name: 'scam-shop.com' });
    assert.equal(registrableDomain('www.scam.co.uk'), 'scam.co.uk');
    assert.deepEqual(rdapQueryOfHost('[2001:db8::5]'), { kind: 'ip', address: '2001:db8::5' });
    assert.deepEqual(rdapQueryOfHost('203.0.113.5'), { kind: 'ip', address: '203.0.113.5' });
  });

  it('reads the registrar and its nested abuse contact from a domain answer, the network holder\'s from an IP answer', () => {
    assert.deepEqual(abusePartiesOf({ kind: 'domain', name: 'a.example' }, domainAnswer('a.example', 'Abuse@Registrar.example')), [
      { role: 'registrar', organization: 'Example Registrar, LLC', emails: ['abuse@registrar.example'] },
    ]);
    assert.deepEqual(abusePartiesOf({ kind: 'ip', address: '203.0.113.5' }, ipAnswer('203.0.113.5', 'noc@hosting.example')), [
      { role: 'hosting', organization: 'Bulletproof Hosting Ltd', emails: ['noc@hosting.example'] },
    ]);
    assert.deepEqual(abusePartiesOf({ kind: 'ip', address: '203.0.113.5' }, { name: 'NET-X', entities: [] }), [{ role: 'hosting', organization: 'NET-X', emails: [] }]);
  });

  it('maps scam types to XARF: phishing, or fraud with the nearest fraud_type', () => {
    assert.deepEqual(xarfTypeOf('phishing/credential'), { type: 'phishing' });
    assert.deepEqual(xarfTypeOf('investment/crypto/pig-butchering'), { type: 'fraud', fraud_type: 'cryptocurrency' });
    assert.deepEqual(xarfTypeOf('impersonation/tech-support'), { type: 'fraud', fraud_type: 'tech_support' });
    assert.deepEqual(xarfTypeOf(null), { type: 'fraud', fraud_type: 'other' });
  });

  it('reads a check: gone statuses and no answer are down, other bytes changed, the same up, a refusal unknown', () => {
    const base = { status: 200, sha256: 'a' };
    assert.equal(siteStatusOf({ kind: 'answered', status: 200, sha256: 'a' }, base), 'up');
    assert.equal(siteStatusOf({ kind: 'answered', status: 200, sha256: 'b' }, base), 'changed');
    assert.equal(siteStatusOf({ kind: 'answered', status: 410, sha256: 'a' }, base), 'down');
    assert.equal(siteStatusOf({ kind: 'answered', status: 503, sha256: 'a' }, base), 'down');
    assert.equal(siteStatusOf({ kind: 'unreachable', error: 'ECONNREFUSED' }, base), 'down');
    assert.equal(siteStatusOf({ kind: 'refused', reason: 'private' }, base), 'unknown');
    assert.equal(siteStatusOf({ kind: 'answered', status: 200, sha256: 'b' }, {}), 'up', 'no baseline yet: it answers');
  });
});
