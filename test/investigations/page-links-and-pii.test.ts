// Pure parts of the agent: which links it follows next, and the PII it records from a page.
import assert from 'node:assert/strict';
import { looksLikeCoinTab, nextPages, pageKey } from '../../domain/investigations/page-links';
import { extractPagePii } from '../../domain/investigations/page-pii';

describe('investigation page links', () => {
  it('keeps client-side routes (#/..., #!/...) and drops plain fragments and non-http schemes', () => {
    assert.equal(pageKey('/spa#/wallet', 'https://a.scam.test/x'), 'https://a.scam.test/spa#/wallet');
    assert.equal(pageKey('/faq#top', 'https://a.scam.test/x'), 'https://a.scam.test/faq');
    assert.equal(pageKey('mailto:x@y.z', 'https://a.scam.test/'), null);
    assert.equal(pageKey('javascript:void(0)', 'https://a.scam.test/'), null);
  });

  it('follows the same registrable domain only, payment-looking pages first, each once', () => {
    const next = nextPages('https://www.scam.test/', [
      { href: 'https://www.scam.test/about', text: 'About' },
      { href: 'https://other.test/deposit', text: 'Deposit' },
      { href: 'https://pay.scam.test/recharge', text: 'Top up' },
      { href: 'https://www.scam.test/about#team', text: 'Team' },
      { href: 'https://www.scam.test/account', text: 'Withdraw funds' },
      { href: 'https://www.scam.test/', text: 'Home' },
    ], new Set(['https://www.scam.test/']));
    assert.deepEqual(next, ['https://pay.scam.test/recharge', 'https://www.scam.test/account', 'https://www.scam.test/about']);
  });

  it('recognizes coin tab labels, not sentences', () => {
    for (const label of ['BTC', 'USDT (TRC20)', 'ETH', 'Tron', 'ERC20']) assert.ok(looksLikeCoinTab(label), label);
    for (const text of ['Buy now', 'Our BTC fund returns 40% every month for every investor', '']) assert.ok(!looksLikeCoinTab(text), text);
  });
});

describe('investigation page PII', () => {
  it('finds e-mail addresses, phone numbers (E.164), Telegram and WhatsApp handles in text and links', () => {
    const pii = extractPagePii('Write to Support@Fast-Profit.io or call +44 20 7183 8750. Amount 1234567890 USDT', [
      'https://t.me/FastProfit_Help', 'https://wa.me/15551234567', 'tel:+33 1 42 68 53 00',
    ]);
    const got = pii.map((p) => `${p.kind}:${p.value}`).sort();
    assert.deepEqual(got, ['email:support@fast-profit.io', 'phone:+33142685300', 'phone:+442071838750', 'telegram:@fastprofit_help', 'whatsapp:+15551234567']);
  });
});
