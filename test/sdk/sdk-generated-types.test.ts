// The SDK's generated types cannot drift from the API: the committed sdk/src/generated/openapi.ts
// must equal what `npm run sdk:generate` writes for the current route table.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../../api/openapi';
import { allRoutes } from '../../api/route-table';
import { firstDifference, generateSdkTypes, GENERATED_TYPES_PATH } from '../../scripts/generate-sdk-types';

describe('SDK generated types', () => {
  it('the committed sdk/src/generated/openapi.ts equals a fresh generation from the route table (else: npm run sdk:generate)', async () => {
    const fresh = await generateSdkTypes();
    const committed = readFileSync(GENERATED_TYPES_PATH, 'utf8');
    const diff = firstDifference(committed, fresh);
    assert.equal(diff, null, `sdk/src/generated/openapi.ts is stale: ${diff}; run npm run sdk:generate and commit the result`);
  });

  it('generation is deterministic: two runs give the same text', async () => {
    assert.equal(await generateSdkTypes(), await generateSdkTypes());
  });

  it('every operationId of the OpenAPI document is unique (openapi-typescript refuses duplicates; /intakes and /intakes/ are two routes)', () => {
    const doc = buildOpenApiDocument(allRoutes()) as { paths: Record<string, Record<string, { operationId: string }>> };
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    const dupes = ids.filter((id, i) => ids.indexOf(id) !== i);
    assert.deepEqual(dupes, []);
  });

  it('a stale file is reported with the first differing line', () => {
    assert.equal(
      firstDifference('a\nb\nc', 'a\nB\nc'),
      'line 2: committed "b", regenerated "B"',
    );
    assert.equal(firstDifference('a', 'a\nb'), 'line 2: committed "<end of file>", regenerated "b"');
  });
});
