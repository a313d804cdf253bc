// The Pages tab's screenshots: a thumbnail per captured page; a click opens the viewer at full size
// (the image at its own resolution, scrollable), with previous/next (buttons or the arrow keys) and
// Esc or "Close" to return to the thumbnail that opened it.
import { useEffect, useRef, useState } from 'react';
import { objectUrl } from '../api';

export interface Shot {
  path: string;
  /** Query parameters of the image's route (an intake file's inline preview). */
  query?: Record<string, string>;
  alt: string;
  caption: string;
}

/** A screenshot's bytes as an object URL (through the SDK: the identity header goes along). */
function useObjectUrl(path: string, query?: Record<string, string>): { src: string | null; failed: boolean } {
  const queryKey = query ? new URLSearchParams(query).toString() : '';
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    setSrc(null);
    setFailed(false);
    objectUrl(path, { query: queryKey ? Object.fromEntries(new URLSearchParams(queryKey)) : undefined }).then(
      (u) => {
        if (live) {
          url = u;
          setSrc(u);
        } else URL.revokeObjectURL(u);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [path, queryKey]);
  return { src, failed };
}

export function ShotThumb({ shot, onOpen }: { shot: Shot; onOpen: () => void }) {
  const { src, failed } = useObjectUrl(shot.path, shot.query);
  if (failed) return <p className="muted">Screenshot unavailable.</p>;
  if (!src) return <p className="muted" role="status">Loading screenshot…</p>;
  return (
    <button type="button" className="shot-thumb" onClick={onOpen} aria-label={`Enlarge: ${shot.alt}`}>
      <img src={src} alt={shot.alt} />
    </button>
  );
}

export function ShotViewer({ shots, index, onIndex, onClose }: { shots: Shot[]; index: number; onIndex: (i: number) => void; onClose: () => void }) {
  const shot = shots[index];
  const { src, failed } = useObjectUrl(shot.path, shot.query);
  const close = useRef<HTMLButtonElement>(null);
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    opener.current = document.activeElement;
    close.current?.focus();
    return () => (opener.current as HTMLElement | null)?.focus?.();
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
      else if (e.key === 'ArrowRight' && index < shots.length - 1) onIndex(index + 1);
      else if (e.key === 'ArrowLeft' && index > 0) onIndex(index - 1);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [index, shots.length, onIndex, onClose]);
  return (
    <div className="shot-viewer" role="dialog" aria-modal="true" aria-label={`Screenshot ${index + 1} of ${shots.length}, full size`}>
      <div className="shot-bar">
        <span className="break">{index + 1} of {shots.length}: {shot.caption}</span>
        <button type="button" onClick={() => onIndex(index - 1)} disabled={index === 0}>← Previous</button>
        <button type="button" onClick={() => onIndex(index + 1)} disabled={index === shots.length - 1}>Next →</button>
        <button type="button" ref={close} onClick={onClose}>Close (Esc)</button>
      </div>
      <div className="shot-full" tabIndex={0} aria-label="The screenshot at full size (scroll to see all of it)">
        {failed ? <p>Screenshot unavailable.</p> : src ? <img src={src} alt={shot.alt} /> : <p role="status">Loading…</p>}
      </div>
    </div>
  );
}
