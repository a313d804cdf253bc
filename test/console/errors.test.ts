// The console's error sentences (console/src/errors.ts): an API error answer becomes one sentence
// saying what and where, never the JSON.
import assert from 'node:assert/strict';
import { FipApiError } from '../../sdk/src';
import { describeError, fieldName } from '../../console/src/errors';

describe('console error sentences', () => {
  it('a validation 400 names the field and the problem', () => {
    const d = describeError(new FipApiError(400, 'validation_failed', 'query.min_loss: a non-negative decimal', [{ path: 'query.min_loss', message: 'a non-negative decimal with at most 2 decimals' }]));
    assert.equal(d.sentence, 'Min loss is not valid: a non-negative decimal with at most 2 decimals.');
    assert.equal(d.where, 'min loss');
  });

  it('a query error names line and column (and the field when the API does)', () => {
    const syntax = describeError(new FipApiError(400, 'query_syntax', 'body.query: expected ")"', [{ path: 'body.query', message: 'expected ")" or a value', line: 1, column: 9, offset: 8 }]));
    assert.equal(syntax.sentence, 'The query could not be read at line 1, column 9: expected ")" or a value.');
    assert.equal(syntax.where, 'line 1, column 9');
    const invalid = describeError(new FipApiError(400, 'invalid_query', 'x', [{ path: 'body.query', message: 'loss takes an amount', line: 2, column: 3, field: 'loss' }, { path: 'body.query', message: 'second' }]));
    assert.equal(invalid.sentence, 'The query is not valid at line 2, column 3 (field loss): loss takes an amount. (and 1 more problem)');
  });

  it('statuses without details have their own sentence; nothing shows JSON', () => {
    assert.equal(describeError(new FipApiError(403, 'forbidden', 'role')).sentence, 'Your roles do not allow this.');
    assert.match(describeError(new FipApiError(503, 'unavailable', '{"error":{}}')).sentence, /server error/);
    assert.equal(describeError(new TypeError('Failed to fetch')).sentence, 'The platform could not be reached. Check the connection and try again.');
    assert.equal(fieldName('body.query'), 'the query');
    assert.equal(fieldName('body.filters.status'), 'filters status');
  });
});
