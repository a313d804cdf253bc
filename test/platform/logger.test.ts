// The log serializes errors wherever they sit in a line: a failing step once logged only
// "error":{} (JSON.stringify of an Error), hiding its message and stack.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import type { DestinationStream } from 'pino';
import { createLogger } from '../../infra/logger';

function capture() {
  const lines: Array<Record<string, any>> = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      cb();
    },
  });
  return { log: createLogger('info', 'logger-test', sink as unknown as DestinationStream), lines };
}

describe('logger: error serialization', () => {
  it('writes message, type, stack and cause of an Error under err, error, nested objects and arrays', () => {
    const { log, lines } = capture();
    const cause = new TypeError('the PDF stream is damaged');
    const err = Object.assign(new Error('extract_text failed', { cause }), { code: 'E_PARSE' });
    log.error({ err }, 'top-level err');
    log.error({ workflow_id: 'intake-1', error: err }, 'error key');
    // The shape of the Temporal SDK's own lines, routed into ours (app/platform-runtime.ts).
    log.warn({ temporal: { error: err, attempts: [new RangeError('Invalid string length')] }, sdk: true }, 'Activity failed');
    log.error(err, 'the error itself');

    assert.equal(lines.length, 4);
    const [a, b, c, d] = lines;
    for (const e of [a.err, b.error, c.temporal.error, d.err]) {
      assert.equal(e.type, 'Error');
      assert.equal(e.message, 'extract_text failed');
      assert.match(e.stack, /^Error: extract_text failed\n\s+at /);
      assert.equal(e.code, 'E_PARSE');
      assert.equal(e.cause.type, 'TypeError');
      assert.equal(e.cause.message, 'the PDF stream is damaged');
    }
    assert.equal(b.workflow_id, 'intake-1');
    assert.equal(c.temporal.attempts[0].type, 'RangeError');
    assert.equal(c.temporal.attempts[0].message, 'Invalid string length');
  });

  it('leaves other values as they are and still redacts secrets next to an error', () => {
    const { log, lines } = capture();
    const fields = { count: 3, when: new Date('2026-11-26T10:00:00Z'), list: [1, 'two'], nested: { contact_email: 'victim@example.org', err: new Error('x') } };
    log.info(fields, 'plain');
    assert.equal(lines[0].count, 3);
    assert.equal(lines[0].when, '2026-11-26T10:00:00.000Z');
    assert.deepEqual(lines[0].list, [1, 'two']);
    assert.equal(lines[0].nested.contact_email, '[redacted]');
    assert.equal(lines[0].nested.err.message, 'x');
    assert.ok(fields.nested.err instanceof Error, 'the caller\'s object is not modified');
  });

  it('redacts victims\' contact data and secrets at the top level of a line as well as one level down', () => {
    const { log, lines } = capture();
    log.info({ contact_email: 'victim@example.org', contact_phone: '+447700900123', reporter_name: 'A. Victim', password: 'pw', api_key: 'k', intake: { contact_email: 'victim@example.org' } }, 'top level');
    const line = JSON.stringify(lines[0]);
    for (const secret of ['victim@example.org', '+447700900123', 'A. Victim', '"pw"', '"k"']) assert.ok(!line.includes(secret), `${secret} leaked: ${line}`);
    assert.equal(lines[0].contact_email, '[redacted]');
    assert.equal(lines[0].intake.contact_email, '[redacted]');
  });

  it('redacts a human\'s guidance answer (a captcha\'s text) at the top level and one level down', () => {
    const { log, lines } = capture();
    log.info({ answer: 'XK7P2Q', body: { request_id: 'r', answer: 'ZZ9PLURAL' } }, 'guidance');
    const line = JSON.stringify(lines[0]);
    for (const secret of ['XK7P2Q', 'ZZ9PLURAL']) assert.ok(!line.includes(secret), `${secret} leaked: ${line}`);
    assert.equal(lines[0].body.request_id, 'r');
  });
});
