// Addresses hidden by transport encodings: percent-encoded link parameters (QR
// services, wallet deep links, also encoded twice), quoted-printable e-mail bodies (soft line
// breaks, =3D) and string pieces joined in scripts. Decoded before detection; the source says how.
import assert from 'node:assert/strict';
import { extractWallets } from '../../domain/wallets/extract-wallets';
import type { ExtractionResult, WalletFinding } from '../../domain/wallets/wallet-types';
import { makeAddresses } from '../support/wallet-address-factory';

const a = makeAddresses(501);
const b = makeAddresses(502);
const enc = encodeURIComponent;

function only(r: ExtractionResult, address: string): WalletFinding {
  const rows = r.findings.filter((f) => f.address === address);
  assert.equal(rows.length, 1, `${address}: ${rows.length} rows in ${JSON.stringify(r.findings.map((f) => f.address))}`);
  return rows[0];
}

/** Quoted-printable body as mail clients write it: `=` encoded as =3D, lines broken at 72 with a soft break. */
function quotedPrintable(s: string): string {
  const lines: string[] = [];
  let line = '';
  for (const ch of s.replace(/=/g, '=3D')) {
    if (line.length >= 72) {
      lines.push(`${line}=`);
      line = '';
    }
    line += ch;
  }
  return [...lines, line].join('\r\n');
}

describe('wallet extraction through transport encodings (class 5)', () => {
  it('decodes percent-encoded link parameters: QR-code services and deep links (source url-param)', () => {
    const html = `<p>Scan to pay</p>
      <img src="https://api.qrserver.com/v1/create-qr-code/?size=200x200&data=${enc(`${a.bch}?amount=0.5`)}">
      <img src="https://chart.example/qr?chl=${enc(`ethereum:${a.evm}@56?value=1e18`)}">
      <a href="https://wallet.example/send?uri=${enc(enc(`bitcoin:${a.btcSegwit}`))}">open wallet</a>`;
    const r = extractWallets({ html });
    const bch = only(r, a.bch);
    assert.deepEqual([bch.networkId, bch.source], ['bitcoin-cash', 'url-param']);
    const evm = only(r, a.evm);
    assert.deepEqual([evm.networkId, evm.networkBasis, evm.source], ['bsc', 'uri', 'url-param']);
    assert.equal(only(r, a.btcSegwit).source, 'url-param');
  });

  it('joins quoted-printable soft line breaks in e-mails (source eml-qp)', () => {
    // Pad the greeting until the soft breaks fall inside both addresses.
    let mail = '';
    for (let pad = 0; pad < 200 && (!mail || mail.includes(a.tron) || mail.includes(b.evm)); pad++) {
      const body = `<p>Dear ${'customer '.repeat(pad % 7)}${'x'.repeat(Math.floor(pad / 7))}, to release your funds please send the USDT (TRC20) fee to our deposit wallet ${a.tron} and the ETH gas fee to <a href="ethereum:${b.evm}">this ERC20 wallet</a> today.</p>`;
      mail = `From: support@exchange.example\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${quotedPrintable(body)}`;
    }
    assert.ok(!mail.includes(a.tron) && !mail.includes(b.evm), 'the generated mail splits both addresses');
    const r = extractWallets({ text: mail });
    const tron = only(r, a.tron);
    assert.equal(tron.token, 'USDT');
    assert.equal(tron.source, 'eml-qp');
    assert.equal(only(r, b.evm).source, 'eml-qp');
  });

  it('finds an address split by a soft break right inside it', () => {
    const mail = `Content-Transfer-Encoding: quoted-printable\n\nDeposit BTC to ${a.btcSegwit.slice(0, 17)}=\n${a.btcSegwit.slice(17)} before Friday.`;
    const f = only(extractWallets({ text: mail }), a.btcSegwit);
    assert.equal(f.source, 'eml-qp');
  });

  it('joins string literals concatenated in scripts (source script-concat)', () => {
    const html = `<script>var w = "bc1q" + "${a.btcSegwit.slice(4, 20)}" + '${a.btcSegwit.slice(20)}';
      var t='${a.tron.slice(0, 10)}'+'${a.tron.slice(10)}'; el.textContent = "USDT TRC20: " + t;</script>`;
    const r = extractWallets({ html });
    assert.equal(only(r, a.btcSegwit).source, 'script-concat');
    const tron = only(r, a.tron);
    assert.deepEqual([tron.source, tron.token], ['script-concat', 'USDT']);
  });

  it('does not join unrelated literals into false addresses', () => {
    const html = `<script>var s = "${'x'.repeat(10)}" + "abc" + "${b.tron.slice(0, 20)}"; var css = "px" + "em";</script>`;
    const r = extractWallets({ html });
    assert.deepEqual(r.findings, []);
  });
});
