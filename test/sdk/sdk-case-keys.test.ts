// The platform variant's key translation: keys only, never values, never inside opaque fields.
import assert from 'node:assert/strict';
import { camelToSnake, snakeCaseTranslator, snakeToCamel } from '../../sdk/src/case-keys';

describe('SDK key translation (platform variant)', () => {
  const t = snakeCaseTranslator();

  it('translates nested keys both ways and leaves values (strings with _ or capitals) alone', () => {
    const camel = { caseId: 'a_b', urlPatterns: ['x_y'], steps: [{ type: 'wait_for_text', timeoutS: 5 }], nested: { someKey: 'SomeValue' } };
    const wire = { case_id: 'a_b', url_patterns: ['x_y'], steps: [{ type: 'wait_for_text', timeout_s: 5 }], nested: { some_key: 'SomeValue' } };
    assert.deepEqual(t.toWire(camel), wire);
    assert.deepEqual(t.fromWire(wire), camel);
  });

  it('never translates inside opaque fields (scope, attributes, context, details, result, response_headers), though their own key is translated', () => {
    const wire = {
      scope: { entity_types: ['wallet'], since_days: 3 },
      attributes: { first_seen: 1 },
      context: { page_url: 'u' },
      details: { target_id: 'x' },
      result: { report_id: 'r' },
      response_headers: { 'content_type': 'text/html', x_powered_by: 'php' },
    };
    const camel = t.fromWire(wire) as Record<string, unknown>;
    assert.deepEqual(camel, {
      scope: { entity_types: ['wallet'], since_days: 3 },
      attributes: { first_seen: 1 },
      context: { page_url: 'u' },
      details: { target_id: 'x' },
      result: { report_id: 'r' },
      responseHeaders: { content_type: 'text/html', x_powered_by: 'php' },
    });
    assert.deepEqual(t.toWire({ scope: { entity_types: ['wallet'], sinceDays: 3 }, responseHeaders: { aB: 1 } }), {
      scope: { entity_types: ['wallet'], sinceDays: 3 },
      response_headers: { aB: 1 },
    });
  });

  it('extra opaque fields given by the caller (camelCase names) are honoured', () => {
    const custom = snakeCaseTranslator(['customMap']);
    assert.deepEqual(custom.fromWire({ custom_map: { a_b: 1 }, other_map: { a_b: 1 } }), { customMap: { a_b: 1 }, otherMap: { aB: 1 } });
  });

  it('converts validation paths to camelCase up to an opaque field', () => {
    assert.equal(t.pathFromWire('body.campaign_id'), 'body.campaignId');
    assert.equal(t.pathFromWire('body.steps.0.timeout_s'), 'body.steps.0.timeoutS');
    assert.equal(t.pathFromWire('body.scope.entity_types.0'), 'body.scope.entity_types.0');
  });

  it('leaves non-plain objects (FormData, Date, Blob) untouched', () => {
    const form = new FormData();
    const date = new Date(0);
    const out = t.toWire({ someForm: form, someDate: date }) as Record<string, unknown>;
    assert.equal(out.some_form, form);
    assert.equal(out.some_date, date);
  });

  it('translates identifiers only: path templates, header names and other keys that are data keep their names', () => {
    const wire = {
      paths: { '/investigations/ssi/{scan_id}/evidence-bundle': { get: { operation_id: 'x' } }, '/reports/dossiers/{id}/drive_acl': {} },
      by_type: { 'text/csv; charset=utf-8': 1, 'X-Request-Id': 2, _private_key: 3, '2_xx': 4 },
    };
    assert.deepEqual(t.fromWire(wire), {
      paths: { '/investigations/ssi/{scan_id}/evidence-bundle': { get: { operationId: 'x' } }, '/reports/dossiers/{id}/drive_acl': {} },
      byType: { 'text/csv; charset=utf-8': 1, 'X-Request-Id': 2, _private_key: 3, '2_xx': 4 },
    });
    assert.deepEqual(t.toWire({ byPath: { '/cases/{case_id}': 1, 'Content-Type': 2 } }), { by_path: { '/cases/{case_id}': 1, 'Content-Type': 2 } });
  });

  it('snakeToCamel and camelToSnake round-trip the platform\'s key shapes', () => {
    for (const key of ['case_id', 'next_cursor', 'timeout_s', 'sha256', 'wallets_found', 'x']) assert.equal(camelToSnake(snakeToCamel(key)), key);
  });
});
