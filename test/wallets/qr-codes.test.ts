// QR codes: PNG, JPEG and WebP images, several codes per image, decoded by
// zxing-wasm after sharp; the payment URIs go through the same scanner, source `qr`. Images are drawn
// here from fresh addresses.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeQrCodes, extractWalletsFromImages } from '../../services/wallets/qr-codes';
import { sniffImageType } from '../../domain/wallets/image-type';
import { qrImage } from '../support/qr-images';
import { makeAddresses } from '../support/wallet-address-factory';
import { runFip } from '../support/wallet-test-io';

const a = makeAddresses(601);
const b = makeAddresses(602);

describe('wallet extraction from QR codes in images (class 6)', function () {
  this.timeout(60000);

  for (const format of ['png', 'jpeg', 'webp'] as const) {
    it(`decodes every QR code of a ${format.toUpperCase()} image and extracts the payment URIs (source qr)`, async () => {
      const img = await qrImage([`bitcoin:${a.btcSegwit}?amount=0.1`, `ethereum:${a.evm}@56?value=1e18`, `ripple:${a.xrp}?dt=777`], format);
      assert.equal(sniffImageType(img), format);
      const r = await extractWalletsFromImages([img]);
      assert.equal(r.qrCodes, 3);
      const by = new Map(r.findings.map((f) => [f.address, f]));
      assert.deepEqual([by.get(a.btcSegwit)?.networkId, by.get(a.btcSegwit)?.source], ['bitcoin', 'qr']);
      assert.deepEqual([by.get(a.evm)?.networkId, by.get(a.evm)?.networkBasis], ['bsc', 'uri']);
      assert.equal(by.get(a.xrp)?.memo, '777');
      assert.equal(r.findings.length, 3);
    });
  }

  it('reports nothing for QR codes that hold no wallet (a link, a transaction hash)', async () => {
    const img = await qrImage(['https://scam.example/deposit?id=42', `0x${'ab12'.repeat(16)}`]);
    assert.equal((await decodeQrCodes(img)).length, 2);
    const r = await extractWalletsFromImages([img]);
    assert.deepEqual(r.findings, []);
  });

  it('fip ssi wallet scan <image> --json prints the wallets of its QR codes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-qr-'));
    const file = path.join(dir, 'deposit.webp');
    fs.writeFileSync(file, await qrImage([`tron:${b.tron}?token=USDT`], 'webp'));
    const r = await runFip(['ssi', 'wallet', 'scan', file, '--json', '--no-llm']);
    assert.equal(r.code, 0, r.stderr);
    const rows = JSON.parse(r.stdout) as Array<{ address: string; source: string; network: string; token: string }>;
    assert.deepEqual(rows.map((x) => [x.address, x.source, x.network, x.token]), [[b.tron, 'qr', 'Tron', 'USDT']]);
    assert.match(r.stderr, /webp image: 1 QR code/);
  });
});
