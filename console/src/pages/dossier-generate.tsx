// "Generate dossier" on a case page: plans a dossier of the case (POST /reports/dossiers), shows its
// live progress by polling /tasks/{task_id} (stage, percent, retries), and links the dossier when it
// is sealed; below, the case's dossiers. Analysts and admins only (the API's policy).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { sdk } from '../api';
import { describeError } from '../errors';
import { Empty, StatusBadge, Time, useLoad } from '../components';
import { invalidateLoads } from '../query';
import { Link } from '../router';
import { hasRole, useMe } from '../session';
import type { Task } from '../types';

const ENDED = new Set(['completed', 'failed', 'cancelled']);

/** A task's live progress, polled until it ends; `onEnd` runs once then. */
export function TaskProgress({ taskId, what, onEnd }: { taskId: string; what: string; onEnd?: (t: Task) => void }) {
  const [task, setTask] = useState<Task | null>(null);
  const [error, setError] = useState<string | null>(null);
  const endRef = useRef(onEnd);
  endRef.current = onEnd;
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const t = await sdk().tasks.get(taskId);
        if (!live) return;
        setTask(t);
        setError(null);
        if (ENDED.has(t.status)) {
          endRef.current?.(t);
          return;
        }
      } catch (err) {
        if (live) setError(describeError(err).sentence);
      }
      if (live) timer = setTimeout(() => void poll(), 1000);
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [taskId]);
  if (!task) return <p className="live" role="status">{error ?? `Starting ${what}…`}</p>;
  const p = task.progress;
  return (
    <div className="live card" role="status" aria-live="polite">
      <strong>{what}:</strong> <StatusBadge status={task.status} /> {p?.stage && <>stage <strong>{p.stage}</strong></>}
      {p?.percent !== null && p?.percent !== undefined && <> <progress max={100} value={p.percent} aria-label={`${what} progress`} /> {Math.round(p.percent)}%</>}
      {task.lastFailure && <p className="warn">Retrying {task.lastFailure.activity} (attempt {task.lastFailure.attempt}): {task.lastFailure.message}</p>}
      {task.error && <p className="form-error">{task.error.message}</p>}
      {error && <p className="muted small">{error} (still trying)</p>}
    </div>
  );
}

/** The case page's dossier section: generate one with live progress, and the case's dossiers. */
export function CaseDossiers({ caseId, caseTitle }: { caseId: string; caseTitle: string }) {
  const me = useMe();
  const [title, setTitle] = useState(`Dossier: ${caseTitle}`);
  const [started, setStarted] = useState<{ planId: string; taskId: string } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [list, reload] = useLoad(() => sdk().request('get', '/reports/dossiers', { query: { caseId, limit: 20 } }), `case-dossiers:${caseId}`);
  if (!hasRole(me, 'admin', 'analyst')) return null;
  const generate = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const a = await sdk().request('post', '/reports/dossiers', { body: { title: title.trim(), caseId } });
      setStarted({ planId: a.planId, taskId: a.taskId });
      reload();
    } catch (err) {
      setError(describeError(err).sentence);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="case-dossiers">
      <h2 id="case-dossiers">Dossiers</h2>
      <form className="filters" onSubmit={generate} aria-label="Generate a dossier">
        <div className="field grow">
          <label htmlFor="dossier-title">Dossier title</label>
          <input id="dossier-title" required maxLength={300} value={title} onChange={(e) => setTitle(e.target.value)} />
        </div>
        <button type="submit" className="primary" disabled={busy || (!!started && !done)}>Generate dossier</button>
      </form>
      {error && <p className="form-error" role="alert">Could not generate: {error}</p>}
      {started && (
        <TaskProgress
          key={started.taskId} taskId={started.taskId} what="Dossier"
          onEnd={(t) => { setDone(t.status); reload(); invalidateLoads(); }}
        />
      )}
      {started && done && (
        <p role="status" className={done === 'completed' ? 'ok-text' : 'form-error'}>
          {done === 'completed' ? 'The dossier is sealed. ' : `The dossier ${done}. `}
          <Link to={`/dossiers/${started.planId}`}>Open the dossier</Link>
        </p>
      )}
      {list.status === 'ok' && (list.data.items.length === 0 ? <Empty>No dossier of this case yet.</Empty> : (
        <ul>
          {list.data.items.map((d) => (
            <li key={d.id}><Link to={`/dossiers/${d.id}`}>{d.title}</Link> <StatusBadge status={d.status} /> <Time iso={d.createdAt} /></li>
          ))}
        </ul>
      ))}
    </section>
  );
}
