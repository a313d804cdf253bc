// The vault: envelope encryption (AES-256-GCM per record, data key wrapped by a master key), the
// keyring created on first use with mode 0600, and `fip vault rotate` re-wrapping every data key
// while a running API keeps decrypting and sealing.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configuredKeySource, createVault, keyringPath, keyringSource, masterKeyId } from '../../infra/vault';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { intakeForm } from '../support/intake-fixtures';
import { startTestApi, testConfig, testKnex, testTemporal } from '../support/platform';
import { runCli } from '../support/run-cli';

describe('the vault', function () {
  this.timeout(120_000);

  it('creates its keyring on first use with mode 0600 and seals records that open only with their context', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-vault-'));
    const vault = createVault(keyringSource(dir));
    const file = keyringPath(dir);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const secret = Buffer.from('{"contact_email":"hidden@example.net"}');
    const sealed = vault.seal(secret, 'intake:1');
    assert.equal(sealed.key_id, vault.activeKeyId());
    assert.ok(!sealed.ciphertext.includes(Buffer.from('hidden@example.net')));
    assert.deepEqual(vault.open(sealed, 'intake:1'), secret);
    assert.throws(() => vault.open(sealed, 'intake:2'), 'another record\'s context does not open it');
    const tampered = { ...sealed, ciphertext: Buffer.from(sealed.ciphertext) };
    tampered.ciphertext[tampered.ciphertext.length - 1] ^= 1;
    assert.throws(() => vault.open(tampered, 'intake:1'), 'a modified ciphertext fails authentication');
    // A second vault on the same directory reads the same keyring.
    assert.deepEqual(createVault(keyringSource(dir)).open(sealed, 'intake:1'), secret);
  });

  it('with configured master keys, re-wraps under the new key and still opens records of the previous one', () => {
    const oldKey = randomBytes(32).toString('base64');
    const newKey = randomBytes(32).toString('base64');
    const before = createVault(configuredKeySource(oldKey, []));
    const sealed = before.seal(Buffer.from('x'), 'c');
    const after = createVault(configuredKeySource(newKey, [oldKey]));
    assert.deepEqual(after.open(sealed, 'c'), Buffer.from('x'));
    const rewrapped = after.rewrap(sealed);
    assert.equal(rewrapped.key_id, masterKeyId(Buffer.from(newKey, 'base64')));
    assert.deepEqual(rewrapped.ciphertext, sealed.ciphertext, 'only the data key is re-wrapped');
    assert.deepEqual(createVault(configuredKeySource(newKey, [])).open(rewrapped, 'c'), Buffer.from('x'));
    assert.throws(() => createVault(configuredKeySource(newKey, [])).open(sealed, 'c'), /no master key/);
  });

  it('fip vault rotate re-wraps every data key while a running API keeps decrypting and sealing with the new key', async () => {
    const queue = `vault-idle-${randomUUID().slice(0, 8)}`;
    const api = await startTestApi({ SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true' });
    const users = await usersForEveryRole();
    const analyst = asUser(users.analyst);
    const contact = { reporter_name: 'Rotating Reporter', contact_email: `rot-${randomUUID().slice(0, 6)}@example.net` };
    const first = await http(`${api.url}/intakes`, { method: 'POST', headers: analyst, body: intakeForm({ summary: 'before rotation', ...contact }) });
    assert.equal(first.status, 201, first.text);
    const row = async (id: string) => testKnex()('vault_secrets').where({ owner_kind: 'intake', owner_id: id }).first();
    const before = await row(first.body.id);

    const rotated = await runCli(['vault', 'rotate']);
    assert.equal(rotated.code, 0, rotated.stderr);
    const report = JSON.parse(rotated.stdout);
    assert.equal(report.new_key, true);
    assert.notEqual(report.active_key_id, before.key_id);
    assert.ok(report.rewrapped >= 1);
    assert.deepEqual(report.by_key.map((k: { key_id: string }) => k.key_id), [report.active_key_id], 'every record is wrapped by the new key');
    const after = await row(first.body.id);
    assert.equal(after.key_id, report.active_key_id);
    assert.notDeepEqual(after.wrapped_key, before.wrapped_key);
    assert.deepEqual(after.ciphertext, before.ciphertext);
    assert.equal(fs.statSync(keyringPath(testConfig().data_dir)).mode & 0o777, 0o600);

    // The API that started before the rotation decrypts the re-wrapped record and seals new ones with the new key.
    const read = await http(`${api.url}/intakes/${first.body.id}/contact?purpose=rotation%20check`, { headers: analyst });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.contact_email, contact.contact_email);
    const second = await http(`${api.url}/intakes`, { method: 'POST', headers: analyst, body: intakeForm({ summary: 'after rotation', ...contact }) });
    assert.equal((await row(second.body.id)).key_id, report.active_key_id);
    for (const id of [first.body.id, second.body.id]) await (await testTemporal()).workflow.getHandle(`intake-${id}`).terminate('vault test over').catch(() => undefined);
  });
});
