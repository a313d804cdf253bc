// Registers the platform's search attributes (domain/tasks/task-kinds.ts) in a Temporal namespace:
// `npx fip setup temporal` on a cluster (the embedded dev server registers them at start).
// Idempotent: an attribute that already exists with the right type counts as done.
import type { ConnectionLike } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { PLATFORM_SEARCH_ATTRIBUTES } from '../domain/tasks/task-kinds';

const KEYWORD = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;

export interface SearchAttributeSetup {
  added: string[];
  existing: string[];
}

export async function registerPlatformSearchAttributes(connection: ConnectionLike, namespace: string): Promise<SearchAttributeSetup> {
  const listed = await connection.operatorService.listSearchAttributes({ namespace });
  const known = { ...(listed.systemAttributes ?? {}), ...(listed.customAttributes ?? {}) };
  const existing: string[] = [];
  const missing: string[] = [];
  for (const name of PLATFORM_SEARCH_ATTRIBUTES) {
    if (!(name in known)) missing.push(name);
    else if (known[name] === KEYWORD) existing.push(name);
    else throw new Error(`search attribute ${name} exists in namespace ${namespace} with another type than Keyword; remove or rename it first`);
  }
  if (missing.length) {
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((name) => [name, KEYWORD])),
    });
  }
  return { added: missing, existing };
}
