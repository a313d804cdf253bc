// "Similar sites" on an investigation's overview: the sites the platform links to this one (score
// 0.5 or more) and the leads below, each with its reasons (GET /investigations/ssi/{scan_id}/similar).
import { getUntyped } from '../api';
import { Empty, ErrorState, Loading, useLoad } from '../components';
import { Link } from '../router';

interface SimilarAnswer {
  fingerprinted: boolean;
  items: Array<{ scanId: string; score: number; linked: boolean; reasons: Array<{ kind: string; detail: string; sharedInfrastructure?: boolean }> }>;
}

export function SimilarSites({ scanId }: { scanId: string }) {
  const [similar, reload] = useLoad(() => getUntyped<SimilarAnswer>(`/investigations/ssi/${scanId}/similar`, { limit: 20 }), `similar-${scanId}`);
  return (
    <section aria-labelledby="similar-sites-heading">
      <h3 id="similar-sites-heading">Similar sites</h3>
      {similar.status === 'loading' && <Loading what="similar sites" />}
      {similar.status === 'error' && <ErrorState error={similar.error} retry={reload} />}
      {similar.status === 'ok' && !similar.data.fingerprinted && <Empty>No fingerprints yet: similar sites appear when the investigation has completed.</Empty>}
      {similar.status === 'ok' && similar.data.fingerprinted && similar.data.items.length === 0 && <Empty>No similar site.</Empty>}
      {similar.status === 'ok' && similar.data.items.length > 0 && (
        <ul className="similar-sites">
          {similar.data.items.map((s) => (
            <li key={s.scanId}>
              <Link to={`/investigations/${s.scanId}`}>{s.scanId}</Link>{' '}
              <span className="badge">{s.linked ? 'linked' : 'lead'}</span> <span className="small">score {s.score.toFixed(2)}</span>
              <ul className="small">
                {s.reasons.map((r, i) => (
                  <li key={i}><strong>{r.kind}</strong>: {r.detail}{r.sharedInfrastructure ? ' (shared infrastructure, no weight)' : ''}</li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
