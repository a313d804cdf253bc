// Names people give things (file names of intake uploads, case titles, campaign, saved-search,
// playbook and report names, dossier titles, investigation labels) are shown to others: in the
// console, in file names of downloads, in reports and packages. Invisible characters there deceive:
// a right-to-left override (U+202E) turns `invoice_<U+202E>fdp.exe` into what reads as
// `invoice_exe.pdf`, and control characters (C0, DEL, C1) can rewrite a terminal or a log line. They
// are taken out before a name is stored: line breaks and tabs become a space, the rest is removed.
// Joiners (U+200C, U+200D) stay: emoji sequences and several scripts need them.
import { z } from 'zod';

/** Bidirectional formatting: embeddings, overrides, isolates and the invisible direction marks. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Line breaks and tabs (including NEL and the Unicode line and paragraph separators): a space. */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
/** C0 controls, DEL, C1 controls, and the byte-order mark / zero-width no-break space. */
// eslint-disable-next-line no-control-regex -- control characters are what this removes
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\ufeff]/g;

/** `name` without bidirectional formatting and control characters (breaks and tabs become spaces). */
export function stripUnsafeNameCharacters(name: string): string {
  return name.replace(BIDI, '').replace(BREAKS, ' ').replace(CONTROLS, '');
}

/** True when `text` holds a character stripUnsafeNameCharacters would change. */
export function hasUnsafeNameCharacters(text: string): boolean {
  return stripUnsafeNameCharacters(text) !== text;
}

/**
 * A stored name of at most `max` characters as sent (the bound the API document publishes: a
 * longer name is refused even when stripping would shorten it), then unsafe characters stripped,
 * trimmed, and at least one character left.
 */
export const nameText = (max: number) => z.string().max(max).overwrite(stripUnsafeNameCharacters).trim().min(1).max(max);
