// Persona mail end to end: the platform's real SMTP receiver (loopback), real PostgreSQL, blob store
// and Temporal. A verification mail to a registered persona mailbox is stored as evidence, its code
// and link are read, and the scan's workflow (a probe standing in for the funnel's VERIFY_CONTACT)
// is signalled; the detail lists it, analysts download it (custody, audit), the evidence bundle
// carries it; other recipients, oversized mail and repeats are refused or stored once.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import { startPersonaMailReceiver } from '../../app/persona-mail-receiver';
import { insertInvestigation, insertPage, setInvestigationState } from '../../db/repositories/investigations/investigation-repository';
import { registerPersonaMailbox } from '../../db/repositories/investigations/mailbox-repository';
import { investigationTaskId } from '../../domain/investigations/investigation-request';
import { mailProbeWorkflow } from '../support/funnel-probe-workflows';
import { startFunnelProbeWorker } from '../support/funnel-probe-worker';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { startTestApi, startTestMailReceiver, testKnex, testTemporal } from '../support/platform';
import { waitFor } from '../support/wait-for';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const unzipper = require('unzipper') as { Open: { buffer(b: Buffer): Promise<{ files: Array<{ path: string; type: string; buffer(): Promise<Buffer> }> }> } };

const DOMAIN = 'personas.test';
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

function verificationMail(to: string, messageId: string, extra = ''): string {
  return [
    'From: CoinEx Support <no-reply@coinex-fake.test>',
    `To: ${to}`,
    'Subject: Verify your e-mail',
    `Message-ID: <${messageId}>`,
    'Date: Thu, 26 Nov 2026 12:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: multipart/alternative; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Your verification code is 482913. Or open https://coinex-fake.test/account/verify?token=abc123',
    extra,
    '--b1',
    'Content-Type: text/html; charset=utf-8',
    '',
    '<p>Your verification code is <b>482913</b>.</p><p><a href="https://coinex-fake.test/account/verify?token=abc123">Verify</a> <a href="https://coinex-fake.test/help">Help</a></p>',
    '--b1--',
    '',
  ].join('\r\n');
}

