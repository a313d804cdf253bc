// The SDK's core runs in browsers: bundling sdk/src/index.ts for the browser platform must succeed
// without Node built-ins (only the './node' entry may use them).
import assert from 'node:assert/strict';
import path from 'node:path';
import { build } from 'esbuild';

describe('SDK in browsers', () => {
  const root = path.join(__dirname, '..', '..');

  it('sdk/src/index.ts bundles for the browser platform with no Node built-ins (openapi-fetch included)', async () => {
    const out = await build({
      entryPoints: [path.join(root, 'sdk', 'src', 'index.ts')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
      metafile: true,
    });
    const inputs = Object.keys(out.metafile.inputs);
    assert.ok(inputs.some((i) => i.includes('openapi-fetch')), inputs.join(', '));
    assert.deepEqual(inputs.filter((i) => i.startsWith('node:') || /sdk\/src\/node\.ts$/.test(i)), []);
    assert.ok(out.outputFiles[0].text.includes('createFipClient'));
  });

  it('the Node helpers entry (sdk/src/node.ts) does not bundle for browsers (it needs node:fs): the check above can fail', async () => {
    await assert.rejects(
      build({ entryPoints: [path.join(root, 'sdk', 'src', 'node.ts')], bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent' }),
      /node:fs|node:stream/,
    );
  });
});
