// Small pure helpers of the SDK: Retry-After parsing, Content-Disposition file names, path filling.
import assert from 'node:assert/strict';
import { filenameFromDisposition } from '../../sdk/src/download';
import { fillPath, retryAfterMs } from '../../sdk/src/transport';

describe('SDK helpers', () => {
  it('retryAfterMs reads seconds and HTTP dates, and ignores garbage', () => {
    assert.equal(retryAfterMs('2'), 2000);
    assert.equal(retryAfterMs('0'), 0);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(retryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', now), 5000);
    assert.equal(retryAfterMs('Wed, 31 Dec 2025 23:59:00 GMT', now), 0, 'a date in the past means now');
    assert.equal(retryAfterMs('soon'), null);
    assert.equal(retryAfterMs(null), null);
  });

  it('filenameFromDisposition prefers filename* (RFC 5987) over filename', () => {
    assert.equal(filenameFromDisposition('attachment; filename="wallets-1.csv"'), 'wallets-1.csv');
    assert.equal(filenameFromDisposition("attachment; filename=\"r.pdf\"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf"), 'résumé.pdf');
    assert.equal(filenameFromDisposition('attachment; filename=plain.txt'), 'plain.txt');
    assert.equal(filenameFromDisposition(null), null);
  });

  it('fillPath takes the template\'s own name only (never renamed), encodes values and names a missing parameter', () => {
    assert.equal(fillPath('/tasks/{task_id}', { task_id: 'report-1/x' }), '/tasks/report-1%2Fx');
    assert.equal(fillPath('/investigations/ssi/{scan_id}/pages/{page_id}/{artifact}', { scan_id: 's', page_id: 'p', artifact: 'dom' }), '/investigations/ssi/s/pages/p/dom');
    assert.throws(() => fillPath('/tasks/{task_id}', { taskId: 'a' }), /path parameter task_id is required for \/tasks\/\{task_id\}/);
    assert.throws(() => fillPath('/investigations/ssi/{scan_id}', {}), /path parameter scan_id is required/);
    assert.throws(() => fillPath('/x/{constructor}', {}), /path parameter constructor is required/, 'only own properties');
  });
});
