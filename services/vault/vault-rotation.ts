// Vault use cases, used by the CLI (`fip vault ...`):
// - rotateVault: make a new master key the active one and re-wrap every data key with it
// - vaultStatus: the active master key id and how many records each master key wraps
// Rotation needs no downtime: records are re-wrapped one by one (compare-and-set on the old key id),
// the old master keys stay readable, and running processes pick up a rotated keyring on their next read.
import { countSecretsByKey, listSecretsNotWrappedBy, updateWrappedKey } from '../../db/repositories/vault/vault-secret-repository';
import { createVault, masterKeySourceFor, VaultKeyMissingError } from '../../infra/vault';
import type { ServiceDeps } from '../service-deps';

export interface RotationReport {
  active_key_id: string;
  /** True when a new key was generated (keyring); false when the configured key is the target. */
  new_key: boolean;
  rewrapped: number;
  /** Records whose master key is unknown here (not in the keyring or configuration). */
  unreadable: Array<{ id: string; key_id: string }>;
  by_key: Array<{ key_id: string; count: number }>;
}

export async function rotateVault(deps: Pick<ServiceDeps, 'knex' | 'config'>, opts: { batchSize?: number } = {}): Promise<RotationReport> {
  const { knex } = deps;
  const source = masterKeySourceFor(deps.config);
  const newKey = Boolean(source.addKey);
  if (source.addKey) source.addKey();
  const vault = createVault(source);
  const active = vault.activeKeyId();
  let rewrapped = 0;
  const unreadable: RotationReport['unreadable'] = [];
  let after: string | undefined;
  for (;;) {
    const rows = await listSecretsNotWrappedBy(knex, active, opts.batchSize ?? 500, after);
    if (rows.length === 0) break;
    for (const row of rows) {
      try {
        const next = vault.rewrap(row);
        if (await updateWrappedKey(knex, row.id, { key_id: row.key_id }, next)) rewrapped++;
      } catch (err) {
        if (!(err instanceof VaultKeyMissingError)) throw err;
        unreadable.push({ id: row.id, key_id: row.key_id });
      }
    }
    after = rows[rows.length - 1].id;
  }
  return { active_key_id: active, new_key: newKey, rewrapped, unreadable, by_key: await countSecretsByKey(knex) };
}

export async function vaultStatus(deps: Pick<ServiceDeps, 'knex' | 'config'>): Promise<{ active_key_id: string; source: 'configuration' | 'keyring'; by_key: Array<{ key_id: string; count: number }> }> {
  const vault = createVault(masterKeySourceFor(deps.config));
  return { active_key_id: vault.activeKeyId(), source: deps.config.vault.master_key ? 'configuration' : 'keyring', by_key: await countSecretsByKey(deps.knex) };
}
