// Pure rules of intake: the status machine, file names, text sniffing, entity finding.
import assert from 'node:assert/strict';
import { findEntities } from '../../domain/intakes/find-entities';
import { sanitizeFilename, sniffTextType } from '../../domain/intakes/intake-files';
import { INTAKE_STATUSES, allowedUserMoves, canSystemMove, canUserMove } from '../../domain/intakes/intake-status';

describe('intake rules', () => {
  it('status machine: people move processed intakes on, never into processing states; closed is final', () => {
    assert.deepEqual(allowedUserMoves('received'), ['rejected', 'closed']);
    assert.deepEqual(allowedUserMoves('processed'), ['triaged', 'linked', 'rejected', 'closed']);
    assert.deepEqual(allowedUserMoves('closed'), []);
    for (const s of INTAKE_STATUSES) {
      assert.equal(canUserMove(s, 'processing'), false);
      assert.equal(canUserMove(s, 'processed'), false);
    }
    assert.equal(canSystemMove('received', 'processing'), true);
    assert.equal(canSystemMove('failed', 'processing'), true);
    assert.equal(canSystemMove('closed', 'processing'), false);
  });

  it('sanitizes file names: last path segment, no control or shell characters, no leading dots, bounded length', () => {
    assert.equal(sanitizeFilename('../../etc/passwd'), 'passwd');
    assert.equal(sanitizeFilename('C:\\Users\\me\\shot.png'), 'shot.png');
    assert.equal(sanitizeFilename('.hidden'), 'hidden');
    assert.equal(sanitizeFilename('a\u0000b;$(rm).txt'), 'a_b__(rm).txt');
    assert.equal(sanitizeFilename(''), 'file');
    const long = sanitizeFilename(`${'x'.repeat(500)}.pdf`);
    assert.equal(long.length, 200);
    assert.ok(long.endsWith('.pdf'));
  });

  it('names text content: e-mail message, HTML, plain text', () => {
    assert.equal(sniffTextType('From: a@example.com\nSubject: hi\n\nbody'), 'message/rfc822');
    assert.equal(sniffTextType('<!DOCTYPE html><html><body>x</body></html>'), 'text/html');
    assert.equal(sniffTextType('From the start, they lied.'), 'text/plain');
  });

  it('finds wallets, e-mails, phones, IBANs, URLs with their domains and social handles, and no false domains', () => {
    const { entities, links } = findEntities(
      'Telegram @fast_gains_bot said pay 0.1 BTC to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq, IBAN DE89 3704 0044 0532 0130 00, ' +
        'mail help@fast-gains.example.com, call +1 415 555 2671, site https://fast-gains.example.com/pay. See file.txt, e.g. nothing.',
      'details',
    );
    const got = entities.map((e) => `${e.type}:${e.value}`).sort();
    assert.deepEqual(got, [
      'bank_account:DE89370400440532013000',
      'domain:fast-gains.example.com',
      'email:help@fast-gains.example.com',
      'phone:+14155552671',
      'social_handle:telegram:fast_gains_bot',
      'url:https://fast-gains.example.com/pay',
      'wallet:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    ]);
    assert.deepEqual(links, [{ src: { type: 'domain', value: 'fast-gains.example.com' }, dst: { type: 'url', value: 'https://fast-gains.example.com/pay' }, kind: 'hosts' }]);
    assert.ok(entities.every((e) => e.context.where === 'details'));
  });
});
