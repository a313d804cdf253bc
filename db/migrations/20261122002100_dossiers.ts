// Dossiers (docs/data-model.md): a signed package assembled from several sources for one purpose.
// `dossiers` holds the plan and the outcome (signed manifest, digest, key id); each collected
// file is a `dossier_artifacts` row pointing at a content-addressed blob, unique per
// (dossier_id, name) so that a retried collection adds nothing. `dossier_acl_grants` holds the
// explicit entries of a dossier's shared-storage access list (grants and revocations by admins);
// the rest of the list is derived from the case team and the LEA referral.
import type { Knex } from 'knex';
import { DOSSIER_STATUSES } from '../../domain/dossiers/dossier-plan';
import { DRIVE_ACL_ROLES } from '../../domain/dossiers/drive-acl';

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('dossiers', (t) => {
    // The plan id (the workflow is dossier-<id>).
    t.uuid('id').primary();
    t.text('title').notNullable();
    t.uuid('case_id').references('cases.id');
    t.jsonb('plan').notNullable();
    t.text('status').notNullable().defaultTo('queued');
    t.text('error');
    // The signed package's two files (domain/evidence/package-manifest.ts): the manifest
    // (datapackage.json) and its signed digest (datapackage-digest.json), byte for byte as UTF-8,
    // the manifest's SHA-256 and the signing key's id.
    t.text('manifest');
    t.text('manifest_sha256');
    t.text('digest');
    t.text('key_id');
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('sealed_at', { useTz: true });
    t.index(['created_at', 'id'], 'dossiers_created_idx');
    t.index(['case_id', 'created_at'], 'dossiers_case_idx');
    t.index(['status', 'created_at'], 'dossiers_status_idx');
  });
  await knex.raw(`ALTER TABLE dossiers ADD CONSTRAINT dossiers_status_check CHECK (status IN (${list(DOSSIER_STATUSES)}))`);

  await knex.schema.createTable('dossier_artifacts', (t) => {
    t.uuid('dossier_id').notNullable().references('dossiers.id').onDelete('CASCADE');
    // A safe relative path inside the dossier (checked by domain/dossiers/artifact-name.ts).
    t.text('name').notNullable();
    t.text('blob_key').notNullable();
    t.text('sha256').notNullable();
    t.bigInteger('bytes').notNullable();
    t.text('content_type').notNullable();
    t.text('source_kind').notNullable();
    t.text('source_id').notNullable();
    t.timestamp('collected_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['dossier_id', 'name']);
  });

  await knex.schema.createTable('dossier_acl_grants', (t) => {
    t.uuid('dossier_id').notNullable().references('dossiers.id').onDelete('CASCADE');
    t.text('principal').notNullable();
    t.text('role').notNullable();
    // A revocation hides a derived entry of the same principal too.
    t.boolean('revoked').notNullable().defaultTo(false);
    t.text('granted_by').notNullable();
    t.timestamp('granted_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true });
    t.primary(['dossier_id', 'principal']);
  });
  await knex.raw(`ALTER TABLE dossier_acl_grants ADD CONSTRAINT dossier_acl_grants_role_check CHECK (role IN (${list(DRIVE_ACL_ROLES)}))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('dossier_acl_grants');
  await knex.schema.dropTableIfExists('dossier_artifacts');
  await knex.schema.dropTableIfExists('dossiers');
}
