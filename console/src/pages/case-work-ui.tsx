// Pieces the intake, case and referral pages share: the API's field errors keyed by field, a field
// with its error next to it, and a confirmation step before a state-moving action.
import { useState, type ReactNode } from 'react';
import { ApiError } from '../api';
import { describeError } from '../errors';

/**
 * The API's validation details ({path, message}) by field name as the API spells it: the SDK
 * camelCases the paths (body.payload.contactEmail), this answers contact_email.
 */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return {};
  const out: Record<string, string> = {};
  for (const d of error.details as Array<{ path?: unknown; message?: unknown }>) {
    if (typeof d.path !== 'string' || typeof d.message !== 'string') continue;
    const key = (d.path.replace(/^body\.(payload\.)?/, '').split('.')[0] || 'form').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    out[key] ??= d.message;
  }
  return out;
}

/**
 * A labelled control with the error the API gave for it (aria-describedby ties them). The line
 * under the control is always there (the error takes the hint's place), so a message appearing
 * when a field is left never moves the button being clicked.
 */
export function Field({ id, label, error, hint, children, grow }: { id: string; label: string; error?: string; hint?: string; children: ReactNode; grow?: boolean }) {
  return (
    <div className={`field${grow ? ' grow' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {error
        ? <span id={`${id}-error`} className="field-msg form-error small" data-field-error={id}>{error}</span>
        : <span id={`${id}-hint`} className="field-msg muted small">{hint}</span>}
    </div>
  );
}

/** aria attributes of a control whose Field may show an error (or its hint). */
export const described = (id: string, error?: string, hint?: boolean) => ({
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error ? `${id}-error` : hint ? `${id}-hint` : undefined,
});

/**
 * A button whose action waits for a second, explicit confirmation that says what will happen.
 * `run` may throw: the error shows beside the button.
 */
export function ConfirmAction({ label, question, confirmLabel, run, disabled }: { label: string; question: ReactNode; confirmLabel?: string; run: () => Promise<void>; disabled?: boolean }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const go = async () => {
    setBusy(true);
    setError(null);
    try {
      await run();
      setAsking(false);
    } catch (err) {
      setError(describeError(err).sentence);
    } finally {
      setBusy(false);
    }
  };
  if (!asking) {
    return (
      <span className="confirm-action">
        <button type="button" disabled={disabled} onClick={() => { setAsking(true); setError(null); }}>{label}</button>
        {error && <span className="form-error" role="alert"> {error}</span>}
      </span>
    );
  }
  return (
    <div className="notice confirm" role="group" aria-label={`Confirm: ${label}`}>
      <p>{question}</p>
      <button type="button" onClick={go} disabled={busy}>{confirmLabel ?? `Yes, ${label.toLowerCase()}`}</button>{' '}
      <button type="button" onClick={() => setAsking(false)} disabled={busy}>Cancel</button>
      {error && <p className="form-error" role="alert">{error}</p>}
    </div>
  );
}

export const label = (s: string) => s.replace(/_/g, ' ');
