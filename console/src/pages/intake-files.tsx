// An intake's files on its page: every file with its type, size, processing status and hash; for
// analysts (the only role the API serves the bytes to) a download of each, a preview of images
// (a thumbnail, click to enlarge in the full-size viewer) and of PDFs (opened in a new tab from the
// bytes fetched here). Previews use the API's inline variant, which it grants only to image types a
// browser cannot run script from and to PDF; every read is in the audit log.
import { useState } from 'react';
import { download, objectUrl } from '../api';
import { Empty } from '../components';
import { describeError } from '../errors';
import type { IntakeDetail } from '../types';
import { label } from './case-work-ui';
import { ShotThumb, ShotViewer, type Shot } from './investigation-screenshots';

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

type IntakeFile = IntakeDetail['files'][number];

const filePath = (intakeId: string, f: IntakeFile) => `/intakes/${intakeId}/files/${f.id}`;

function PdfPreview({ intakeId, f }: { intakeId: string; f: IntakeFile }) {
  const [error, setError] = useState<string | null>(null);
  const open = async () => {
    setError(null);
    // Opened at once (the click's user activation), filled when the bytes arrive.
    const tab = window.open('', '_blank');
    try {
      const url = await objectUrl(filePath(intakeId, f), { query: { disposition: 'inline', purpose: 'preview' }, type: 'application/pdf' });
      if (tab) tab.location.href = url;
      else window.location.assign(url);
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (err) {
      tab?.close();
      setError(describeError(err).sentence);
    }
  };
  return (
    <>
      <button type="button" onClick={open}>Preview PDF: {f.filename}</button>
      {error && <span role="alert" className="form-error"> {error}</span>}
    </>
  );
}

function DownloadFile({ intakeId, f, done }: { intakeId: string; f: IntakeFile; done: (msg: string) => void }) {
  const save = async () => {
    try {
      const saved = await download(filePath(intakeId, f), { hash: true, query: { purpose: 'download' } });
      done(`saved ${saved.filename}, SHA-256 ${saved.sha256 ?? 'unknown'}`);
    } catch (err) {
      done(`Could not download ${f.filename}: ${describeError(err).sentence}`);
    }
  };
  return <button type="button" onClick={save}>Download {f.filename}</button>;
}

export function IntakeFiles({ i, canOpen }: { i: IntakeDetail; canOpen: boolean }) {
  const [viewing, setViewing] = useState<number | null>(null);
  const [msg, setMsg] = useState<string | null>(null);
  if (i.files.length === 0) return <Empty>No file attached.</Empty>;
  const images = i.files.filter((f) => IMAGE_TYPES.includes(f.contentType));
  const shots: Shot[] = images.map((f) => ({ path: filePath(i.id, f), query: { disposition: 'inline', purpose: 'preview' }, alt: `Uploaded image ${f.filename}`, caption: f.filename }));
  return (
    <>
      <ul aria-label="Files" className="intake-files">
        {i.files.map((f) => {
          const image = images.indexOf(f);
          return (
            <li key={f.id}>
              {f.filename} <span className="muted small">({f.contentType}, {f.size} bytes, {label(f.status)}{f.statusReason ? `: ${f.statusReason}` : ''})</span> <code className="small" title={f.sha256}>sha256 {f.sha256.slice(0, 16)}…</code>
              {canOpen && (
                <div className="toolbar">
                  <DownloadFile intakeId={i.id} f={f} done={setMsg} />
                  {f.contentType === 'application/pdf' && <PdfPreview intakeId={i.id} f={f} />}
                </div>
              )}
              {canOpen && image >= 0 && <ShotThumb shot={shots[image]} onOpen={() => setViewing(image)} />}
            </li>
          );
        })}
      </ul>
      {!canOpen && <p className="muted small">Analysts can preview and download the files.</p>}
      {msg && <p role="status">{msg}</p>}
      {viewing !== null && <ShotViewer shots={shots} index={viewing} onIndex={setViewing} onClose={() => setViewing(null)} />}
    </>
  );
}
