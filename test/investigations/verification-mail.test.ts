// The pure reading of verification mails: codes near a word for "code" in the funnel's languages,
// verification links (same site first), and which recipients are persona mailboxes.
import assert from 'node:assert/strict';
import { anchorHrefs, extractVerificationCodes, extractVerificationLinks, personaMailbox, siteOf } from '../../domain/investigations/verification-mail';

describe('verification mail (domain)', () => {
  const cases: Array<[string, string, string[]]> = [
    ['English', 'Your verification code is 482913. It expires in 10 minutes.', ['482913']],
    ['English, code before the word', '482913 is your one-time code', ['482913']],
    ['Chinese', '您的验证码：736401，5分钟内有效。', ['736401']],
    ['Chinese without punctuation', '验证码736401请勿泄露', ['736401']],
    ['Vietnamese', 'Mã xác minh của bạn là 5521', ['5521']],
    ['Spanish', 'Tu código de verificación es: 90817263', ['90817263']],
    ['Portuguese', 'Seu código é 3141', ['3141']],
    ['Russian', 'Ваш код подтверждения: 662211', ['662211']],
    ['Thai', 'รหัส OTP ของคุณคือ 884422', ['884422']],
    ['Indonesian', 'Kode verifikasi Anda adalah 1029', ['1029']],
    ['Turkish', 'Doğrulama kodunuz: 7788', ['7788']],
    ['Arabic', 'رمز التحقق الخاص بك هو 445566', ['445566']],
    ['alphanumeric', 'Use code A7K9Q2 to activate your account', ['A7K9Q2']],
  ];
  for (const [language, text, expected] of cases) {
    it(`finds the code in a ${language} mail`, () => {
      assert.deepEqual(extractVerificationCodes(text), expected);
    });
  }

  it('finds no code where no word for "code" stands near digits, nor in URLs, addresses or plain words', () => {
    assert.deepEqual(extractVerificationCodes('Welcome! Your order 20251234 ships soon.'), []);
    assert.deepEqual(extractVerificationCodes('Your code: https://x.example/verify/99887766 from support4@x.example'), []);
    assert.deepEqual(extractVerificationCodes('Enter the code shown below'), []);
  });

  it('reads the subject too and lists digit codes before mixed ones, without duplicates', () => {
    assert.deepEqual(extractVerificationCodes('Code 1234', 'Your code is AB12CD or 1234'), ['1234', 'AB12CD']);
  });

  it('keeps verification links, same site first, and drops others and unsubscribe links', () => {
    const links = extractVerificationLinks({
      text: 'Confirm: https://tracker.example.net/click?token=abc. Home https://coinex-fake.example.com/ bye https://coinex-fake.example.com/unsubscribe?token=1',
      hrefs: ['https://www.coinex-fake.example.com/activate?u=1&t=2', 'mailto:x@y.z', 'javascript:alert(1)'],
      sites: ['coinex-fake.example.com'],
    });
    assert.deepEqual(links, ['https://www.coinex-fake.example.com/activate?u=1&t=2', 'https://tracker.example.net/click?token=abc']);
  });

  it('reads anchors of an HTML body with entities decoded', () => {
    assert.deepEqual(anchorHrefs('<p><a class="b" href="https://a.example/verify?x=1&amp;y=2">go</a> <a href=\'/rel\'>r</a></p>'), ['https://a.example/verify?x=1&y=2', '/rel']);
  });

  it('knows sites and persona mailboxes', () => {
    assert.equal(siteOf('www.shop.example.co.uk'), 'example.co.uk');
    assert.equal(siteOf('a.b.example.com'), 'example.com');
    assert.equal(personaMailbox(' Alice.Smith@Personas.Example ', 'personas.example'), 'alice.smith@personas.example');
    assert.equal(personaMailbox('alice@other.example', 'personas.example'), null);
    assert.equal(personaMailbox('@personas.example', 'personas.example'), null);
  });
});
