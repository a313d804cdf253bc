import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createActivityResources } from '../../activities';
import { testConfig } from '../support/platform';
import { promisedAllowlistPairs } from '../support/doc-promises';

describe('worker start-up resources', () => {
  it('loads the shipped wallet allowlist (all 68 pairs) into the worker resources, and refuses to start on an invalid one naming the entry', async () => {
    const ok = createActivityResources(testConfig());
    assert.equal(ok.walletAllowlist.pairs.length, promisedAllowlistPairs());
    await ok.close();
    const bad = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fip-allowlist-')), 'allowlist.json');
    fs.writeFileSync(bad, JSON.stringify({ version: 1, pairs: [{ token: 'BTC', network: 'bitcoin' }, { token: 'USDT' }] }));
    assert.throws(() => createActivityResources(testConfig({ SVC_SSI__ALLOWLIST_PATH: bad })), /pairs\[1\]/);
  });

  it('locates Chromium without launching it, and starts even when the configured path cannot work (PDF reports then fail)', async () => {
    const bad = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fip-chromium-')), 'chromium');
    const resources = createActivityResources(testConfig({ SVC_CHROMIUM__PATH: bad }));
    try {
      assert.deepEqual(resources.chromium, { source: 'configured', executablePath: bad, problem: 'does not exist' });
    } finally {
      await resources.close();
    }
  });
});
