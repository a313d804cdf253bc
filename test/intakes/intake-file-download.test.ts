// An intake's files read back through GET /intakes/{id}/files/{file_id} on the real API, blob store
// and PostgreSQL: analysts get the exact bytes as an attachment (octet-stream) by default, an
// inline preview only of images and PDF (an HTML or SVG upload stays a download: 422), every answer
// carries nosniff and a sandboxed Content-Security-Policy, every read is audited with its purpose,
// other roles get 403 and unknown ids 404.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import type { Role } from '../../domain/accounts/roles';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.domain)</script></body></html>');

describe('intake files: download and preview (API)', function () {
  this.timeout(60_000);
  const tag = randomUUID().slice(0, 8);
  let url: string;
  let users: Record<Role, string>;
  let intakeId: string;
  let files: Record<string, { id: string; sha256: string; content_type: string }>;

  before(async () => {
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
    users = await usersForEveryRole();
    const form = new FormData();
    form.append('payload', JSON.stringify({ summary: `files ${tag}` }));
    form.append('files', new Blob([PNG], { type: 'image/png' }), 'shot.png');
    form.append('files', new Blob([PDF], { type: 'application/pdf' }), 'statement.pdf');
    form.append('files', new Blob([HTML], { type: 'image/png' }), 'hostile.png');
    const res = await http(`${url}/intakes`, { method: 'POST', headers: asUser(users.analyst), body: form });
    assert.equal(res.status, 201, res.text);
    intakeId = res.body.id;
    files = Object.fromEntries((res.body.files as Array<{ filename: string; id: string; sha256: string; content_type: string }>).map((f) => [f.filename, f]));
  });

  /** The answer with its raw bytes (and the JSON error body when there is one). */
  const get = async (fileId: string, query = '', role: Role = 'analyst', intake = intakeId) => {
    const res = await fetch(`${url}/intakes/${intake}/files/${fileId}${query}`, { headers: asUser(users[role]) });
    const raw = Buffer.from(await res.arrayBuffer());
    const json = (res.headers.get('content-type') ?? '').includes('json');
    return { status: res.status, headers: res.headers, raw, text: raw.toString('utf8'), body: json ? JSON.parse(raw.toString('utf8')) : null };
  };

  it('downloads each file byte for byte as an attachment (octet-stream, nosniff, sandboxed CSP, X-Content-SHA256), audited with its purpose', async () => {
    for (const [name, bytes] of [['shot.png', PNG], ['statement.pdf', PDF], ['hostile.png', HTML]] as const) {
      const res = await get(files[name].id, `?purpose=${encodeURIComponent(`check ${tag}`)}`);
      assert.equal(res.status, 200, res.text);
      assert.equal(createHash('sha256').update(res.raw).digest('hex'), createHash('sha256').update(bytes).digest('hex'), name);
      assert.equal(res.headers.get('x-content-sha256'), files[name].sha256);
      assert.equal(res.headers.get('content-type'), 'application/octet-stream');
      assert.match(res.headers.get('content-disposition')!, new RegExp(`^attachment; filename="${name.replace('.', '\\.')}"`));
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.match(res.headers.get('content-security-policy')!, /^sandbox; default-src 'none'/);
    }
    const audit = await testKnex()('audit_events').where({ action: 'intake.file.download', target_id: intakeId }).orderBy('at');
    assert.equal(audit.length, 3);
    assert.ok(audit.every((a: { actor: string; purpose: string }) => a.actor === users.analyst && a.purpose === `check ${tag}`));
    assert.deepEqual(audit.map((a: { details: { file_id: string } }) => a.details.file_id).sort(), [files['shot.png'].id, files['statement.pdf'].id, files['hostile.png'].id].sort());
  });

  it('serves images and PDF inline with their sniffed type; a file sniffed as anything else (HTML declared as PNG) is 422 not_previewable', async () => {
    const png = await get(files['shot.png'].id, '?disposition=inline');
    assert.equal(png.status, 200);
    assert.equal(png.headers.get('content-type'), 'image/png');
    assert.match(png.headers.get('content-disposition')!, /^inline; filename="shot\.png"/);
    assert.match(png.headers.get('content-security-policy')!, /^sandbox;/);
    const pdf = await get(files['statement.pdf'].id, '?disposition=inline');
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers.get('content-type'), 'application/pdf');
    assert.notEqual(files['hostile.png'].content_type, 'image/png', 'the type is sniffed, not declared');
    const hostile = await get(files['hostile.png'].id, '?disposition=inline');
    assert.equal(hostile.status, 422, hostile.text);
    assert.equal(hostile.body.error.code, 'not_previewable');
    const views = await testKnex()('audit_events').where({ action: 'intake.file.view', target_id: intakeId });
    assert.equal(views.length, 2, 'the two previews are audited; the refused one is not');
  });

  it('answers 404 for an unknown intake or a file of another intake, 400 for a bad disposition, 403 to every role but analyst', async () => {
    assert.equal((await get(files['shot.png'].id, '', 'analyst', randomUUID())).status, 404);
    assert.equal((await get(randomUUID())).status, 404);
    const bad = await get(files['shot.png'].id, '?disposition=script');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details[0].path, 'query.disposition');
    for (const role of ['admin', 'reviewer', 'researcher'] as const) assert.equal((await get(files['shot.png'].id, '', role)).status, 403, role);
  });
});
