// Artifact names inside a dossier: safe relative paths (`intakes/<id>/files/1-receipt.pdf`), so a
// name can never address anything outside the dossier when it is unpacked or downloaded.
// Pure functions.

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** True for a relative path of safe segments: no `..`, no leading `/`, no backslash, no empty segment. */
export function isSafeArtifactName(name: string): boolean {
  if (name.length === 0 || name.length > 512) return false;
  const segments = name.split('/');
  return segments.every((s) => SEGMENT.test(s) && s !== '.' && s !== '..' && !s.includes('..'));
}

/** A file name reduced to one safe segment (`Überweisung (1).pdf` → `berweisung_1_.pdf`), never empty. */
export function safeSegment(raw: string, fallback = 'file'): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^[._-]+/, '')
    .slice(0, 100);
  return cleaned.length ? cleaned : fallback;
}
