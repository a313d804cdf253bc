// The pure classifier (domain/classification/): vocabulary in several languages, page structure,
// wallet and kit history, the LLM answer's validation and the accuracy arithmetic.
import assert from 'node:assert/strict';
import { isTaxonomyPath } from '../../domain/analytics/scam-taxonomy';
import { CLASSIFICATION_VOCABULARY } from '../../domain/classification/classification-vocabulary';
import { pageSignals } from '../../domain/classification/page-signals';
import { classify, combineWithLlm, correctionAccuracy, validLlmAnswer } from '../../domain/classification/scam-classification';
import { VOCABULARY_LANGUAGES } from '../../domain/investigations/funnel-vocabulary';

const NONE = { depositPage: false, coinTabs: [], loginForm: false, registrationForm: false, countdown: false, cart: false };

describe('scam classification (domain)', () => {
  it('names only taxonomy nodes and only the funnel agent\'s languages, every node in all of them', () => {
    for (const v of CLASSIFICATION_VOCABULARY) {
      assert.ok(isTaxonomyPath(v.path), v.path);
      assert.deepEqual(Object.keys(v.phrases).sort(), [...VOCABULARY_LANGUAGES].sort(), v.path);
    }
  });

  const pages: Array<[string, string, string]> = [
    ['zh', '欢迎来到全球领先的交易所。币币交易、合约交易，充币即刻到账，支持提币到任意钱包。', 'investment/crypto/fake-exchange'],
    ['vi', 'Sàn giao dịch uy tín nhất. Nạp tiền nhanh, rút tiền trong 5 phút, đòn bẩy 100x.', 'investment/crypto/fake-exchange'],
    ['es', 'Recuperación de fondos: le ayudamos a recuperar su dinero. Miles de víctimas de estafa ya lo lograron.', 'advance-fee/recovery'],
    ['ru', 'Облачный майнинг с ежедневными выплатами. Майнинг пул нового поколения, награды за стейкинг до 3%.', 'investment/crypto/mining-pool'],
    ['pt', 'Adicionar ao carrinho — frete grátis em todos os pedidos! Liquidação total, comprar agora.', 'shopping/fake-store'],
    ['tr', 'Hesabınızı doğrulayın: olağandışı etkinlik tespit edildi, hesap askıya alındı.', 'phishing/credential'],
    ['ar', 'لقد فزت! اطلب جائزتك الآن في السحب الكبير. هدية مجانية لكل مشارك.', 'advance-fee/lottery'],
    ['th', 'ทำภารกิจ ง่ายๆ รับค่าคอมมิชชั่น ทุกวัน งานออนไลน์ทำที่บ้าน', 'employment/task-scam'],
    ['id', 'Kencan online: temukan belahan jiwa anda. Cari jodoh sekarang, sayangku menunggu.', 'romance'],
  ];
  for (const [lang, text, expected] of pages) {
    it(`places a ${lang} page under ${expected}, citing its words`, () => {
      const c = classify({ texts: [text], structure: NONE });
      assert.equal(c.taxonomy, expected);
      assert.ok(c.confidence > 0 && c.confidence < 1, String(c.confidence));
      const vocab = c.evidence.find((e) => e.feature === 'vocabulary');
      assert.ok(vocab?.detail.includes(`(${lang})`), JSON.stringify(c.evidence));
    });
  }

  it('leaves a benign page unclassified with no confidence', () => {
    const c = classify({ texts: ['Welcome to the municipal library. Opening hours and events for children.'], structure: NONE });
    assert.deepEqual([c.taxonomy, c.confidence, c.evidence.length], ['unclassified', 0, 0]);
  });

  it('reads the structure of an exchange page: coin tabs, a deposit address, a registration form', () => {
    const html = `<html><body><form><input type="email"><input type="password"><input type="password"></form>
      <ul><li role="tab">BTC</li><li role="tab">ETH</li><li role="tab">USDT-TRC20</li></ul>
      <div class="countdown">00:14:59</div>
      <p>Deposit to this address: 0x52908400098527886E0F7030069857D2E4169EE7</p><script>var deposit = 1;</script></body></html>`;
    const s = pageSignals(html);
    assert.deepEqual(s.coinTabs, ['BTC', 'ETH', 'USDT']);
    assert.deepEqual([s.depositPage, s.registrationForm, s.loginForm, s.countdown, s.cart], [true, true, false, true, false]);
    assert.ok(!s.text.includes('var deposit'));
    const c = classify({ texts: [s.text], structure: s });
    assert.equal(c.taxonomy, 'investment/crypto/fake-exchange');
    assert.ok(c.evidence.some((e) => e.feature === 'structure' && e.detail === 'coin tabs: BTC, ETH, USDT'));
  });

  it('follows the wallets\' and the kit\'s history when the page says nothing', () => {
    const c = classify({
      texts: ['Welcome'], structure: NONE,
      walletHistory: [{ wallet: 'TXYZ', taxonomy: 'investment/crypto/pig-butchering', where: 'case 1' }],
      kitHistory: [{ scanId: 's-1', score: 0.8, taxonomy: 'investment/crypto/pig-butchering' }, { scanId: 's-2', score: 0.4, taxonomy: 'romance' }],
    });
    assert.equal(c.taxonomy, 'investment/crypto/pig-butchering');
    assert.deepEqual(c.evidence.map((e) => e.feature), ['kit_history', 'wallet_history']);
    assert.equal(c.evidence[0]!.weight, 0.48);
  });

  it('keeps an LLM answer only when it is a taxonomy path with a confidence in 0..1, and lets it win only when surer', () => {
    assert.equal(validLlmAnswer({ taxonomy: 'crypto-things', confidence: 0.9 }), null);
    assert.equal(validLlmAnswer({ taxonomy: 'romance', confidence: 1.5 }), null);
    assert.equal(validLlmAnswer('romance'), null);
    const rules = classify({ texts: ['Sàn giao dịch, nạp tiền'], structure: NONE });
    const llm = validLlmAnswer({ taxonomy: 'romance', confidence: 0.95, reason: 'dating' })!;
    assert.deepEqual([combineWithLlm(rules, llm).taxonomy, combineWithLlm(rules, llm).source], ['romance', 'llm']);
    const weak = combineWithLlm(rules, { ...llm, confidence: 0.01 });
    assert.deepEqual([weak.taxonomy, weak.source, weak.evidence.at(-1)!.feature], [rules.taxonomy, 'rules', 'llm']);
  });

  it('measures accuracy as the share of corrections whose automatic prediction matched', () => {
    assert.deepEqual(correctionAccuracy([]), { accuracy: null, n: 0 });
    assert.deepEqual(correctionAccuracy([{ taxonomy: 'romance', corrected_from: 'romance' }, { taxonomy: 'romance', corrected_from: 'phishing' }, { taxonomy: 'phishing', corrected_from: 'phishing' }]), { accuracy: 0.667, n: 3 });
  });
});