describe('persona mail: the inbound SMTP receiver, evidence and the workflow signal', function () {
  this.timeout(120_000);
  const queue = `mail-${randomUUID().slice(0, 8)}`;
  const env = { SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_SSI__PERSONA_EMAIL_DOMAIN: DOMAIN, SVC_SSI__MAIL_MAX_KB: '64' };
  let api: Awaited<ReturnType<typeof startTestApi>>;
  let transport: ReturnType<typeof nodemailer.createTransport>;
  let analyst: Record<string, string>;
  let researcher: Record<string, string>;
  let receiverPort: number;

  before(async () => {
    api = await startTestApi(env);
    const receiver = await startTestMailReceiver(env);
    receiverPort = receiver.port;
    await startFunnelProbeWorker(queue, env);
    transport = nodemailer.createTransport({ host: '127.0.0.1', port: receiver.port, secure: false, ignoreTLS: true });
    const users = await usersForEveryRole();
    analyst = asUser(users.analyst);
    researcher = asUser(users.researcher);
  });
  after(() => transport?.close());

  async function newScan(): Promise<{ scanId: string; mailbox: string }> {
    const scanId = randomUUID();
    await insertInvestigation(testKnex(), { scanId, url: 'https://coinex-fake.test/', domain: 'coinex-fake.test', requestedBy: 'mail-test', playbookId: null, caseId: null, label: null, options: {} });
    const mailbox = `p.${randomUUID().slice(0, 8)}@${DOMAIN}`;
    await registerPersonaMailbox(testKnex(), { address: mailbox, scanId });
    return { scanId, mailbox };
  }

  const send = (to: string[], raw: string) => transport.sendMail({ envelope: { from: 'no-reply@coinex-fake.test', to }, raw });

  it('stores a verification mail as evidence, reads its code and link, and signals the waiting workflow', async () => {
    const { scanId, mailbox } = await newScan();
    const handle = await (await testTemporal()).workflow.start(mailProbeWorkflow, { workflowId: investigationTaskId(scanId), taskQueue: queue, args: [] });
    // Mailboxes are matched without regard to case.
    const upper = mailbox.replace(/^[^@]+/, (local) => local.toUpperCase());
    const raw = verificationMail(upper, `${randomUUID()}@coinex-fake.test`);
    const info = await send([upper], raw);
    assert.deepEqual(info.accepted, [upper]);

    const signal = await handle.result();
    assert.deepEqual(signal.codes, ['482913']);
    assert.deepEqual(signal.links, ['https://coinex-fake.test/account/verify?token=abc123']);
    const row = await testKnex()('persona_mail').where({ id: signal.mailId }).first();
    assert.equal(row.scan_id, scanId);
    assert.equal(row.recipient, mailbox);
    assert.equal(row.subject, 'Verify your e-mail');
    assert.equal(row.from, '"CoinEx Support" <no-reply@coinex-fake.test>');
    assert.equal(row.signalled, true);
    assert.equal(row.sha256, sha(raw), 'the raw message is stored byte for byte');

    // The detail lists it without a body; analysts download the .eml (custody and audit first).
    const detail = await http(`${api.url}/investigations/ssi/${scanId}`, { headers: analyst });
    assert.equal(detail.status, 200, detail.text);
    assert.deepEqual(detail.body.mail, [{
      id: signal.mailId, from: row.from, subject: row.subject, received_at: row.received_at.toISOString(), sha256: sha(raw),
      download_path: `/investigations/ssi/${scanId}/mail/${signal.mailId}`,
    }]);
    const file = await fetch(`${api.url}/investigations/ssi/${scanId}/mail/${signal.mailId}?purpose=case%20file`, { headers: analyst });
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'message/rfc822');
    assert.equal(file.headers.get('x-content-sha256'), sha(raw));
    assert.match(file.headers.get('content-disposition') ?? '', new RegExp(`ssi-${scanId}-mail-1\\.eml`));
    assert.equal(Buffer.from(await file.arrayBuffer()).toString('utf8'), raw);
    const custody = await testKnex()('evidence_custody').where({ subject_kind: 'investigation', subject_id: scanId, action: 'download' });
    assert.equal(custody.length, 1);
    assert.equal(custody[0].artifact, 'mail 1');
    assert.equal(custody[0].purpose, 'case file');
    assert.equal(custody[0].verified, true);
    assert.deepEqual(custody[0].hashes, { 'mail/mail-0001.eml': `sha256:${sha(raw)}` });
    const audit = await testKnex()('audit_events').where({ target_id: scanId, action: 'evidence.download' });
    assert.equal(audit.length, 1);
    assert.equal(audit[0].details.mail_id, signal.mailId);

    assert.equal((await http(`${api.url}/investigations/ssi/${scanId}/mail/${signal.mailId}`, { headers: researcher })).status, 403);
    const service = { 'x-api-key': await createTestApiKey(['investigations:read', 'investigations:write']) };
    assert.equal((await http(`${api.url}/investigations/ssi/${scanId}/mail/${signal.mailId}`, { headers: service })).status, 403);
    assert.equal((await http(`${api.url}/investigations/ssi/${scanId}/mail/${randomUUID()}`, { headers: analyst })).status, 404);
  });

  it('stores a mail delivered twice (same Message-ID) once', async () => {
    const { scanId, mailbox } = await newScan();
    const raw = verificationMail(mailbox, `${randomUUID()}@coinex-fake.test`);
    await send([mailbox], raw);
    await send([mailbox], raw);
    const rows = await testKnex()('persona_mail').where({ scan_id: scanId });
    assert.equal(rows.length, 1);
  });

  it('keeps the mail of an investigation whose workflow has gone, unsignalled', async () => {
    const { scanId, mailbox } = await newScan();
    const info = await send([mailbox], verificationMail(mailbox, `${randomUUID()}@coinex-fake.test`));
    assert.deepEqual(info.accepted, [mailbox]);
    const row = await testKnex()('persona_mail').where({ scan_id: scanId }).first();
    assert.equal(row.signalled, false);
    assert.deepEqual(row.codes, ['482913']);
  });

  it('refuses recipients that are no persona mailbox with 550, and accepts the others of the same message', async () => {
    const { scanId, mailbox } = await newScan();
    const stranger = `nobody-${randomUUID().slice(0, 6)}@${DOMAIN}`;
    await assert.rejects(send([stranger], verificationMail(stranger, `${randomUUID()}@x.test`)), (err: { responseCode?: number }) => err.responseCode === 550);
    await assert.rejects(send([`someone@other.test`], verificationMail('someone@other.test', `${randomUUID()}@x.test`)), (err: { responseCode?: number }) => err.responseCode === 550);
    const mixed = await send([stranger, mailbox], verificationMail(mailbox, `${randomUUID()}@x.test`));
    assert.deepEqual(mixed.accepted, [mailbox]);
    assert.deepEqual(mixed.rejected, [stranger]);
    assert.equal((await testKnex()('persona_mail').where({ scan_id: scanId })).length, 1);
  });

  it('refuses a message over SVC_SSI__MAIL_MAX_KB with 552 and stores nothing', async () => {
    const { scanId, mailbox } = await newScan();
    const big = verificationMail(mailbox, `${randomUUID()}@x.test`, `${'x'.repeat(76)}\r\n`.repeat(1200));
    await assert.rejects(send([mailbox], big), (err: { responseCode?: number }) => err.responseCode === 552);
    assert.equal((await testKnex()('persona_mail').where({ scan_id: scanId })).length, 0);
  });

  it('is off when SVC_SSI__MAIL_BIND is empty, and a set address that cannot be bound stops start-up naming the setting', async () => {
    assert.equal(await startPersonaMailReceiver(api.deps, ''), null);
    await assert.rejects(startPersonaMailReceiver(api.deps, `127.0.0.1:${receiverPort}`), /cannot listen on 127\.0\.0\.1:\d+ \(SVC_SSI__MAIL_BIND\)/);
  });

  it('puts the mail into the evidence bundle under mail/, byte for byte and in the signed manifest', async () => {
    const { scanId, mailbox } = await newScan();
    const raw = verificationMail(mailbox, `${randomUUID()}@coinex-fake.test`);
    await send([mailbox], raw);
    const art = await api.deps.blobs.put(Buffer.from('<html>mail bundle</html>'));
    const har = await api.deps.blobs.put(Buffer.from(JSON.stringify({ log: { version: '1.2', entries: [] } })));
    await insertPage(testKnex(), {
      scanId, url: 'https://coinex-fake.test/', seq: 0, state: 'CAPTURE', title: 'fake', httpStatus: 200, serverIp: '192.0.2.50', tls: null, responseHeaders: {},
      screenshot: art, dom: art, har, capturedAt: new Date(),
    });
    await setInvestigationState(testKnex(), scanId, { state: 'COMPLETE', status: 'completed' });
    const res = await fetch(`${api.url}/investigations/ssi/${scanId}/evidence-bundle?purpose=mail%20test`, { headers: analyst });
    assert.equal(res.status, 200);
    const zip = Buffer.from(await res.arrayBuffer());
    const files = new Map<string, Buffer>();
    for (const f of (await unzipper.Open.buffer(zip)).files) if (f.type === 'File') files.set(f.path, await f.buffer());
    assert.equal(files.get('mail/mail-0001.eml')?.toString('utf8'), raw);
    const manifest = JSON.parse(files.get('datapackage.json')!.toString('utf8')) as { resources: Array<{ path: string; hash: string }> };
    assert.equal(manifest.resources.find((r) => r.path === 'mail/mail-0001.eml')?.hash, `sha256:${sha(raw)}`);
    await waitFor('custody of the bundle', async () => (await testKnex()('evidence_custody').where({ subject_id: scanId, action: 'download', artifact: 'evidence-bundle' })).length === 1, 10_000);
  });
});
