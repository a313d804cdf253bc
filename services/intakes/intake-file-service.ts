// One stored file of an intake, read back for an analyst: as a download (always allowed) or inline
// for a preview, which only image types a browser cannot run script from and PDF may be (an SVG or
// HTML upload is hostile until proven otherwise). Every read is an audit event with its purpose.
import type { Readable } from 'node:stream';
import type { Principal } from '../../domain/accounts/roles';
import { principalName } from '../../domain/accounts/principal-name';
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import { findIntake, findIntakeFile, type IntakeFileRow } from '../../db/repositories/intakes/intake-repository';
import { NotFoundError, UnprocessableError } from '../errors';
import type { ServiceDeps } from '../service-deps';

/** Sniffed content types the API serves inline (previews); every other file is a download only. */
export const INLINE_CONTENT_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'];

export type FileDisposition = 'attachment' | 'inline';

export interface OpenedIntakeFile {
  file: IntakeFileRow;
  body: Readable;
  disposition: FileDisposition;
}

/**
 * An intake's file as a stream: 404 when the intake or the file (of that intake) does not exist,
 * 422 not_previewable when `inline` is asked of a type outside INLINE_CONTENT_TYPES. Audited
 * (intake.file.download or intake.file.view) before the bytes go out.
 */
export async function openIntakeFile(
  deps: Pick<ServiceDeps, 'knex' | 'blobs'>,
  principal: Principal | null,
  input: { intakeId: string; fileId: string; disposition: FileDisposition; purpose: string },
): Promise<OpenedIntakeFile> {
  if (!(await findIntake(deps.knex, input.intakeId))) throw new NotFoundError(`no intake ${input.intakeId}`);
  const file = await findIntakeFile(deps.knex, input.intakeId, input.fileId);
  if (!file) throw new NotFoundError(`intake ${input.intakeId} has no file ${input.fileId}`);
  if (input.disposition === 'inline' && !INLINE_CONTENT_TYPES.includes(file.content_type)) {
    throw new UnprocessableError('not_previewable', `a ${file.content_type} file is served as a download only; previews: ${INLINE_CONTENT_TYPES.join(', ')}`, {
      content_type: file.content_type,
      previewable: INLINE_CONTENT_TYPES,
    });
  }
  const body = await deps.blobs.get(file.blob_key);
  await recordAuditEvent(deps.knex, {
    actor: principalName(principal),
    action: input.disposition === 'inline' ? 'intake.file.view' : 'intake.file.download',
    target_type: 'intake',
    target_id: input.intakeId,
    purpose: input.purpose,
    details: { file_id: file.id, filename: file.filename, sha256: file.sha256, content_type: file.content_type },
  });
  return { file, body, disposition: input.disposition };
}
