// SVC_API_KIND selects the SDK's variant (spec, Authentication 7). The platform's own config
// rejects unknown SVC_ variables, so it must know this one: a process that both runs the platform
// and uses the SDK's platform variant can set it.
import assert from 'node:assert/strict';
import { loadConfig } from '../../config/config';

describe('SVC_API_KIND in the platform configuration', () => {
  it('accepts SVC_API_KIND=core and =default (not an unknown setting)', () => {
    assert.equal(loadConfig({ SVC_API_KIND: 'core' }).api_kind, 'core');
    assert.equal(loadConfig({ SVC_API_KIND: 'default' }).api_kind, 'default');
    assert.equal(loadConfig({}).api_kind, undefined);
  });

  it('rejects another value, naming the variable', () => {
    assert.throws(() => loadConfig({ SVC_API_KIND: 'snake' }), /SVC_API_KIND/);
  });
});
