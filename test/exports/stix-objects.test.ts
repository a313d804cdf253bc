// The STIX 2.1 mapping (domain/exports/stix-objects.ts) and TAXII vocabulary (domain/exports/taxii.ts)
// in isolation: deterministic SCO ids as the standard computes them, pattern escaping, TLP 2.0
// marking ids, the bundle writer's streaming output, and Accept negotiation.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { v5 as uuidv5 } from 'uuid';
import { canonicalJson, indicatorPattern, observable, observableJson, scoId, STIX_SCO_NAMESPACE, stableUuidV4, stixIndicator, stixIndicatorJson, stixTime, stixUuidV5, TLP_MARKING_IDS, type IndicatorSource, type ObservableEntityType } from '../../domain/exports/stix-objects';
import { acceptsTaxii, matchesFilter } from '../../domain/exports/taxii';
import { writeStixBundle } from '../../services/exports/export-writers';

describe('STIX 2.1 mapping', () => {
  it('computes SCO ids as UUIDv5 in the STIX namespace over the canonical id-contributing properties (the python stix2 library values)', () => {
    // stix2: DomainName(value="example.com").id
    assert.equal(observable('domain', 'example.com').id, 'domain-name--bedb4899-d24b-5401-bc86-8f6b4cc18ec7');
    assert.equal(scoId('domain-name', { value: 'example.com' }), 'domain-name--bedb4899-d24b-5401-bc86-8f6b4cc18ec7');
    assert.equal(canonicalJson({ b: 1, a: ['x', { d: null, c: 'é' }] }), '{"a":["x",{"c":"é","d":null}],"b":1}');
    assert.equal(observable('ip', '2001:db8::1').type, 'ipv6-addr');
    assert.equal(observable('ip', '192.0.2.1').type, 'ipv4-addr');
    const w = observable('wallet', 'bc1qexample');
    assert.equal(w.type, 'cryptocurrency-wallet');
    assert.deepEqual(Object.values(w.extensions as object), [{ extension_type: 'new-sco' }]);
  });

  it('derives the same UUIDv5 as the uuid package for ASCII, non-ASCII, empty and long names', () => {
    const names = ['', '{"value":"example.com"}', `{"value":"${'é'.repeat(5000)}"}`, '{"value":"bücher.example"}', '{"value":"😀 \\u0000 \'"}', `{"value":"${'x'.repeat(100_000)}"}`];
    for (const name of names) assert.equal(stixUuidV5(name), uuidv5(name, STIX_SCO_NAMESPACE), name.slice(0, 40));
  });

  it('writes STIX timestamps exactly as Date#toISOString does, in and outside years 1000-9999', () => {
    const times = [0, 1, 999, 1_000, 59_999, Date.UTC(2026, 10, 22, 17, 36, 28, 7), Date.UTC(2026, 0, 1), Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(10000, 0, 1), Date.UTC(999, 11, 31, 23, 59, 59, 999), Date.UTC(-1, 5, 1), -62198755200000];
    for (let t = Date.UTC(1999, 11, 31); t < Date.UTC(2001, 0, 2); t += 3_600_007) times.push(t);
    for (const t of times) assert.equal(stixTime(new Date(t)), new Date(t).toISOString(), String(t));
    assert.equal(stixTime('2026-11-22T17:36:28.123456Z'), '2026-11-22T17:36:28.123Z');
    assert.throws(() => stixTime(new Date(Number.NaN)), RangeError);
  });

  it('writes observables and indicators as text exactly as JSON.stringify writes their objects', () => {
    const values: Array<[ObservableEntityType, string]> = [
      ['domain', 'example.com'],
      ['url', `https://x.example/a'b\\c"d?q=<script>&x=\u2028`],
      ['ip', '192.0.2.1'],
      ['ip', '2001:db8::1'],
      ['email', 'bücher@例え.jp'],
      ['wallet', 'bc1qexample'],
      ['url', `https://long.example/${'😀'.repeat(200)}`],
      ['domain', 'tab\there\u0000.example'],
    ];
    const t = new Date(Date.UTC(2026, 10, 22, 17, 36, 28, 123));
    const later = new Date(t.getTime() + 5);
    const tlps = Object.keys(TLP_MARKING_IDS) as Array<keyof typeof TLP_MARKING_IDS>;
    let checked = 0;
    for (const [type, value] of values) {
      assert.equal(observableJson(type, value), JSON.stringify(observable(type, value)), value);
      for (const [i, [created_at, updated_at, valid_from]] of [
        [t, t, t],
        [t, later, t],
        [later, t, new Date(0)],
        ['2026-01-02T03:04:05.678Z', '2026-01-02T03:04:05.678Z', '2026-01-01T00:00:00Z'],
      ].entries()) {
        const row: IndicatorSource = { entity_id: '0b1c2d3e-aaaa-4bbb-8ccc-000000000001', type, value, category: i % 2 ? 'Phishing / "Fake" shop' : '', confidence: i * 33, tlp: tlps[i % tlps.length]!, created_at, updated_at, valid_from };
        assert.equal(stixIndicatorJson(row), JSON.stringify(stixIndicator(row)), `${value} #${i}`);
        checked++;
      }
    }
    assert.equal(checked, values.length * 4);
  });

  it('escapes quotes and backslashes in patterns', () => {
    assert.equal(indicatorPattern('url', "https://x.example/a'b\\c"), "[url:value = 'https://x.example/a\\'b\\\\c']");
    assert.equal(indicatorPattern('email', 'a@b.example'), "[email-addr:value = 'a@b.example']");
  });

  it('uses the standard TLP 2.0 marking-definition ids', () => {
    assert.equal(TLP_MARKING_IDS.clear, 'marking-definition--94868c89-83c2-464b-929b-a1a8aa3c8487');
    assert.equal(TLP_MARKING_IDS.amber, 'marking-definition--55d920b0-5e8b-4f79-9ee9-91f868d9b421');
    assert.equal(TLP_MARKING_IDS.red, 'marking-definition--e828b379-4e03-4974-9ac4-e53a884c97c1');
  });

  it('derives stable version-4 UUIDs for SDOs and SROs', () => {
    const a = stableUuidV4('x');
    assert.equal(a, stableUuidV4('x'));
    assert.notEqual(a, stableUuidV4('y'));
    assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('writes a bundle incrementally that parses back to the same objects', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    async function* objects() {
      for (let i = 0; i < 3000; i++) yield observable('domain', `d${i}.example`);
    }
    const n = await writeStixBundle('bundle--00000000-0000-4000-8000-000000000000', objects(), out);
    out.end();
    const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    assert.equal(n, 3000);
    assert.equal(parsed.objects.length, 3000);
    assert.equal(parsed.objects[2999].value, 'd2999.example');
    assert.ok(chunks.length > 1, 'written in several chunks');
  });

  it('negotiates TAXII media types and applies match filters', () => {
    assert.equal(acceptsTaxii(undefined), true);
    assert.equal(acceptsTaxii('application/taxii+json;version=2.1'), true);
    assert.equal(acceptsTaxii('application/json'), false);
    assert.equal(acceptsTaxii('application/taxii+json;version=2.0'), false);
    const o = { type: 'indicator', id: 'indicator--1', spec_version: '2.1', modified: '2026-01-02T00:00:00.000Z' };
    assert.equal(matchesFilter(o, { types: ['indicator'], versions: ['last'] }), true);
    assert.equal(matchesFilter(o, { versions: ['2026-01-02T00:00:00Z'] }), true);
    assert.equal(matchesFilter(o, { versions: ['2026-01-01T00:00:00Z'] }), false);
    assert.equal(matchesFilter(o, { ids: ['indicator--2'] }), false);
  });
});
