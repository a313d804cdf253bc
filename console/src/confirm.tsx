// Confirmation before a destructive or state-moving action: the button asks first ("Deactivate…"),
// an inline alert dialog says what will happen, and only its "Yes" button acts. Esc or "Keep"
// backs out. What changed shows at once: the caller reloads and says so.
import { useEffect, useRef, useState, type ReactNode } from 'react';

export function ConfirmButton({ label, question, yes, onConfirm, disabled, className, ariaLabel }: {
  label: ReactNode;
  /** What will happen, as one sentence. */
  question: ReactNode;
  /** The text of the button that acts. */
  yes: string;
  onConfirm: () => Promise<unknown> | void;
  disabled?: boolean;
  className?: string;
  ariaLabel?: string;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const yesRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!asking) return;
    yesRef.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setAsking(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [asking]);
  if (!asking) {
    return <button type="button" className={className} disabled={disabled} aria-label={ariaLabel} onClick={() => setAsking(true)}>{label}</button>;
  }
  const act = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };
  return (
    <span className="notice confirm" role="alertdialog" aria-label={typeof label === 'string' ? `${label}?` : 'Confirm'}>
      <span>{question}</span>{' '}
      <button type="button" ref={yesRef} className="primary" disabled={busy} onClick={() => void act()}>{yes}</button>{' '}
      <button type="button" disabled={busy} onClick={() => setAsking(false)}>Keep</button>
    </span>
  );
}
