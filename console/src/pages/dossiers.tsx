// Dossiers: the list (filters in the URL: status, case) and one dossier (/console/dossiers/<id>):
// its progress while it is built, artifacts with hashes and downloads (each with a purpose, as the
// chain of custody records it), the signed manifest, verification and the shared-storage access
// list (admins grant and revoke).
import { useState, type FormEvent } from 'react';
import { download, sdk, type SavedFile } from '../api';
import { ConfirmButton } from '../confirm';
import { describeError } from '../errors';
import { Empty, ErrorState, Loading, Pager, StatusBadge, Time, useLoad } from '../components';
import { Link, useSearchParams } from '../router';
import { hasRole, useMe } from '../session';
import type { Schema } from '../../../sdk/src';
import { TaskProgress } from './dossier-generate';

type Verification = Schema<'DossierVerification'>;
const STATUSES = ['queued', 'collecting', 'signing', 'ready', 'failed'];
const BUILDING = new Set(['queued', 'collecting', 'signing']);

export function DossiersPage() {
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const caseId = params.get('case') ?? '';
  const cursor = params.get('cursor');
  const [list, reload] = useLoad(
    () => sdk().request('get', '/reports/dossiers', { query: { status: (status || undefined) as 'ready' | undefined, caseId: caseId || undefined, cursor: cursor ?? undefined, limit: 50 } }),
    `${status}:${caseId}:${cursor}`,
  );
  return (
    <>
      <h1>Dossiers</h1>
      <p className="muted">Signed packages of a case, its intakes and investigations. Generate one from its <Link to="/cases">case page</Link>.</p>
      <form className="filters" aria-label="Filter dossiers" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="d-status">Status</label>
          <select id="d-status" value={status} onChange={(e) => setParams({ status: e.target.value, cursor: null })}>
            <option value="">Any</option>
            {STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        </div>
        {caseId && <button type="button" onClick={() => setParams({ case: null, cursor: null })}>All cases</button>}
      </form>
      {list.status === 'loading' && <Loading what="dossiers" />}
      {list.status === 'error' && <ErrorState error={list.error} retry={reload} />}
      {list.status === 'ok' && list.data.items.length === 0 && <Empty>No dossier{status || caseId ? ' matches' : ' yet'}.</Empty>}
      {list.status === 'ok' && list.data.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Dossiers, newest first</caption>
            <thead><tr><th scope="col">Title</th><th scope="col">Status</th><th scope="col">Case</th><th scope="col">Created by</th><th scope="col">Created</th><th scope="col">Sealed</th></tr></thead>
            <tbody>
              {list.data.items.map((d) => (
                <tr key={d.id}>
                  <td data-label="Title"><Link to={`/dossiers/${d.id}`}>{d.title}</Link></td>
                  <td data-label="Status"><StatusBadge status={d.status} /></td>
                  <td data-label="Case">{d.caseId ? <Link to={`/cases/${d.caseId}`}>case</Link> : '—'}</td>
                  <td data-label="Created by">{d.createdBy}</td>
                  <td data-label="Created"><Time iso={d.createdAt} /></td>
                  <td data-label="Sealed"><Time iso={d.sealedAt} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager next={list.status === 'ok' ? list.data.nextCursor : null} cursor={cursor} setCursor={(c) => setParams({ cursor: c })} />
    </>
  );
}

function VerificationResult({ v }: { v: Verification }) {
  return (
    <div className={`card ${v.valid ? 'verified' : 'not-verified'}`} role="status">
      <p><strong>{v.valid ? 'Verified: the manifest, its signature and every artifact check out.' : 'NOT verified: see the problems below.'}</strong></p>
      <dl className="facts">
        <dt>Signing key</dt><dd><code>{v.keyId ?? '—'}</code> {v.trusted === true ? '(a platform key)' : v.trusted === false ? '(NOT a platform key)' : ''}</dd>
        <dt>Fingerprint</dt><dd className="break"><code>{v.fingerprint ?? '—'}</code></dd>
        <dt>Algorithm</dt><dd>{v.algorithm ?? '—'}</dd>
        <dt>Timestamp</dt><dd>{v.timestamp.status}{v.timestamp.genTime && <> at <Time iso={v.timestamp.genTime} /></>}{v.timestamp.statement && <> — {v.timestamp.statement}</>}</dd>
        <dt>Artifacts</dt><dd>{v.artifacts.filter((a) => a.ok).length} of {v.artifacts.length} match their hashes</dd>
      </dl>
      {v.problems.length > 0 && <ul className="form-error">{v.problems.map((p, i) => <li key={i}><code>{p.file}</code>: {p.code} — {p.message}</li>)}</ul>}
    </div>
  );
}

function DriveAcl({ id }: { id: string }) {
  const me = useMe();
  const admin = hasRole(me, 'admin');
  const [acl, reload] = useLoad(() => sdk().request('get', '/reports/dossiers/{id}/drive_acl', { path: { id } }), `acl:${id}`);
  const [principal, setPrincipal] = useState('');
  const [role, setRole] = useState('reader');
  const [msg, setMsg] = useState<string | null>(null);
  const change = async (body: { principal: string; role?: 'reader' | 'writer' | 'owner'; revoke?: boolean }, ok: string) => {
    setMsg(null);
    try {
      await sdk().request('post', '/reports/dossiers/{id}/drive_acl', { path: { id }, body });
      setMsg(ok);
      reload();
    } catch (err) {
      setMsg(`Could not change the access list: ${describeError(err).sentence}`);
    }
  };
  const grant = (e: FormEvent) => {
    e.preventDefault();
    void change({ principal: principal.trim(), role: role as 'reader' }, `Granted ${principal.trim()} ${role}.`).then(() => setPrincipal(''));
  };
  return (
    <section aria-labelledby="acl-h">
      <h2 id="acl-h">Shared-storage access</h2>
      {acl.status === 'loading' && <Loading what="the access list" />}
      {acl.status === 'error' && <ErrorState error={acl.error} retry={reload} />}
      {acl.status === 'ok' && (acl.data.entries.length === 0 ? <Empty>Nobody has access.</Empty> : (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Who may read the dossier’s shared folder</caption>
            <thead><tr><th scope="col">Principal</th><th scope="col">Role</th><th scope="col">Why</th><th scope="col">Until</th>{admin && <th scope="col"><span className="sr-only">Actions</span></th>}</tr></thead>
            <tbody>
              {acl.data.entries.map((e) => (
                <tr key={`${e.principal}:${e.source}`}>
                  <td data-label="Principal">{e.principal}</td>
                  <td data-label="Role">{e.role}</td>
                  <td data-label="Why">{e.source.replace(/_/g, ' ')} (by {e.grantedBy})</td>
                  <td data-label="Until">{e.expiresAt ? <Time iso={e.expiresAt} /> : 'no end'}</td>
                  {admin && <td><ConfirmButton label="Revoke" ariaLabel={`Revoke ${e.principal}`} question={`Remove ${e.principal} from the access list?`} yes="Yes, revoke" onConfirm={() => change({ principal: e.principal, revoke: true }, `Revoked ${e.principal}.`)} /></td>}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
      {admin && (
        <form className="filters" onSubmit={grant} aria-label="Grant access">
          <div className="field grow">
            <label htmlFor="acl-principal">Principal (e-mail or agency:name)</label>
            <input id="acl-principal" required value={principal} onChange={(e) => setPrincipal(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="acl-role">Role</label>
            <select id="acl-role" value={role} onChange={(e) => setRole(e.target.value)}>
              <option value="reader">reader</option><option value="writer">writer</option><option value="owner">owner</option>
            </select>
          </div>
          <button type="submit">Grant</button>
        </form>
      )}
      {msg && <p role="status">{msg}</p>}
    </section>
  );
}

function Manifest({ id }: { id: string }) {
  const [open, setOpen] = useState(false);
  const [m] = useLoad(() => (open ? sdk().request('get', '/reports/dossiers/{id}/signature_manifest', { path: { id } }) : Promise.resolve(null)), `manifest:${id}:${open}`);
  return (
    <section aria-labelledby="manifest-h">
      <h2 id="manifest-h">Signature manifest</h2>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>{open ? 'Hide the signed manifest' : 'Show the signed manifest'}</button>
      {open && m.status === 'loading' && <Loading what="the manifest" />}
      {open && m.status === 'error' && <ErrorState error={m.error} />}
      {open && m.status === 'ok' && m.data && (
        <>
          <p className="small">Key <code>{m.data.keyId}</code>, sealed <Time iso={m.data.sealedAt} />, manifest SHA-256 <code className="break">{m.data.manifestSha256}</code></p>
          <pre className="manifest" tabIndex={0} aria-label="datapackage.json">{m.data.manifest}</pre>
        </>
      )}
    </section>
  );
}

export function DossierDetailPage({ id }: { id: string }) {
  const me = useMe();
  const readsContents = hasRole(me, 'analyst');
  const [d, reload] = useLoad(() => sdk().request('get', '/reports/dossiers/{id}', { path: { id } }), id);
  const [purpose, setPurpose] = useState('');
  const [saved, setSaved] = useState<Record<string, SavedFile | { error: string }>>({});
  const [verification, setVerification] = useState<Verification | null>(null);
  const [verifyError, setVerifyError] = useState<string | null>(null);
  const [verifying, setVerifying] = useState(false);
  if (d.status === 'loading') return <Loading what="the dossier" />;
  if (d.status === 'error') return <ErrorState error={d.error} retry={reload} />;
  if (d.status !== 'ok') return null;
  const x = d.data;
  const ready = x.status === 'ready';
  const get = async (key: string, path: string) => {
    try {
      const r = await download(path, { hash: true, query: { purpose: purpose.trim() } });
      setSaved((s) => ({ ...s, [key]: r }));
    } catch (err) {
      setSaved((s) => ({ ...s, [key]: { error: describeError(err).sentence } }));
    }
  };
  const verify = async () => {
    setVerifying(true);
    setVerifyError(null);
    try {
      setVerification(await sdk().request('post', '/reports/dossiers/{id}/verify', { path: { id } }));
    } catch (err) {
      setVerifyError(describeError(err).sentence);
    } finally {
      setVerifying(false);
    }
  };
  const savedNote = (key: string) => {
    const r = saved[key];
    if (!r) return null;
    if ('error' in r) return <span className="form-error" role="alert"> {r.error}</span>;
    return <span className="small"> saved {r.filename}, SHA-256 <code>{r.sha256}</code></span>;
  };
  return (
    <>
      <p><Link to="/dossiers">← Dossiers</Link></p>
      <h1>{x.title}</h1>
      <dl className="facts">
        <dt>Status</dt><dd><StatusBadge status={x.status} />{x.error && <span className="form-error"> {x.error}</span>}</dd>
        <dt>Case</dt><dd>{x.caseId ? <Link to={`/cases/${x.caseId}`}>open the case</Link> : '—'}</dd>
        <dt>Created</dt><dd>by {x.createdBy} <Time iso={x.createdAt} /></dd>
        <dt>Sealed</dt><dd><Time iso={x.sealedAt} /></dd>
        <dt>Manifest SHA-256</dt><dd className="break"><code>{x.manifestSha256 ?? '—'}</code></dd>
        <dt>Signing key</dt><dd><code>{x.keyId ?? '—'}</code></dd>
      </dl>
      {BUILDING.has(x.status) && <TaskProgress taskId={x.taskId} what="Dossier" onEnd={reload} />}
      {ready && (
        <section aria-labelledby="verify-h">
          <h2 id="verify-h">Verification</h2>
          <button type="button" onClick={() => void verify()} disabled={verifying}>{verifying ? 'Verifying…' : 'Verify the dossier'}</button>
          {verifyError && <p className="form-error" role="alert">{verifyError}</p>}
          {verification && <VerificationResult v={verification} />}
        </section>
      )}
      <section aria-labelledby="artifacts-h">
        <h2 id="artifacts-h">Artifacts</h2>
        {ready && readsContents && (
          <div className="filters">
            <div className="field grow">
              <label htmlFor="d-purpose">Purpose of the download (recorded in the audit log)</label>
              <input id="d-purpose" value={purpose} onChange={(e) => setPurpose(e.target.value)} placeholder="e.g. referral to the NCA" />
            </div>
            <button type="button" disabled={!purpose.trim()} onClick={() => void get('zip', `/reports/dossiers/${x.id}/download`)}>Download the dossier (ZIP)</button>
            {savedNote('zip')}
          </div>
        )}
        {ready && !readsContents && <p className="muted">Only analysts download a dossier’s contents (they hold bank details in clear).</p>}
        {x.artifacts.length === 0 ? <Empty>{ready ? 'No artifact.' : 'The artifacts appear once the dossier is sealed.'}</Empty> : (
          <div className="table-wrap">
            <table>
              <caption className="sr-only">The dossier’s artifacts</caption>
              <thead><tr><th scope="col">Name</th><th scope="col">Source</th><th scope="col">Bytes</th><th scope="col">SHA-256</th>{readsContents && <th scope="col"><span className="sr-only">Download</span></th>}</tr></thead>
              <tbody>
                {x.artifacts.map((a) => (
                  <tr key={a.name}>
                    <td data-label="Name"><code>{a.name}</code></td>
                    <td data-label="Source">{a.source.kind}</td>
                    <td data-label="Bytes">{a.bytes}</td>
                    <td data-label="SHA-256"><code className="small break">{a.sha256}</code></td>
                    {readsContents && <td><button type="button" disabled={!purpose.trim()} aria-label={`Download ${a.name}`} onClick={() => void get(a.name, a.downloadPath)}>Download</button>{savedNote(a.name)}</td>}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {ready && <Manifest id={x.id} />}
      <DriveAcl id={x.id} />
    </>
  );
}
