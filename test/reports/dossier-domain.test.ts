// The pure parts of dossiers: artifact names, the sources a plan collects, the derived access list.
import assert from 'node:assert/strict';
import { isSafeArtifactName, safeSegment } from '../../domain/dossiers/artifact-name';
import { DossierPlanSchema, planSources } from '../../domain/dossiers/dossier-plan';
import { deriveDriveAcl } from '../../domain/dossiers/drive-acl';

const CASE = '11111111-1111-4111-8111-111111111111';
const SCAN = '22222222-2222-4222-8222-222222222222';
const t = (iso: string) => new Date(iso);

describe('dossier domain', () => {
  it('accepts relative artifact paths of safe segments and refuses traversal, absolute and odd names', () => {
    for (const ok of ['case/case.json', `intakes/${CASE}/files/0-statement.txt`, 'graph/entities.json']) assert.equal(isSafeArtifactName(ok), true, ok);
    for (const bad of ['', '..', '../x', 'a/../b', '/etc/passwd', 'a//b', 'a/./b', 'a\\b', '.hidden', 'a/b/', 'x'.repeat(513), 'a b', 'caf\u00e9']) {
      assert.equal(isSafeArtifactName(bad), false, JSON.stringify(bad));
    }
    assert.equal(safeSegment('../../etc/Überweisung (1).pdf'), 'berweisung_1_.pdf');
    assert.equal(safeSegment('...'), 'file');
    assert.equal(isSafeArtifactName(`files/0-${safeSegment('..\\..\\boot.ini')}`), true);
  });

  it('requires a source in a plan and derives its sources, deduplicated and filtered by sections', () => {
    const none = DossierPlanSchema.safeParse({ title: 'x' });
    assert.equal(none.success, false);
    assert.deepEqual(none.error!.issues[0]!.path, ['case_id']);
    const plan = DossierPlanSchema.parse({ title: 'x', case_id: CASE, scan_ids: [SCAN] });
    const linked = { intakeIds: ['i1', 'i1'], scanIds: [SCAN, 's2'], entityIds: ['e1'] };
    assert.deepEqual(planSources(plan, linked), [
      { kind: 'case', id: CASE }, { kind: 'intake', id: 'i1' }, { kind: 'investigation', id: SCAN }, { kind: 'investigation', id: 's2' }, { kind: 'graph', id: 'entities' },
    ]);
    assert.deepEqual(planSources({ ...plan, sections: ['intakes', 'graph'] }, linked), [{ kind: 'intake', id: 'i1' }, { kind: 'graph', id: 'entities' }]);
    assert.deepEqual(planSources(DossierPlanSchema.parse({ title: 'x', scan_ids: [SCAN] }), { intakeIds: [], scanIds: [], entityIds: [] }), [{ kind: 'investigation', id: SCAN }]);
  });

  it('derives the access list from case team and referral, keeps the strongest role, and applies grants, revocations and expiry', () => {
    const base = {
      dossier: { created_by: 'ana@x.org', created_at: t('2026-11-22T10:00:00Z') },
      case: { id: CASE, created_by: 'boss@x.org', assignee: 'ana@x.org', created_at: t('2026-11-01T00:00:00Z'), updated_at: t('2026-11-02T00:00:00Z') },
      reviews: [{ claimed_by: 'rev@x.org', decided_by: 'lead@x.org', claimed_at: t('2026-11-03T00:00:00Z'), decided_at: t('2026-11-04T00:00:00Z') }],
      referral: { agency: 'NCA', contact: 'Desk@NCA.example', created_by: 'ana@x.org', created_at: t('2026-11-05T00:00:00Z') },
      grants: [] as Array<{ principal: string; role: string; revoked: boolean; granted_by: string; granted_at: Date; expires_at: Date | null }>,
    };
    const now = t('2026-11-22T12:00:00Z');
    const roles = (acl: ReturnType<typeof deriveDriveAcl>) => Object.fromEntries(acl.map((e) => [e.principal, `${e.role}/${e.source}`]));
    assert.deepEqual(roles(deriveDriveAcl(base, now)), {
      'ana@x.org': 'owner/dossier_creator',
      'boss@x.org': 'owner/case_creator',
      'desk@nca.example': 'reader/lea_referral',
      'lead@x.org': 'reader/case_reviewer',
      'rev@x.org': 'reader/case_reviewer',
    });
    assert.equal(roles(deriveDriveAcl({ ...base, referral: { ...base.referral, contact: null } }, now))['agency:NCA'], 'reader/lea_referral');
    const grants = [
      { principal: 'rev@x.org', role: 'reader', revoked: true, granted_by: 'admin@x.org', granted_at: now, expires_at: null },
      { principal: 'partner@y.org', role: 'writer', revoked: false, granted_by: 'admin@x.org', granted_at: now, expires_at: t('2026-12-01T00:00:00Z') },
      { principal: 'old@y.org', role: 'reader', revoked: false, granted_by: 'admin@x.org', granted_at: now, expires_at: t('2026-11-22T11:59:59Z') },
    ];
    const acl = roles(deriveDriveAcl({ ...base, grants }, now));
    assert.equal(acl['rev@x.org'], undefined, 'revoked');
    assert.equal(acl['partner@y.org'], 'writer/grant');
    assert.equal(acl['old@y.org'], undefined, 'expired');
  });
});
